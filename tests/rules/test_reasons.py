"""rules/standpoint/reasons.lp: why each verdict is what it is, as reason atoms."""

from __future__ import annotations

import pytest

from tests.rules.harness import standpoint, unseen_block

BASE = "expectation(10). opening(10,100,100). opener(10,5). evt(5,100,100,0). work(1). "


def test_the_opening_reason() -> None:
    assert standpoint(BASE).shows("reason(10,opened,5,event)")
    oracle = standpoint("expectation(10). opening(10,100,100).")
    assert oracle.shows("reason(10,opened,0,time)")


def test_rejections_proposals_and_doubts_of_seen_candidates() -> None:
    facts = BASE + (
        "evt(6,200,200,0). rejection(10,6,no_link). "
        "cand_channel(10,6,1). "
        "evt(7,200,200,0). proposal(10,7,cancels). rejection(10,7,proposal). "
        "evt(8,200,200,0). below_verify(10,8,textual). rejection(10,8,below_verify). "
        "evt(9,200,200,0). unconfirmed(10,9,state). "
        "rejection(10,9,unconfirmed_effect). "
        "evt(11,900,900,0). rejection(10,11,no_link). "
    )
    a = standpoint(facts, now=500)
    assert a.shows("reason(10,candidate_rejected,6,no_link)")
    assert a.shows("reason(10,proposal,7,cancels)") and a.shows("reason(10,below_verify,8,textual)")
    assert a.shows("reason(10,unconfirmed_effect,9,state)")
    assert a.shows("flag(10,claimed_unverified)") and a.shows("examined(10,6)")
    assert not a.shows("reason(10,candidate_rejected,7,proposal)")
    assert not a.shows("reason(10,candidate_rejected,8,below_verify)")
    assert not a.shows("reason(10,candidate_rejected,9,unconfirmed_effect)")
    assert not a.shows("reason(10,candidate_rejected,11,no_link)"), "not visible"
    assert a.has("cand_channel(10,6,1)")
    assert not standpoint(facts, now=50).named("reason")


def test_transitions_that_took_no_effect_and_reopenings() -> None:
    facts = BASE + (
        "evt(6,200,200,0). close(10,6,satisfied,state,1). evt(7,300,300,0). "
        "close(10,7,cancelled,none,6). evt(8,400,400,0). reopen(10,8,marker). "
        "inext(10,200,300). inext(10,300,400). evt(9,450,450,0). reopen(10,9,marker). "
        "inext(10,400,450)."
    )
    a = standpoint(facts, now=500)
    assert a.shows("reason(10,candidate_rejected,7,already_closed)")
    assert a.shows("reason(10,reopened,8,marker)")
    assert a.shows("reason(10,candidate_rejected,9,while_open)")
    assert a.shows("examined(10,7)") and a.shows("examined(10,8)")


def test_gaps_and_unsearched_channels() -> None:
    log = (
        "declared_channel(1). declared_channel(2). work(2). tblock(1,1,50,300,50,300). "
        "sblock(1,1,1,1,50,50,50,50,50). sblock(1,2,3,3,300,300,300,300,300). sblock_next(1,1,2)."
    )
    a = standpoint(BASE + log, now=400)
    assert a.shows("reason(10,gap,0,gap(1,2,2))") and a.shows("reason(10,unsearched,0,channel(2))")


def test_what_each_ending_marker_did() -> None:
    facts = BASE + (
        "principal_of(10,1). evt(6,200,200,1). close(10,6,cancelled,none,6). "
        "effective(10,6,cancels). evt(7,300,300,1). close(10,7,waived,none,7). "
        "effective(10,7,waives). rejection(10,7,already_closed). inext(10,200,300). "
        "evt(8,300,300,2). proposal(10,8,supersedes). rejection(10,8,proposal). "
    )
    a = standpoint(facts, now=500)
    assert a.shows("ending_outcome(10,6,cancels,closed)")
    assert a.shows("ending_outcome(10,7,waives,none)")
    assert a.shows("ending_outcome(10,8,supersedes,proposal)")
    reopened = BASE + (
        "evt(6,200,200,1). close(10,6,satisfied,state,1). evt(7,300,300,1). reopen(10,7,marker). "
        "effective(10,7,reopens). inext(10,200,300). evt(9,400,400,1). reopen(10,9,marker). "
        "effective(10,9,reopens). inext(10,300,400)."
    )
    b = standpoint(reopened, now=500)
    assert b.shows("ending_outcome(10,7,reopens,reopened)")
    assert b.shows("ending_outcome(10,9,reopens,none)")
    assert not b.shows("ending_outcome(10,7,reopens,none)")
    assert not b.shows("ending_outcome(10,7,reopens,closed)")


def test_claimed_unverified_from_the_blocks_of_touches_below_verify() -> None:
    # bvblock(X, 0, B, N, AtMin, AtMax, RecMin, RecMax): the engine's chain per item
    seen = standpoint(BASE + "bvblock(10,0,1,2,200,300,200,300).", now=500)
    assert seen.shows("flag(10,claimed_unverified)")
    unseen = standpoint(BASE + "bvblock(10,0,1,2,600,700,600,700).", now=500, known=1000)
    assert not unseen.shows("flag(10,claimed_unverified)")
    late = BASE + "bvblock(10,0,1,2,200,300,200,900). bvdetail(1,6,200,900). bvdetail(1,7,300,300)."
    assert standpoint(late, now=500, known=500).shows("flag(10,claimed_unverified)")
    hidden = late.replace("bvdetail(1,7,300,300)", "bvdetail(1,7,300,800)")
    assert not standpoint(hidden, now=500, known=500).shows("flag(10,claimed_unverified)")
    unopened = "expectation(10). opening(10,400,400). bvblock(10,0,1,1,200,200,200,200)."
    assert not standpoint(unopened, now=300).shows("flag(10,claimed_unverified)")


def test_a_block_below_verify_recorded_after_k_is_unseen_and_a_partial_one_needs_its_rows() -> None:
    recorded_late = standpoint(BASE + "bvblock(10,0,1,2,200,300,600,700).", now=500, known=500)
    assert unseen_block(recorded_late, "bv", 1) and not recorded_late.shows(
        "flag(10,claimed_unverified)"
    )
    with pytest.raises(AssertionError):  # a partial block without its rows has no answer
        standpoint(BASE + "bvblock(10,0,1,2,200,300,200,900).", now=500, known=500)
