"""Absence and time, one rule at a time: footprints, gaps, confidence, bounds, unconfirmed
effects and snapshots (SPEC §3, rules/standpoint/absence.lp, bounds.lp and
snapshot.lp).

Each test names the rule it guards; deleting that rule makes the test fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.errors import InputError
from resolver.times import parse_time
from resolver.verdicts.resolution import ExpectationVerdict
from tests.helpers import prepare_text, resolve_text, verdict

# Opened 17 July 09:00 by a remark on the mention channel; commits is the only work channel.
BASE = """
expectation x {
  title "Move backups to PostgreSQL"
  opened_by open-1
  want backup.backend = "PostgreSQL"
}
event open-1 { channel sessions at 2024-07-17T09:00 text "backups still on sqlite" }
"""

SATISFY = 'set backup.backend = "PostgreSQL"'


def commit(ident: str, at: str, *clauses: str, seq: int | None = None) -> str:
    """A commit event on the work channel; ``clauses`` are added verbatim."""
    numbered = f" seq {seq}" if seq is not None else ""
    return f"event {ident} {{ channel commits{numbered} at {at} {' '.join(clauses)} }}\n"


def status_of(
    extra: str, at: str = "2024-09-01", known: str | None = None, base: str = BASE, ident: str = "x"
) -> ExpectationVerdict:
    return verdict(resolve_text(base + extra, at=at, known=known), ident)


def with_clause(clause: str, base: str = BASE) -> str:
    """BASE with one more clause in the expectation block."""
    return base.replace("  want backup", f"  {clause}\n  want backup")


def codes(v: ExpectationVerdict) -> set[tuple[str, str]]:
    return {(r.code, r.detail) for r in v.reasons}


def when(text: str) -> int:
    return parse_time(text)


# --- search channels and footprints -----------------------------------------------------------


def test_every_search_channel_searched_gives_corroborated_open():
    """confidence(X, corroborated_open): open, every search channel searched, no gap."""
    v = status_of(commit("c1", "2024-08-01", 'text "tune the pool"'))
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")
    assert v.footprint_complete
    assert list(v.channels) == ["commits"]


def test_declared_work_channel_is_a_default_search_channel():
    """search_channel from declared work channels: a declared channel with no events counts."""
    v = status_of("channel issues work\n" + commit("c1", "2024-08-01"))
    assert set(v.channels) == {"commits", "issues"}
    assert not v.channels["issues"].searched
    assert (v.status, v.confidence) == ("OPEN", "INCOMPLETE_SEARCH")
    assert not v.footprint_complete
    assert ("unsearched", "unsearched") in codes(v)
    assert any(r.code == "unsearched" and r.channel == "issues" for r in v.reasons)


def test_work_channel_of_a_visible_event_is_a_default_search_channel():
    """search_channel from visible events: an undeclared work channel joins once it is seen."""
    extra = "event d1 { channel deploys at 2024-08-05 }\n" + commit("c1", "2024-08-01")
    assert set(status_of(extra, at="2024-08-02").channels) == {"commits"}
    assert set(status_of(extra, at="2024-08-06").channels) == {"commits", "deploys"}


def test_mention_channels_are_not_default_search_channels():
    """Only work channels are searched by default: sessions has events but is not listed."""
    v = status_of(commit("c1", "2024-08-01"))
    assert "sessions" not in v.channels


def test_search_list_replaces_the_default():
    """search_channel(X, C) :- search(X, C): only the listed channels, declared or not."""
    base = with_clause("search commits, tickets")
    v = status_of(
        "channel ops work\nevent o1 { channel ops at 2024-08-01 }\n" + commit("c1", "2024-08-01"),
        base=base,
    )
    assert set(v.channels) == {"commits", "tickets"}
    assert not v.channels["tickets"].searched
    assert v.confidence == "INCOMPLETE_SEARCH"


def test_a_channel_is_searched_only_through_visible_events():
    """searched(C) needs an event visible at (T, K): neither a future nor an unrecorded one."""
    assert status_of(commit("c1", "2024-08-01"), at="2024-07-31").confidence == (
        "INCOMPLETE_SEARCH"
    )
    late = commit("c1", "2024-08-01", "recorded 2024-08-10")
    assert status_of(late, at="2024-08-05").confidence == "INCOMPLETE_SEARCH"
    assert status_of(late, at="2024-08-05", known="latest").confidence == "CORROBORATED_OPEN"


def test_through_is_the_latest_visible_at():
    """through(C, M): the latest at among the channel's visible events."""
    extra = (
        commit("c1", "2024-08-01")
        + commit("c2", "2024-08-05T12:00")
        + commit("c3", "2024-08-10", "recorded 2024-08-20")
    )
    v = status_of(extra, at="2024-08-15")
    assert v.channels["commits"].through == when("2024-08-05T12:00")
    v = status_of(extra, at="2024-08-15", known="latest")
    assert v.channels["commits"].through == when("2024-08-10")
    assert status_of("channel issues work\n", at="2024-08-15").channels["issues"].through is None


