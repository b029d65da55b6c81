"""The ledger keeps what the verdicts say, lists the open set, and knows when a check went stale."""

from __future__ import annotations

from pathlib import Path

import ledger_helpers as h
import pytest

from resolver import api, ledger
from resolver.faces.json_format import expectation_dict

CHECKED = 1_800_000_000  # when the simulated checks are made (Unix seconds)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return h.write_history(tmp_path / "history")


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "state" / "ledger.db"


def test_refresh_records_exactly_what_the_verdicts_say(folder: Path, db: Path) -> None:
    summary = ledger.refresh(db, [folder], at="2024-02-01", checked_at=CHECKED)
    prepared = api.prepare([folder])
    resolution = api.status(prepared, at="2024-02-01", reasons=False)
    assert summary.expectations == len(resolution.expectations) == 4
    for verdict in resolution.expectations:
        (check,) = ledger.history(db, verdict.id)
        kept = check.verdict
        assert (kept.status, kept.confidence, kept.closed_by, kept.tier, kept.flags) == (
            verdict.status,
            verdict.confidence,
            verdict.closed_by,
            verdict.tier,
            verdict.flags,
        )
        assert kept.footprint == expectation_dict(verdict, prepared.project)["footprint"]
        assert check.last_checked == CHECKED
        assert check.refresh.at == api.standpoint("2024-02-01").at


def test_the_open_list_holds_open_and_unknown_only(folder: Path, db: Path) -> None:
    ledger.refresh(db, [folder], at="2024-02-01")
    entries = ledger.open_list(db)
    assert [(e.id, e.status, e.confidence) for e in entries] == [
        ("audited", "UNKNOWN", "UNKNOWN"),  # the missing audit seq 2 could hide its closure
        ("backups", "OPEN", "CORROBORATED_OPEN"),
    ]  # tokens is SATISFIED, later NOT_OPENED: neither is on the open list
    assert all(e.fresh and e.stale_reason is None for e in entries)


def test_an_old_check_is_stale_after_the_duration(folder: Path, db: Path) -> None:
    ledger.refresh(db, [folder], at="2024-02-01", checked_at=CHECKED)
    day = 86_400
    assert all(e.fresh for e in ledger.open_list(db, stale_after=day, now=CHECKED + day))
    late = ledger.open_list(db, stale_after=day, now=CHECKED + day + 1)
    assert [e.fresh for e in late] == [False, False]
    assert late[0].stale_reasons == ("not re-verified for 1d",)
    assert all(e.fresh for e in ledger.open_list(db, now=CHECKED + 100 * day))  # no duration


def test_closing_evidence_after_a_refresh_makes_the_list_stale_until_rechecked(
    folder: Path, db: Path
) -> None:
    ledger.refresh(db, [folder], at="2024-02-01", checked_at=CHECKED)
    h.append(folder, h.CLOSING)  # backups is done, but the maintained list does not know yet
    stale = {e.id: e for e in ledger.open_list(db)}
    assert stale["backups"].status == "OPEN" and not stale["backups"].fresh
    assert "events.jsonl grew by" in stale["backups"].stale_reasons[0]
    assert "past line 4" in stale["backups"].stale_reasons[0]

    summary = ledger.refresh(db, [folder], at="2024-02-03", checked_at=CHECKED + 60)
    assert summary.changed_ids == ("backups",)
    assert [e.id for e in ledger.open_list(db)] == ["audited"]
    assert all(e.fresh for e in ledger.open_list(db))
    checks = ledger.history(db, "backups")
    assert [(c.verdict.status, c.verdict.closed_by, c.verdict.tier) for c in checks] == [
        ("OPEN", None, None),
        ("SATISFIED", "c-3", "state"),
    ]
    assert [[s.lines for s in c.refresh.sources if s.kind == "jsonl"] for c in checks] == [
        [4],
        [5],
    ]
    assert [c.last_checked for c in checks] == [CHECKED, CHECKED + 60]


