"""rules/prepare/transitions.lp: the transition each candidate would make, and why not."""

from __future__ import annotations

from tests.rules.harness import prepare

#: X (10) opens at 100, wants 30 = 31, superseded when 40 = 41; alice (1) is its principal.
BASE = (
    "channel(1). channel(2). declared_role(2,mention). actor(0). actor(1). actor(2). "
    "expectation(10). opened_time(10,100). want(10,30,31). superseded_when(10,40,41). "
    "principal(10,1). "
)


def _event(e: int, actor: int = 1) -> str:
    return f"event({e},1,200,200,{actor}). "


def test_a_confirmed_accepted_candidate_closes_as_satisfied_with_its_tier() -> None:
    a = prepare(
        BASE + _event(6) + "sets(6,30,31). " + _event(7) + "sets(7,30,31). outcome(7,unknown)."
    )
    assert a.shows("close(10,6,satisfied,state,1)")
    assert not a.named("close(10,7") and a.shows("unconfirmed(10,7,state)")
    assert a.has("rejection(10,7,unconfirmed_effect)")


def test_endings_of_a_principal_close_with_their_status_and_rank() -> None:
    a = prepare(
        BASE
        + _event(6)
        + "marker(6,cancels,10). "
        + _event(7)
        + "marker(7,waives,10). "
        + _event(8)
        + "marker(8,supersedes,10). "
        + _event(9)
        + "sets(9,40,41)."
    )
    assert a.shows("close(10,6,cancelled,none,6)") and a.shows("close(10,7,waived,none,7)")
    assert a.shows("close(10,8,superseded,none,5)") and a.shows("close(10,9,superseded,none,5)")
    assert a.shows("effective(10,6,cancels)")


def test_an_ending_without_authority_is_a_proposal() -> None:
    a = prepare(BASE + _event(6, actor=2) + "marker(6,cancels,10).")
    assert a.shows("proposal(10,6,cancels)") and not a.named("close")
    assert a.has("rejection(10,6,proposal)")


def test_reopenings_by_marker_or_contradiction() -> None:
    a = prepare(BASE + _event(6) + "marker(6,reopens,10). " + _event(7) + "sets(7,30,5).")
    assert a.shows("reopen(10,6,marker)") and a.shows("reopen(10,7,contradiction)")
    failed = prepare(BASE + _event(7) + "sets(7,30,5). outcome(7,failed).")
    assert not failed.named("reopen") and failed.has("rejection(10,7,failed_outcome)")


def test_every_other_candidate_is_rejected_with_its_most_specific_reason() -> None:
    a = prepare(
        BASE
        + _event(6)
        + "overlap(10,6,1,2,5). done_cue(6). "
        + _event(7)
        + "sets(7,40,9). "
        + _event(8)
        + "overlap(10,8,1,2,3). "
        + _event(9)
        + "overlap(10,9,1,2,5). "
        + _event(11)
        + "marker(11,claims_complete,10). "
        + _event(12)
        + "marker(12,reports_pending,10). "
        + _event(13)
        + "names_id(10,13). "
        + _event(14)
        + "overlap(10,14,1,2,2). merge_kind(14). names_value(10,14). "
        + _event(15)
        + "overlap(10,15,2,2,2). covered(10,15,2,2). names_value(10,15). "
        + _event(16)
        + "sets(16,30,8)."
    )
    assert a.has("rejection(10,6,below_verify)")
    assert a.has("rejection(10,7,other_state)")
    assert a.has("rejection(10,8,value_not_named)")
    assert a.has("rejection(10,9,no_done_cue)")
    assert a.has("rejection(10,11,claim_only)") and a.has("rejection(10,12,claim_only)")
    assert a.has("rejection(10,13,no_link)")
    assert a.has("rejection(10,14,merge_text)") and a.has("rejection(10,15,restatement)")
    assert a.has("rejection(10,16,wrong_value)")
    assert len(a.named("rejection")) == 10, "one reason per rejected candidate"


def test_static_rejections_are_rejections() -> None:
    a = prepare(BASE + "event(6,2,200,200,1). sets(6,30,31). event(7,1,50,50,1). sets(7,30,31).")
    assert a.shows("for_blocks(10,6,mention_channel,static)")
    assert a.shows("for_blocks(10,7,before_opening,static)")


def test_an_agents_superseding_state_supersedes_nothing_and_its_contradiction_reopens() -> None:
    """SPEC 3: an agent's own `set` of the superseded_when state supersedes nothing (rejected
    as agent_claim); on an authoritative channel it supersedes; an agent may still reopen a
    satisfied state by contradicting it."""
    facts = (
        BASE + "channel(4). authoritative(4). actor(3). actor_role(3,agent). "
        "event(6,1,200,200,3). sets(6,40,41). event(7,4,210,210,3). sets(7,40,41). "
        "event(8,1,220,220,3). sets(8,30,99)."
    )
    a = prepare(facts)
    assert not a.named("close(10,6") and a.has("rejection(10,6,agent_claim)")
    assert a.shows("agent_claim(10,6,superseded)")
    assert a.shows("close(10,7,superseded,none,5)")
    assert a.shows("reopen(10,8,contradiction)")