def test_candidates_counts_visible_candidates_per_channel():
    """candidates(X, C, N): touching work events after the opening, visible, per channel."""
    extra = (
        commit("c0", "2024-07-10", 'text "backup cleanup moved"')  # before the opening
        + commit("c1", "2024-08-01", 'text "backup cleanup moved"')  # a link: a candidate
        + commit("c2", "2024-08-02", 'set backup.backend = "MySQL"')  # touches the key
        + commit("c3", "2024-08-03", 'text "tune the pool"')  # touches nothing
        + commit("c5", "2024-08-03", 'text "backup rotation"')  # one shared word: no link
        + commit("c4", "2024-08-04", 'text "backup rotation moved"', "recorded 2024-09-10")
    )
    v = status_of(extra)
    assert v.channels["commits"].candidates == 2
    assert status_of(extra, known="latest").channels["commits"].candidates == 3


# --- gaps -------------------------------------------------------------------------------------


def test_missing_seq_between_visible_events_is_a_gap():
    """gap(C, Lo, Hi) from next_vis: one missing number."""
    extra = "".join(commit(f"c{n}", f"2024-08-0{n}", seq=n) for n in (1, 2, 4))
    v = status_of(extra)
    assert v.channels["commits"].gaps == ((3, 3),)


def test_missing_range_is_one_gap_from_first_to_last_missing():
    """gap(C, S + 1, S2 - 1): a run of missing numbers is reported as one range."""
    extra = commit("c1", "2024-08-01", seq=10) + commit("c5", "2024-08-05", seq=14)
    v = status_of(extra)
    assert v.channels["commits"].gaps == ((11, 13),)


def test_unrecorded_events_leave_a_gap_until_they_are_known():
    """vseq/skip: a number present in the log but not visible at K is missing there, and a
    run of several such numbers is walked through (the recursive skip and next_vis rules)."""
    extra = (
        commit("c1", "2024-08-01", seq=1)
        + commit("c2", "2024-08-02", "recorded 2024-08-20", seq=2)
        + commit("c3", "2024-08-03", "recorded 2024-08-20", seq=3)
        + commit("c4", "2024-08-04", seq=4)
    )
    v = status_of(extra, at="2024-08-10")
    assert v.channels["commits"].gaps == ((2, 3),)
    assert v.status == "UNKNOWN"
    v = status_of(extra, at="2024-08-10", known="latest")
    assert v.channels["commits"].gaps == ()
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")


def test_single_unrecorded_event_between_visible_neighbours():
    """next_vis(C, S, S3) :- skip(...): one invisible number between two visible ones."""
    extra = (
        commit("c1", "2024-08-01", seq=1)
        + commit("c2", "2024-08-02", "recorded 2024-08-20", seq=2)
        + commit("c3", "2024-08-03", seq=3)
    )
    assert status_of(extra, at="2024-08-10").channels["commits"].gaps == ((2, 2),)


def test_events_without_seq_take_no_part_in_gaps():
    extra = (
        commit("c1", "2024-08-01", seq=1)
        + commit("c2", "2024-08-02")
        + commit("c3", "2024-08-03", seq=2)
    )
    v = status_of(extra)
    assert v.channels["commits"].gaps == ()
    assert v.confidence == "CORROBORATED_OPEN"


def test_missing_numbers_after_the_last_visible_event_are_no_gap():
    """A gap needs a visible later neighbour: the future is not a hole in the history."""
    extra = commit("c1", "2024-08-01", seq=1) + commit("c3", "2024-08-20", seq=3)
    v = status_of(extra, at="2024-08-10")
    assert v.channels["commits"].gaps == ()
    assert v.confidence == "CORROBORATED_OPEN"


