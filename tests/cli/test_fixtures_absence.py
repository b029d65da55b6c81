"""The absence-and-time fixtures reproduce their labelled verdicts through `openloop status`.

Each case is a standpoint that matters in a fixture's README; the same verdicts are written as
``test`` blocks in the fixture's ``.ol`` files, which ``openloop test`` runs. Here they go
through the command line and its JSON, the format other tools read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
FOLDERS = (
    "four-futures/satisfied",
    "four-futures/cancelled",
    "four-futures/superseded",
    "four-futures/open",
    "footprint/all-channels",
    "footprint/missing-issues",
    "gap",
    "late-news",
    "token-rotation",
    "flag-disable",
    "perfect-history",
)


def status_json(capsys, folder: str, at: str, *extra: str) -> dict:
    args = ["status", str(FIXTURES / folder), "--at", at, "--format", "json", *extra]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def expectation(capsys, folder: str, ident: str, at: str, *extra: str) -> dict:
    document = status_json(capsys, folder, at, *extra)
    found = {x["id"]: x for x in document["expectations"]}
    return found[ident]


def summary(x: dict) -> tuple:
    return (x["status"], x["confidence"], x["closed_by"], x["tier"])


# One labelled verdict a line: folder, expectation, at, known ("-": same as at), status,
# confidence, closed_by, tier ("-": none), then flags that must be present (+) or absent (-).
VERDICTS = """
four-futures/satisfied    ff-sat/backups   2024-07-20 - OPEN CORROBORATED_OPEN - - -deadline_passed
four-futures/cancelled    ff-can/backups   2024-07-20 - OPEN CORROBORATED_OPEN - - -deadline_passed
four-futures/superseded   ff-sup/backups   2024-07-20 - OPEN CORROBORATED_OPEN - - -deadline_passed
four-futures/open         ff-open/backups  2024-07-20 - OPEN CORROBORATED_OPEN - - -deadline_passed
four-futures/satisfied    ff-sat/backups   2024-08-31 - SATISFIED - ff-sat/commit-114 state -late
four-futures/cancelled    ff-can/backups   2024-08-31 - CANCELLED - ff-can/adr-008 - -late
four-futures/superseded   ff-sup/backups   2024-08-31 - SUPERSEDED - ff-sup/commit-113 -
four-futures/open         ff-open/backups  2024-08-23 - OPEN CORROBORATED_OPEN - - -deadline_passed
four-futures/open         ff-open/backups  2024-08-31 - OPEN CORROBORATED_OPEN - - +deadline_passed
footprint/all-channels    fp-all/bench-fixtures  2024-08-23 - OPEN CORROBORATED_OPEN - -
footprint/missing-issues  fp-miss/bench-fixtures 2024-08-23 - OPEN INCOMPLETE_SEARCH - -
gap  gap/backups      2024-07-25 - OPEN CORROBORATED_OPEN - -
gap  gap/backups      2024-08-23 - UNKNOWN UNKNOWN - - -deadline_passed
gap  gap/backups      2024-09-01 - UNKNOWN UNKNOWN - - +deadline_passed
gap  gap/runbook      2024-08-23 - SATISFIED - gap/commit-205 state
gap  gap/lock-errors  2024-08-23 - OPEN CORROBORATED_OPEN - -
late-news  ln/audit-log  2024-08-11 -                OPEN CORROBORATED_OPEN - -
late-news  ln/audit-log  2024-08-11 latest           SATISFIED - ln/commit-302 state
late-news  ln/audit-log  2024-08-11 2024-08-19T16:00 SATISFIED - ln/commit-302 state
late-news  ln/audit-log  2024-08-11 2024-08-19T15:59 OPEN CORROBORATED_OPEN - -
late-news  ln/audit-log  2024-08-14 -                UNKNOWN UNKNOWN - -
late-news  ln/audit-log  2024-08-14 latest           SATISFIED - ln/commit-302 state
late-news  ln/audit-log  2024-08-20 -                SATISFIED - ln/commit-302 state
token-rotation tr/deploy-token 2024-08-21 - OPEN CORROBORATED_OPEN - - +awaiting -deadline_passed
token-rotation tr/deploy-token 2024-08-25 - OPEN CORROBORATED_OPEN - - -awaiting -deadline_passed
token-rotation tr/deploy-token 2024-09-01 - OPEN CORROBORATED_OPEN - - -deadline_passed
token-rotation tr/deploy-token 2024-09-01T00:00:01Z - OPEN CORROBORATED_OPEN - - +deadline_passed
token-rotation tr/deploy-token 2024-09-05 - SATISFIED - tr/vault-1042 state +late -deadline_passed
flag-disable  fd/disable-new-checkout  2024-10-02T09:16 - OPEN CORROBORATED_OPEN - -
flag-disable  fd/disable-new-checkout  2024-10-02T09:30 - UNKNOWN UNKNOWN - -
flag-disable  fd/disable-new-checkout  2024-10-02T09:45 - SATISFIED - fd/config-881 state
flag-disable  fd/disable-new-checkout  2024-10-02T13:00 - SATISFIED - fd/config-881 state -late
perfect-history  ph/store-migration  2024-08-23 - SATISFIED - ph/commit-116 state
perfect-history  ph/backups  2024-08-23       - OPEN CORROBORATED_OPEN - - -blocked
perfect-history  ph/backups  2024-08-29T12:00 - SATISFIED - ph/commit-118 state
perfect-history  ph/backups  2024-08-31       - SATISFIED - ph/commit-118 state -late
"""


def _cases() -> list[tuple]:
    cases = []
    for line in VERDICTS.strip().splitlines():
        folder, ident, at, known, status, confidence, closed_by, tier, *flags = line.split()
        verdict = tuple(None if w == "-" else w for w in (status, confidence, closed_by, tier))
        cases.append(
            pytest.param(
                folder,
                ident,
                at,
                () if known == "-" else ("--known", known),
                verdict,
                {f[1:] for f in flags if f[0] == "+"},
                {f[1:] for f in flags if f[0] == "-"},
                id=f"{folder}:{ident}@{at}" + ("" if known == "-" else f"/{known}"),
            )
        )
    return cases


@pytest.mark.parametrize(("folder", "ident", "at", "extra", "expected", "has", "lacks"), _cases())
def test_labelled_verdict(capsys, folder, ident, at, extra, expected, has, lacks):
    x = expectation(capsys, folder, ident, at, *extra)
    assert summary(x) == expected
    assert has <= set(x["flags"])
    assert not lacks & set(x["flags"])


# --- four futures -----------------------------------------------------------------------------


def test_the_four_futures_share_one_opening():
    """Only the trajectory differs: the opening files are identical up to the id prefix."""
    texts = set()
    for sub, prefix in (
        ("satisfied", "ff-sat"),
        ("cancelled", "ff-can"),
        ("superseded", "ff-sup"),
        ("open", "ff-open"),
    ):
        text = (FIXTURES / "four-futures" / sub / "opening.ol").read_text(encoding="utf-8")
        texts.add(text.replace(f"{prefix}/", "PREFIX/").replace(f"{prefix}:", "PREFIX:"))
    assert len(texts) == 1


def test_the_open_future_has_its_bound_from_the_release(capsys):
    x = expectation(capsys, "four-futures/open", "ff-open/backups", "2024-08-31")
    assert x["bound"] == "2024-08-30T12:00:00Z"
    assert x["footprint"]["complete"] is True


# --- footprint --------------------------------------------------------------------------------


def test_footprint_changes_confidence_not_status(capsys):
    full = expectation(capsys, "footprint/all-channels", "fp-all/bench-fixtures", "2024-08-23")
    miss = expectation(capsys, "footprint/missing-issues", "fp-miss/bench-fixtures", "2024-08-23")
    assert full["status"] == miss["status"] == "OPEN"
    assert (full["footprint"]["complete"], miss["footprint"]["complete"]) == (True, False)
    assert (
        set(full["footprint"]["channels"])
        == set(miss["footprint"]["channels"])
        == {"commits", "decisions", "diffs", "issues"}
    )
    assert miss["footprint"]["channels"]["issues"] == {
        "searched": False,
        "through": None,
        "candidates": 0,
        "gaps": [],
        "relevant_gaps": [],
    }
    assert full["footprint"]["channels"]["issues"]["searched"] is True
    assert any(r["code"] == "unsearched" and r["channel"] == "issues" for r in miss["reasons"])


@pytest.mark.parametrize(
    ("folder", "note"),
    [
        ("footprint/all-channels", "corroborated_open; searched 4/4 channels"),
        (
            "footprint/missing-issues",
            "incomplete_search; searched 3/4 channels; not searched: issues",
        ),
    ],
)
def test_footprint_table_says_what_was_searched(capsys, folder, note):
    assert main(["status", str(FIXTURES / folder), "--at", "2024-08-23"]) == 0
    out = capsys.readouterr().out
    assert note in out


# --- gap --------------------------------------------------------------------------------------


def test_gap_footprint_lists_every_gap_and_marks_the_relevant_one(capsys):
    x = expectation(capsys, "gap", "gap/backups", "2024-08-23")
    commits = x["footprint"]["channels"]["commits"]
    assert commits["gaps"] == [[200, 200], [203, 203]]
    assert commits["relevant_gaps"] == [[203, 203]]
    gap = [r for r in x["reasons"] if r["code"] == "gap"]
    assert [(r["channel"], r["detail"]) for r in gap] == [
        ("commits", "commits is missing seq 203 after the opening: the closure could hide there")
    ]


def test_gap_closed_neighbour_still_reports_the_gap(capsys):
    x = expectation(capsys, "gap", "gap/runbook", "2024-08-23")
    assert x["footprint"]["channels"]["commits"]["relevant_gaps"] == [[203, 203]]
    assert x["footprint"]["complete"] is False
    assert any(r["code"] == "gap" for r in x["reasons"])


def test_gap_snapshot_adds_a_reason_and_keeps_the_status(capsys):
    snapshot = str(FIXTURES / "gap" / "snapshot.json")
    x = expectation(capsys, "gap", "gap/backups", "2024-08-23", "--snapshot", snapshot)
    assert summary(x) == ("UNKNOWN", "UNKNOWN", None, None)
    details = [r["detail"] for r in x["reasons"] if r["code"] == "snapshot"]
    assert details == ["snapshot shows backup.backend = PostgreSQL: possibly completed silently"]
    closed = expectation(capsys, "gap", "gap/runbook", "2024-08-23", "--snapshot", snapshot)
    assert not any(r["code"] == "snapshot" for r in closed["reasons"])


# --- flag disable -----------------------------------------------------------------------------


def test_flag_disable_reasons(capsys):
    x = expectation(
        capsys, "flag-disable", "fd/disable-new-checkout", "2024-10-02T09:30", "--reasons", "all"
    )
    reasons = {(r["code"], r["event"]) for r in x["reasons"]}
    assert ("unconfirmed_effect", "fd/action-2") in reasons
    assert ("candidate_rejected", "fd/action-1") in reasons


# --- perfect history --------------------------------------------------------------------------


def test_perfect_history_fails_a_history_only_view_in_both_directions(capsys):
    early = status_json(capsys, "perfect-history", "2024-08-23")
    assert [t["status"] for t in early["tasks"]] == ["INCOMPLETE"]
    assert [(f["kind"], f["event"]) for f in early["findings"]] == [
        ("FALSE_COMPLETION", "ph/claim-9")
    ]
    later = status_json(capsys, "perfect-history", "2024-08-29T12:00")
    assert [t["status"] for t in later["tasks"]] == ["COMPLETE"]
    assert ("FALSE_PENDING", "ph/reminder-3") in {
        (f["kind"], f["event"]) for f in later["findings"]
    }
    # the closing commit never names the obligation
    commit = api.prepare([FIXTURES / "perfect-history"]).project.event("ph/commit-118")
    assert commit is not None and not commit.markers
    assert "backup" not in (commit.text or "").lower()


# --- every fixture ----------------------------------------------------------------------------


@pytest.mark.parametrize("folder", FOLDERS)
def test_fixture_folder_loads_alone_and_documents_itself(folder):
    path = FIXTURES / folder
    project = api.prepare([path]).project
    readme = path / "README.md" if (path / "README.md").exists() else path.parent / "README.md"
    assert readme.exists()
    assert project.tests, "every fixture carries test blocks"
    prefix = {x.id.split("/")[0] for x in project.expectations}
    assert len(prefix) == 1 and all(e.id.split("/")[0] in prefix for e in project.events)


def test_fixture_ids_do_not_clash():
    """Loading every absence fixture together works: ids are unique per folder."""
    project = api.prepare([FIXTURES / f for f in FOLDERS]).project
    ids = [x.id for x in project.expectations]
    assert len(ids) == len(set(ids)) == 14
    assert all(re.fullmatch(r"[a-z-]+/[a-z0-9-]+", x) for x in ids)
