"""rules/prepare/interface.lp: what the prepare part hands to every standpoint, in two families."""

from __future__ import annotations

from tests.rules.harness import prepare

BASE = (
    "channel(1). channel(2). declared_role(2,mention). actor(0). actor(1). "
    "expectation(10). opened_by(10,5). event(5,2,100,100,0). want(10,30,31). principal(10,1). "
)


def test_verdict_events_reach_every_standpoint_the_rest_only_for_reasons() -> None:
    a = prepare(
        BASE + "event(6,1,200,201,1). sets(6,30,31). event(7,1,210,210,1). overlap(10,7,1,2,5). "
        "event(8,1,220,220,1). marker(8,claims_complete,10). event(9,1,230,230,1). "
        "event(11,1,240,240,1). marker(11,reports_pending,10). "
        "event(12,1,250,250,1). marker(12,reopens,10). event(13,1,260,260,0). "
        "marker(13,cancels,10). "
        "principal(10,1). event(14,1,270,270,0). sets(14,30,31). outcome(14,unknown). "
        "event(15,1,280,280,0). overlap(10,15,1,2,5). done_cue(15). "
        "expectation(16). before(16,17). event(17,1,290,290,0). opened_time(16,1)."
    )
    for e in (5, 6, 8, 11, 12, 13, 14, 15, 17):
        assert any(s.startswith(f"evt({e},") for s in a.shown), e
    assert a.shows("for_reasons(evt(7,210,210,1))")
    assert not any(s.startswith("evt(9,") or "evt(9," in s for s in a.shown), (
        "untouched: not needed"
    )
    assert a.shows("for_reasons(cand_channel(10,6,1))")
    assert a.shows("work(1)") and a.shows("mention(2)")
    assert a.shows("opening(10,100,100)") and a.shows("opener(10,5)")
    assert a.shows("close(10,6,satisfied,state,1)") and a.shows("reopen(10,12,marker)")
    assert a.shows("proposal(10,13,cancels)") and a.shows("unconfirmed(10,14,state)")
    # rejected as below verify: its atom is of the reasons family, its flag read from a chain
    assert a.shows("for_reasons(below_verify(10,15,textual))") and a.shows(
        "effective(10,12,reopens)"
    )
    assert a.shows("for_blocks(10,15,below_verify,bv)")
    assert a.shows("claim(8,claims_complete,10)") and a.shows("claim(11,reports_pending,10)")
    assert a.shows("principal_of(10,1)")
    assert a.shows("for_blocks(10,7,no_done_cue,sat)"), "a plain rejection, shown with its chain"


def test_policy_instances_name_their_verdict_events() -> None:
    a = prepare(
        "channel(1). event(6,1,5,5,0). event(7,1,6,6,0). event(8,1,7,7,0). "
        "derived(20,6). derived_task(21,7). kind_after(22,8). touch(20,6). "
        "touch(21,7). touch(22,8)."
    )
    assert {"evt(6,5,5,0)", "evt(7,6,6,0)", "evt(8,7,7,0)"} <= a.shown


def test_only_the_interface_is_shown() -> None:
    a = prepare(BASE + "event(6,1,200,201,1). sets(6,30,31).")
    assert not any(
        s.startswith(("candidate(", "touch(", "reaches(", "expectation(")) for s in a.shown
    )


def test_a_claim_about_a_task_reaches_every_standpoint() -> None:
    a = prepare("channel(1). task(20). event(8,1,220,220,1). marker(8,claims_complete,20).")
    assert a.shows("evt(8,220,220,1)") and a.shows("claim(8,claims_complete,20)")


def test_plain_rejections_are_cut_into_chains_by_role() -> None:
    a = prepare(
        BASE + "superseded_when(10,40,41). "
        "event(20,1,200,200,1). overlap(10,20,1,2,5). "
        "event(21,1,210,210,1). sets(21,40,42). "
        "event(22,2,220,220,1). overlap(10,22,1,2,5). "
        "event(23,1,50,50,1). overlap(10,23,1,2,5). "
        "event(15,1,280,280,0). overlap(10,15,1,2,5). done_cue(15). "
        "event(24,1,240,240,1). sets(24,30,32). "
        "event(14,1,270,270,0). sets(14,30,31). outcome(14,unknown). "
        "event(16,1,290,290,0). overlap(10,16,1,2,5). done_cue(16). outcome(16,unknown). "
        "event(17,1,300,300,0). marker(17,cancels,10). outcome(17,failed). "
    )
    chains = {s for s in a.shown if s.startswith("for_blocks(")}
    assert chains == {
        "for_blocks(10,20,no_done_cue,sat)",
        "for_blocks(10,21,other_state,other)",
        "for_blocks(10,22,mention_channel,static)",
        "for_blocks(10,23,before_opening,static)",
        "for_blocks(10,15,below_verify,bv)",
    }, "rejected below verify for an earlier reason (16), contradicting (24), unconfirmed (14), "
    "proposed (17) stay whole"
    assert not a.shows("for_reasons(rejection(10,15,below_verify))")
    assert a.shows("for_reasons(below_verify(10,15,textual))"), "its flag reads the bv chain"
    assert a.shows("for_reasons(rejection(10,14,unconfirmed_effect))")
    assert a.shows("below_verify(10,16,textual)"), (
        "rejected for an earlier reason: every standpoint"
    )
    assert any(s.startswith("for_reasons(rejection(10,16,") for s in a.shown)
    assert a.shows("proposal(10,17,cancels)")
    assert a.shows("for_reasons(rejection(10,17,failed_outcome))")
    assert a.shows("for_reasons(rejection(10,24,wrong_value))")
    assert a.shows("reopen(10,24,contradiction)")


def test_the_tie_order_of_one_instant_reaches_the_standpoint_for_the_events_it_reads() -> None:
    a = prepare(
        BASE + "event(6,1,200,200,1). sets(6,30,31). event(7,1,200,200,1). sets(7,30,31). "
        "event(9,1,200,200,1). same_instant_rank(7,1). same_instant_rank(6,2). "
        "same_instant_rank(9,3)."
    )
    assert a.shows("same_instant_rank(7,1)") and a.shows("same_instant_rank(6,2)")
    assert not a.shows("same_instant_rank(9,3)"), "untouched: not needed"