def test_duplicate_seq_numbers_are_not_gaps():
    extra = (
        commit("c1", "2024-08-01", seq=1)
        + commit("c1b", "2024-08-01", seq=1)
        + commit("c2", "2024-08-02", seq=2)
    )
    assert status_of(extra).channels["commits"].gaps == ()


def test_gaps_are_per_channel():
    """Sequence numbers count within one channel: interleaved channels leave no gap."""
    extra = (
        commit("c1", "2024-08-01", seq=1)
        + "event i2 { channel issues seq 2 at 2024-08-02 }\n"
        + commit("c3", "2024-08-03", seq=3)
    )
    v = status_of(extra)
    assert v.channels["commits"].gaps == ((2, 2),)
    assert v.channels["issues"].gaps == ()


# --- relevant gaps and UNKNOWN ----------------------------------------------------------------

GAPPED = commit("c1", "2024-08-01", seq=1) + commit("c3", "2024-08-03", seq=3)


def test_relevant_gap_makes_an_open_expectation_unknown():
    """relevant_gap + unknown_because(X, gap): never a confident OPEN over a hole."""
    v = status_of(GAPPED)
    assert (v.status, v.confidence) == ("UNKNOWN", "UNKNOWN")
    assert v.channels["commits"].relevant_gaps == ((2, 2),)
    assert not v.footprint_complete
    gap = [r for r in v.reasons if r.code == "gap"]
    assert [(r.channel, r.gap) for r in gap] == [("commits", (2, 2))]


def test_gap_before_the_opening_is_listed_but_not_relevant():
    """relevant_gap needs the later neighbour after the opening."""
    extra = (
        commit("c1", "2024-07-01", seq=1)
        + commit("c3", "2024-07-03", seq=3)
        + commit("c4", "2024-08-01", seq=4)
    )
    v = status_of(extra)
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")
    assert v.channels["commits"].gaps == ((2, 2),)
    assert v.channels["commits"].relevant_gaps == ()
    assert v.footprint_complete
    assert not any(r.code == "gap" for r in v.reasons)


def test_gap_whose_later_neighbour_is_at_the_opening_is_not_relevant():
    """Boundary: the missing event lies at or before the neighbour, so At = opening cannot
    hide a candidate (candidates are strictly after the opening); a minute later it can."""
    at_opening = commit("c1", "2024-07-10", seq=1) + commit("c3", "2024-07-17T09:00", seq=3)
    assert status_of(at_opening).status == "OPEN"
    after = commit("c1", "2024-07-10", seq=1) + commit("c3", "2024-07-17T09:01", seq=3)
    assert status_of(after).status == "UNKNOWN"


def test_gap_outside_the_search_channels_is_not_relevant():
    """relevant_gap needs a search channel."""
    base = with_clause("search issues")
    v = status_of(GAPPED + "event i1 { channel issues at 2024-08-02 }\n", base=base)
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")
    assert "commits" not in v.channels


def test_gap_outranks_an_unsearched_channel():
    """A relevant gap gives UNKNOWN even when another channel was never searched."""
    v = status_of("channel issues work\n" + GAPPED)
    assert (v.status, v.confidence) == ("UNKNOWN", "UNKNOWN")
    assert any(r.code == "unsearched" for r in v.reasons)


def test_closed_verdict_stays_closed_and_still_reports_the_gap():
    """Closed verdicts carry no confidence; their footprint and gap reason are still there."""
    v = status_of(GAPPED + commit("c4", "2024-08-04", SATISFY, seq=4))
    assert (v.status, v.closed_by, v.confidence) == ("SATISFIED", "c4", None)
    assert v.channels["commits"].relevant_gaps == ((2, 2),)
    assert not v.footprint_complete
    assert any(r.code == "gap" for r in v.reasons)


def test_not_opened_has_no_confidence_and_no_relevant_gap():
    v = status_of(GAPPED, at="2024-07-01")
    assert (v.status, v.confidence) == ("NOT_OPENED", None)


