"""Every reproduced figure of the open-loops study, as ``python -m lab eval`` measures it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.evaluation import staleness, suite
from lab.evaluation.histories import Histories
from lab.evaluation.rows import Row, fixtures_dir


@pytest.fixture(scope="module")
def rows() -> dict[str, Row]:
    return {r.experiment: r for r in suite.open_loops(with_cost=False)}


def test_every_row_names_its_study_figure_and_history(rows: dict[str, Row]) -> None:
    for row in rows.values():
        assert (
            row.study and row.measured and row.fixture.startswith(("fixtures/", "1", "synthetic"))
        )
    assert all(r.agrees for r in rows.values()), [
        r.experiment for r in rows.values() if not r.agrees
    ]


@pytest.mark.parametrize(
    ("experiment", "value"),
    [
        ("Four futures: one opening, four trajectories", (4, 4)),
        ("Release scenario: six expectations, one history", (6, 6)),
        ("Backup obligation at three standpoints", (3, 3)),
        ("Late-arriving completion, the day after", (2, 2)),
        ("Deadline: both sides of the bound", (3, 3)),
        ("Planted sequence gap", (3, 3)),
        ("Second domain: flag disablement after an incident", (3, 3)),
        ("Footprint: same verdict, two searches", (True, "4/4", "3/4")),
        ("Staleness: list never re-checked", (3, 3)),
        ("Staleness: mandatory re-verification", (0, 3)),
    ],
)
def test_reproduced_figure(rows: dict[str, Row], experiment: str, value: object) -> None:
    assert rows[experiment].value == value


def test_release_accuracy_is_one_on_six(rows: dict[str, Row]) -> None:
    hits, total = rows["Release scenario: six expectations, one history"].value
    assert total == 6 and hits / total == 1.0


def test_perfect_history_passes_reconstruction_and_fails_the_mention_reader(
    rows: dict[str, Row],
) -> None:
    passed, checks, reader_open, after = rows["Perfect history, failed colleague"].value
    assert passed == checks == 6
    assert reader_open == 3
    assert after == ("SATISFIED", "SATISFIED", "SATISFIED")


def test_ledger_agrees_with_derivation_everywhere(rows: dict[str, Row]) -> None:
    agree, total, lists_agree, lists = rows["Quality: maintained list vs full derivation"].value
    assert total >= 40 and agree == total
    assert lists >= 20 and lists_agree == lists


def test_snapshot_changes_reasons_never_status(rows: dict[str, Row]) -> None:
    changed, added = rows["Snapshot condition"].value
    assert changed == 0 and added >= 1


def test_the_stale_list_is_flagged_by_the_ledger_itself() -> None:
    result = staleness.simulate(Histories(fixtures_dir()))
    assert result["first_open"] == ["intent-401"]
    post = [c for c in result["cycles"] if c["post_closure"]]
    assert [c["never"] for c in post] == [["intent-401"]] * 3
    assert all(c["never_flagged"] == ["intent-401"] for c in post)
    assert all(c["always"] == [] and c["always_flagged"] == [] for c in post)


def test_generated_page_lists_every_experiment(rows: dict[str, Row]) -> None:
    page = Path(__file__).resolve().parents[3] / "docs" / "design" / "evaluation.md"
    text = page.read_text(encoding="utf-8")
    for experiment in rows:
        assert experiment in text
    assert "Derivation cost per query" in text
    assert "The commitment-graph experiment, as a simulation" in text
