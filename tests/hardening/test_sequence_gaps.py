"""Sequence gaps are summarised once per channel, never multiplied by expectations (issue 17,
item 10).

A shared tracker's numbers step by 2 on one project's channel, so every second number is a
gap. The histories here are the benchmark's (``lab.bench.gaps_bench``) at small sizes: the
gap atoms, the gap reasons, the ground program and the JSON must grow with gaps plus
expectations, not with their product. Counts and sizes are asserted, never times. The spec's
meanings stay: a relevant gap makes an open expectation UNKNOWN and its footprint incomplete,
a gap before the opening is listed but changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.bench import gaps_bench
from resolver import api
from resolver.cli.main import main
from resolver.faces import json_format, markdown, table
from tests.helpers import resolve_text, verdict

AT = "2030-01-01"


def _solve(tmp_path: Path, events: int, expectations: int, step: int = 2, spread: int = 0):
    name = f"h-{events}-{expectations}-{step}-{spread}"
    folder = gaps_bench.write(tmp_path / name, events, expectations, step, spread)
    prepared = api.prepare([folder])
    return prepared, api.status(prepared, at=AT)


def _json_bytes(prepared, resolution) -> int:
    return len(json_format.render(resolution, prepared.project))


@pytest.mark.parametrize("spread", [0, 3600], ids=["one-opening", "distinct-openings"])
def test_gap_output_grows_with_gaps_plus_expectations(tmp_path: Path, spread: int) -> None:
    sizes = {}
    for events in (200, 400):
        for expectations in (4, 8):
            prepared, res = _solve(tmp_path, events, expectations, spread=spread)
            gaps = events - 1
            atoms = res.atoms
            assert len(atoms.get("gap")) == gaps  # the channel's gaps, once
            assert len(atoms.get("has_relevant_gap")) == expectations
            assert len(atoms.get("listed_gap")) <= 8 * expectations
            gap_reasons = [r for r in atoms.get("reason") if r[1] == "gap"]
            assert len(gap_reasons) == expectations  # one per (expectation, channel)
            assert all(v.status == "SATISFIED" for v in res.expectations)
            sizes[(events, expectations)] = (atoms.ground_rules, _json_bytes(prepared, res))
    for index in (0, 1):  # ground rules, then JSON bytes
        more_x_few_gaps = sizes[(200, 8)][index] - sizes[(200, 4)][index]
        more_x_many_gaps = sizes[(400, 8)][index] - sizes[(400, 4)][index]
        # Four more expectations cost the same whether the channel has 199 gaps or 399.
        assert more_x_many_gaps <= more_x_few_gaps * 1.1 + 200, (index, sizes)


def test_json_lists_a_channels_gaps_once_and_each_footprint_a_bounded_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = gaps_bench.write(tmp_path / "h", 100, 3, 2)
    assert main(["status", str(folder), "--at", AT, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    every = [[2 * k, 2 * k] for k in range(1, 100)]
    assert data["channels"] == {"tracker": {"gaps": every}}
    for x in data["expectations"]:
        fp = x["footprint"]["channels"]["tracker"]
        assert fp["gaps"] == every[:8] and fp["gaps_omitted"] == 91
        # Opened before the first event: every gap is relevant; the first 8 are listed.
        assert fp["relevant_gaps"] == every[:8] and fp["gaps_after_relevant"] == 91
        assert x["footprint"]["complete"] is False
        gap_reasons = [r for r in x["reasons"] if r["code"] == "gap"]
        assert len(gap_reasons) == 1 and gap_reasons[0]["channel"] == "tracker"


def test_table_and_markdown_count_many_gaps_instead_of_listing_them(tmp_path: Path) -> None:
    _, res = _solve(tmp_path, 100, 2)
    note = table.search_note(res.expectations[0])
    assert "gaps in tracker after the opening: seq 2, 4, 6, then 96 later gaps" in note
    lines = dict(table.footprint_lines(res.expectations[0]))
    assert lines["tracker"].endswith(", 99 gaps in seq 2..198")
    assert "198" not in note
    cell = markdown._gaps(res.expectations[0], "tracker")
    assert cell.startswith("99 gaps in 2..198; after the opening: **2**, **4**")
    assert cell.endswith("and 91 later")


# --- the spec's meanings, on small histories --------------------------------------------------

HEAD = """
expectation x {
  title "Ship"
  opened 2024-07-10
  want part.state = "done"
  search commits
}
"""


def _commits(*rows: tuple[int, str]) -> str:
    return "".join(f"event c{seq} {{ channel commits seq {seq} at {at} }}\n" for seq, at in rows)


def test_a_gap_after_the_opening_leaves_it_unknown_and_incomplete() -> None:
    v = verdict(
        resolve_text(HEAD + _commits((1, "2024-07-11"), (3, "2024-07-12")), at="2024-08-01"), "x"
    )
    assert (v.status, v.confidence, v.footprint_complete) == ("UNKNOWN", "UNKNOWN", False)
    fp = v.channels["commits"]
    assert fp.gaps == ((2, 2),) and fp.relevant_gaps == ((2, 2),) and fp.has_relevant_gap


def test_a_gap_before_the_opening_is_listed_and_changes_nothing() -> None:
    v = verdict(
        resolve_text(HEAD + _commits((1, "2024-07-01"), (3, "2024-07-02")), at="2024-08-01"), "x"
    )
    assert (v.status, v.confidence, v.footprint_complete) == ("OPEN", "CORROBORATED_OPEN", True)
    fp = v.channels["commits"]
    assert fp.gaps == ((2, 2),) and fp.relevant_gaps == () and not fp.has_relevant_gap
    assert not [r for r in v.reasons if r.code == "gap"]


def test_only_the_gaps_after_the_opening_are_listed_and_one_reason_names_the_first() -> None:
    rows = [(1, "2024-07-01"), (3, "2024-07-02"), (5, "2024-07-11"), (7, "2024-07-12")]
    v = verdict(resolve_text(HEAD + _commits(*rows), at="2024-08-01"), "x")
    fp = v.channels["commits"]
    assert fp.gaps == ((2, 2), (4, 4), (6, 6))
    assert fp.relevant_gaps == ((4, 4), (6, 6)) and fp.gaps_after == 0
    assert [(r.channel, r.gap) for r in v.reasons if r.code == "gap"] == [("commits", (4, 4))]


def test_explain_lists_eight_gaps_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = gaps_bench.write(tmp_path / "h", 100, 2, 2)
    assert main(["explain", "x0", str(folder), "--at", AT, "--full"]) == 0
    out = capsys.readouterr().out
    assert out.count("missing seq") == 8
    assert "91 more of the 99 gaps in seq 2..198 are not listed here" in out