def test_gap_reaching_back_before_the_opening_is_relevant():
    """Only the later neighbour matters: the hole may lie on either side of the opening."""
    extra = commit("c1", "2024-07-01", seq=1) + commit("c3", "2024-08-03", seq=3)
    assert status_of(extra).status == "UNKNOWN"


def test_reopened_expectation_over_a_gap_is_unknown():
    """is_open covers a reopened expectation: a gap after the opening still counts."""
    extra = (
        commit("c1", "2024-08-01", SATISFY, seq=1)
        + commit("r1", "2024-08-05", "by alice reopens x", seq=2)
        + commit("c9", "2024-08-09", seq=4)
    )
    v = status_of(extra)
    assert v.status == "UNKNOWN" and "reopened" in v.flags


# --- unconfirmed effects ----------------------------------------------------------------------

UNKNOWN_EFFECT = commit("u1", "2024-08-01", SATISFY, "outcome unknown")


def test_unknown_outcome_that_would_satisfy_makes_unknown():
    """unknown_because(X, unconfirmed_effect)."""
    v = status_of(UNKNOWN_EFFECT)
    assert (v.status, v.confidence) == ("UNKNOWN", "UNKNOWN")
    assert any(r.code == "unconfirmed_effect" and r.event == "u1" for r in v.reasons)
    assert not any(r.code == "gap" for r in v.reasons)


def test_unknown_outcome_counts_only_when_visible():
    late = commit("u1", "2024-08-01", SATISFY, "outcome unknown", "recorded 2024-08-20")
    assert status_of(late, at="2024-08-10").status == "OPEN"
    assert status_of(late, at="2024-08-10", known="latest").status == "UNKNOWN"


def test_failed_outcome_is_no_evidence():
    v = status_of(commit("f1", "2024-08-01", SATISFY, "outcome failed"))
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")
    assert ("candidate_rejected", "failed_outcome") in codes(v)


def test_later_confirmed_observation_satisfies():
    v = status_of(UNKNOWN_EFFECT + commit("c2", "2024-08-03", SATISFY))
    assert (v.status, v.closed_by, v.tier, v.confidence) == ("SATISFIED", "c2", "state", None)


def test_unknown_outcome_below_verify_changes_nothing():
    """unknown yields unconfirmed_effect only where it would satisfy at an accepted tier."""
    base = with_clause("verify state")
    ev = commit("u1", "2024-08-01", "by dev completes x", "outcome unknown")
    assert status_of(ev, base=base).status == "OPEN"
    assert status_of(ev).status == "UNKNOWN"


def test_unknown_outcome_before_a_reopening_no_longer_counts():
    """unknown_because(X, unconfirmed_effect) reads only the current open period."""
    extra = (
        UNKNOWN_EFFECT
        + commit("c2", "2024-08-03", SATISFY)
        + commit("r1", "2024-08-05", "by alice reopens x")
    )
    v = status_of(extra)
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")
    again = extra + commit("u2", "2024-08-07", SATISFY, "outcome unknown")
    assert status_of(again).status == "UNKNOWN"


# --- bounds -----------------------------------------------------------------------------------

RELEASE = "event rel { channel releases at 2024-08-30 }\n"


def test_bound_is_the_deadline():
    v = status_of("", base=with_clause("deadline 2024-08-30"))
    assert v.bound == when("2024-08-30")


def test_before_event_bounds_only_once_visible():
    """bound_at(X, B) :- before(X, E), visible(E), at(E, B)."""
    base = with_clause("before rel")
    assert status_of(RELEASE, at="2024-08-29", base=base).bound is None
    assert status_of(RELEASE, at="2024-08-31", base=base).bound == when("2024-08-30")
    unrecorded = RELEASE.replace("}", "recorded 2024-09-05 }")
    assert status_of(unrecorded, at="2024-08-31", base=base).bound is None


@pytest.mark.parametrize(
    ("deadline", "bound"), [("2024-08-25", "2024-08-25"), ("2024-09-05", "2024-08-30")]
)
def test_the_earlier_bound_wins(deadline, bound):
    base = with_clause(f"deadline {deadline}", with_clause("before rel"))
    assert status_of(RELEASE, at="2024-09-10", base=base).bound == when(bound)


