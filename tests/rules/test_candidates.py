"""rules/prepare/candidates.lp: which events touch an expectation, and which may close it."""

from __future__ import annotations

from tests.rules.harness import prepare

#: X (10) opens at 100 by the session event 5; channel 1 is work, 2 is sessions (mention).
BASE = (
    "channel(1). channel(2). sessions_channel(2). expectation(10). opened_by(10,5). "
    "event(5,2,100,100,0). want(10,30,31). superseded_when(10,40,41). "
)


def test_touches_by_key_marker_or_text() -> None:
    a = prepare(
        BASE + "event(6,1,200,200,0). sets(6,30,99). event(7,1,200,200,0). sets(7,40,41). "
        "event(8,1,200,200,0). marker(8,completes,10). event(9,1,200,200,0). "
        "overlap(10,9,1,2,3). event(11,1,200,200,0). phrase_hit(10,11). "
        "event(12,1,200,200,0). names_id(10,12). event(13,1,200,200,0)."
    )
    assert {f"candidate(10,{e})" for e in (6, 7, 8, 9, 11, 12)} == a.named("candidate")
    assert a.has("cand_channel(10,6,1)")


def test_the_opener_is_never_a_candidate_and_mentions_never_close() -> None:
    a = prepare(BASE + "sets(5,30,31). event(6,2,200,200,0). sets(6,30,31).")
    assert not a.has("touch(10,5)") and not a.has("candidate(10,6)")
    assert a.has("static_rejection(10,6,mention_channel)")


def test_closings_must_follow_the_opening() -> None:
    a = prepare(BASE + "event(6,1,100,100,0). sets(6,30,31). event(7,1,101,101,0). sets(7,30,31).")
    assert a.has("static_rejection(10,6,before_opening)") and not a.has("candidate(10,6)")
    assert a.has("candidate(10,7)")


def test_outcome_unknown_or_failed_is_not_confirmed() -> None:
    a = prepare(
        BASE + "event(6,1,200,200,0). outcome(6,unknown). event(7,1,200,200,0). "
        "outcome(7,failed). event(8,1,200,200,0)."
    )
    assert a.has("confirmed(8)") and not a.has("confirmed(6)") and not a.has("confirmed(7)")


def test_one_shared_word_is_no_link_two_are() -> None:
    """SPEC 3, Candidates: a text links when it shares at least two content words with the
    title or the opening text; one shared word is chance, not a link (no candidate at all)."""
    a = prepare(
        BASE + "event(6,1,200,200,0). overlap(10,6,1,1,3). overlap(10,6,2,1,9). "
        "event(7,1,200,200,0). overlap(10,7,2,2,9). event(8,1,200,200,0). overlap(10,8,1,2,2)."
    )
    assert not a.has("text_link(10,6)") and not a.has("touch(10,6)")
    assert not a.has("candidate(10,6)") and "rejection(10,6,no_link)" not in a.named("rejection")
    assert a.has("text_link(10,7)") and a.has("candidate(10,7)") and a.has("candidate(10,8)")


def test_markers_outrank_text() -> None:
    """SPEC 3: an event carrying any marker naming X (or X's task) is no text link of X: its
    markers speak for it. Its other touches (a marker, a wanted key) still count."""
    a = prepare(
        BASE + "task(20). part_of(10,20). "
        "event(6,1,200,200,0). marker(6,cancels,10). overlap(10,6,1,3,3). phrase_hit(10,6). "
        "event(7,1,200,200,0). marker(7,completes,20). overlap(10,7,1,3,3). names_id(10,7). "
        "event(8,1,200,200,0). marker(8,cancels,99). overlap(10,8,1,3,3). "
        "event(9,1,200,200,0). marker(9,claims_complete,20). overlap(10,9,1,3,3). "
        "sets(9,30,31)."
    )
    assert a.has("marked(10,6)") and not a.has("text_link(10,6)") and a.has("candidate(10,6)")
    # `completes` of the task does not spread, and its text does not link either: no touch.
    assert a.has("marked(10,7)") and not a.has("touch(10,7)")
    # a marker naming something else leaves the text link alone
    assert not a.has("marked(10,8)") and a.has("text_link(10,8)")
    assert a.has("marked(10,9)") and a.has("candidate(10,9)"), "its `set` still touches"