def test_a_rewritten_log_is_caught_even_at_the_same_size(folder: Path, db: Path) -> None:
    ledger.refresh(db, [folder], at="2024-02-01")
    log = folder / "events.jsonl"
    text = log.read_text(encoding="utf-8")
    log.write_text(text.replace('"end"', '"END"'), encoding="utf-8")
    (entry, _) = ledger.open_list(db)
    assert "was rewritten: line 4 differs" in entry.stale_reasons[0]
    log.write_text(text[: len(text) // 2], encoding="utf-8")
    assert "was rewritten" in ledger.open_list(db)[0].stale_reasons[0]
    log.unlink()
    assert ledger.open_list(db)[0].stale_reasons[0].endswith("events.jsonl is gone")


def test_changed_declarations_and_unread_files_are_reported(folder: Path, db: Path) -> None:
    ledger.refresh(db, [folder], at="2024-02-01")
    (folder / "more.jsonl").write_text(h.line(h.CLOSING), encoding="utf-8")
    added = f"{folder.resolve() / 'more.jsonl'} was not read by the check"
    assert ledger.open_list(db)[0].stale_reasons == (added,)  # the folder the refresh read
    elsewhere = folder.parent / "elsewhere"
    h.write_history(elsewhere)
    assert ledger.open_list(db, paths=[folder / "events.jsonl"])[0].fresh  # only where asked
    assert ledger.open_list(db, paths=[elsewhere])[0].stale_reasons == (
        f"{elsewhere / 'events.jsonl'} was not read by the check",
        f"{elsewhere / 'project.ol'} was not read by the check",
    )
    (folder / "more.jsonl").unlink()
    source = folder / "project.ol"
    source.write_text(source.read_text(encoding="utf-8").replace("June", "July"))
    assert ledger.open_list(db)[0].stale_reasons[0].endswith("changed (declarations)")
    assert ledger.open_list(db, check_log=False)[0].fresh


def test_an_expectation_no_longer_declared_leaves_the_list_keeps_its_history(
    folder: Path, db: Path
) -> None:
    ledger.refresh(db, [folder], at="2024-02-01")
    source = folder / "project.ol"
    text = source.read_text(encoding="utf-8")
    source.write_text(text[: text.index("expectation audited")], encoding="utf-8")
    summary = ledger.refresh(db, [folder], at="2024-02-01")
    assert summary.removed_ids == ("audited",)
    assert summary.changed_ids == ()
    assert [e.id for e in ledger.open_list(db)] == ["backups"]
    assert len(ledger.history(db, "audited")) == 1


def test_rebuild_forgets_every_earlier_check_and_never_reuses_an_id(folder: Path, db: Path) -> None:
    first = ledger.refresh(db, [folder], at="2024-01-03")
    second = ledger.refresh(db, [folder], at="2024-02-01")
    assert second.id == first.id + 1
    # The audit gap appeared, commits became searched, c-1 closed the tokens.
    assert second.changed_ids == ("audited", "backups", "tokens")
    assert len(ledger.history(db, "tokens")) == 2
    rebuilt = ledger.rebuild(db, [folder], at="2024-02-01")
    assert rebuilt.id == second.id + 1 and rebuilt.refresh.kind == "rebuild"
    assert rebuilt.changed_ids == ()  # the same verdicts as before the rebuild
    assert [c.refresh.id for c in ledger.history(db, "tokens")] == [rebuilt.id]
    assert [e.id for e in ledger.open_list(db)] == ["audited", "backups"]


def test_known_latest_and_a_prepared_history_serve_many_standpoints(folder: Path, db: Path) -> None:
    h.append(folder, {**h.CLOSING, "recorded": "2024-03-01T00:00:00Z"})  # learned late
    history = ledger.read([folder])
    believed = ledger.refresh(db, history, at="2024-02-03")
    assert [e.id for e in ledger.open_list(db)] == ["audited", "backups"]
    actual = ledger.refresh(db, history, at="2024-02-03", known="latest")
    assert actual.changed_ids == ("backups",) and actual.refresh.known is None
    assert believed.refresh.known == api.standpoint("2024-02-03").at
    assert [e.id for e in ledger.open_list(db)] == ["audited"]