def test_deadline_passed_needs_t_after_the_bound():
    """flag(X, deadline_passed) for OPEN: T > bound, not T = bound."""
    base = with_clause("deadline 2024-08-30")
    assert "deadline_passed" not in status_of("", at="2024-08-30", base=base).flags
    assert "deadline_passed" in status_of("", at="2024-08-30T00:00:01Z", base=base).flags


def test_deadline_passed_applies_to_unknown():
    """flag(X, deadline_passed) for UNKNOWN."""
    v = status_of(UNKNOWN_EFFECT, base=with_clause("deadline 2024-08-30"))
    assert v.status == "UNKNOWN" and "deadline_passed" in v.flags


def test_deadline_passed_not_on_closed():
    base = with_clause("deadline 2024-08-30")
    v = status_of(commit("c1", "2024-09-02", SATISFY), at="2024-09-05", base=base)
    assert v.status == "SATISFIED" and "deadline_passed" not in v.flags


def test_late_needs_closed_at_after_the_bound():
    """flag(X, late): closed_at > bound; closing exactly at the bound is on time."""
    base = with_clause("deadline 2024-08-30")
    on_time = status_of(commit("c1", "2024-08-30", SATISFY), base=base)
    assert on_time.status == "SATISFIED" and "late" not in on_time.flags
    late = status_of(commit("c1", "2024-08-30T00:01", SATISFY), base=base)
    assert late.status == "SATISFIED" and "late" in late.flags


def test_late_reads_the_before_event():
    base = with_clause("before rel")
    v = status_of(RELEASE + commit("c1", "2024-08-31", SATISFY), base=base)
    assert "late" in v.flags
    assert "late" not in status_of(commit("c1", "2024-08-31", SATISFY), base=base).flags


def test_late_applies_to_any_close_after_the_bound():
    """SPEC: `late` (closed after the bound), whatever the closing status."""
    base = with_clause("deadline 2024-08-30")
    v = status_of(commit("d1", "2024-09-02", "by alice cancels x"), at="2024-09-05", base=base)
    assert v.status == "CANCELLED" and "late" in v.flags


def test_the_bound_limits_reopening_by_contradiction():
    """has_bound(X): a contradiction reopens iff its at <= bound; without a bound, always."""
    contradiction = commit("c1", "2024-08-01", SATISFY) + commit(
        "c2", "2024-08-30", 'set backup.backend = "SQLite"'
    )
    assert status_of(contradiction).status == "OPEN"
    base = with_clause("deadline 2024-08-30")
    assert status_of(contradiction, base=base).status == "OPEN"
    base = with_clause("deadline 2024-08-29T23:59")
    assert status_of(contradiction, base=base).status == "SATISFIED"


def test_awaiting_within_the_window_of_the_opening():
    """flag(X, awaiting): open and T <= opening + window (opening 17 July 09:00, window 2d)."""
    base = with_clause("window 2d")
    assert "awaiting" in status_of("", at="2024-07-19T09:00", base=base).flags
    assert "awaiting" not in status_of("", at="2024-07-19T09:01", base=base).flags
    assert "awaiting" not in status_of("", at="2024-07-19T09:00").flags


def test_awaiting_only_while_open():
    base = with_clause("window 2d")
    closed = status_of(commit("c1", "2024-07-18", SATISFY), at="2024-07-18T12:00", base=base)
    assert closed.status == "SATISFIED" and "awaiting" not in closed.flags
    unknown = commit("u1", "2024-07-18", SATISFY, "outcome unknown")
    assert "awaiting" not in status_of(unknown, at="2024-07-18T12:00", base=base).flags


# --- snapshots --------------------------------------------------------------------------------


def snapshot_status(
    tmp_path: Path, state: dict, extra: str = "", base: str = BASE, at: str = "2024-09-01"
) -> ExpectationVerdict:
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps({"observed": "2024-09-01T08:00:00Z", "state": state}))
    prepared = prepare_text(base + extra)
    return verdict(api.status(prepared, at=at, snapshot=path), "x")


def test_snapshot_showing_the_wanted_value_suggests_silent_completion(tmp_path):
    """snapshot_says(X, suggests_done): a reason, never a status change."""
    v = snapshot_status(tmp_path, {"backup.backend": "PostgreSQL"}, commit("c1", "2024-08-01"))
    assert (v.status, v.confidence) == ("OPEN", "CORROBORATED_OPEN")
    assert ("snapshot", "suggests_done") in codes(v)


def test_snapshot_showing_another_value_corroborates_open(tmp_path):
    """snapshot_says(X, agrees_open): the wanted key with another value."""
    v = snapshot_status(tmp_path, {"backup.backend": "SQLite"})
    assert v.status == "OPEN"
    snap = [r for r in v.reasons if r.code == "snapshot"]
    assert [r.detail for r in snap] == ["agrees_open"]
    assert snap[0].value == "SQLite"


def test_snapshot_speaks_to_unknown_verdicts_too(tmp_path):
    v = snapshot_status(tmp_path, {"backup.backend": "PostgreSQL"}, GAPPED)
    assert v.status == "UNKNOWN"
    assert ("snapshot", "suggests_done") in codes(v)


def test_snapshot_showing_the_superseding_state(tmp_path):
    """snapshot_says(X, suggests_superseded): the superseded_when state is observed."""
    base = with_clause('superseded_when backup.kind = "object-storage"')
    v = snapshot_status(tmp_path, {"backup.kind": "object-storage"}, base=base)
    assert v.status == "OPEN"
    assert ("snapshot", "suggests_superseded") in codes(v)


def test_snapshot_says_nothing_about_closed_or_unrelated(tmp_path):
    closed = snapshot_status(
        tmp_path, {"backup.backend": "SQLite"}, commit("c1", "2024-08-01", SATISFY)
    )
    assert closed.status == "SATISFIED"
    assert not any(r.code == "snapshot" for r in closed.reasons)
    unrelated = snapshot_status(tmp_path, {"cache.backend": "Redis"})
    assert not any(r.code == "snapshot" for r in unrelated.reasons)


def test_malformed_snapshot_is_an_input_error(tmp_path):
    path = tmp_path / "snapshot.json"
    path.write_text('{"observed": "2024-09-01", "state": [1, 2]}')
    with pytest.raises(InputError, match=r"snapshot\.json:1: error:"):
        api.status(prepare_text(BASE), at="2024-09-01", snapshot=path)


# --- what people read -------------------------------------------------------------------------


def folder(tmp_path: Path, text: str) -> str:
    from tests.helpers import PREAMBLE

    (tmp_path / "h.ol").write_text(PREAMBLE + text, encoding="utf-8")
    return str(tmp_path)


def test_json_shows_footprint_and_confidence(tmp_path, capsys):
    path = folder(tmp_path, BASE + "channel issues work\n" + GAPPED)
    assert main(["status", path, "--at", "2024-09-01", "--format", "json"]) == 0
    x = json.loads(capsys.readouterr().out)["expectations"][0]
    assert (x["status"], x["confidence"]) == ("UNKNOWN", "UNKNOWN")
    assert x["footprint"]["complete"] is False
    commits = x["footprint"]["channels"]["commits"]
    assert commits == {
        "searched": True,
        "through": "2024-08-03T00:00:00Z",
        "candidates": 0,
        "gaps": [[2, 2]],
        "relevant_gaps": [[2, 2]],
    }
    assert x["footprint"]["channels"]["issues"]["searched"] is False
    assert {"gap", "unsearched"} <= {r["code"] for r in x["reasons"]}


def test_table_says_how_many_channels_were_searched(tmp_path, capsys):
    path = folder(tmp_path, BASE + "channel issues work\n" + commit("c1", "2024-08-01"))
    assert main(["status", path, "--at", "2024-09-01"]) == 0
    out = capsys.readouterr().out
    assert "incomplete_search" in out
    assert "searched 1/2 channels" in out
    assert "not searched: issues" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_table_names_the_gap(tmp_path, capsys):
    path = folder(tmp_path, BASE + GAPPED)
    assert main(["status", path, "--at", "2024-09-01"]) == 0
    out = capsys.readouterr().out
    assert "UNKNOWN" in out and "gap in commits: seq 2" in out


def test_markdown_shows_confidence_and_footprint(tmp_path, capsys):
    path = folder(tmp_path, BASE + "channel issues work\n" + commit("c1", "2024-08-01"))
    assert main(["status", path, "--at", "2024-09-01", "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "incomplete_search" in out
    assert "searched 1/2 channels" in out and "not searched: issues" in out
