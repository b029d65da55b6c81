"""rules/standpoint/rejection_blocks.lp: plain rejections counted in blocks.

A key-reasons standpoint reads a block's bounds and, of a block it sees whole, only the latest
member; it counts every member it sees, and the reasons of block members are counted through
their block (key_reasons.lp), never twice.
"""

from __future__ import annotations

import pytest

from tests.rules.harness import standpoint, unseen_block

BASE = (
    "expectation(10). opening(10,100,100). opener(10,5). evt(5,100,100,0). work(1). "
    "key_reasons_only. "
)


def _member(block: int, event: int, at: int, rec: int | None = None, why: str = "no_link") -> str:
    rec = at if rec is None else rec
    return (
        f"rmember({block},{event}). rejection(10,{event},{why}). cand_channel(10,{event},1). "
        f"evt({event},{at},{rec},0). "
    )


def test_a_block_seen_whole_counts_every_member_and_names_its_latest() -> None:
    facts = BASE + "rblock(10,1,3,200,400,200,400). " + _member(1, 8, 400)
    a = standpoint(facts, now=500)
    assert a.has("rb_seen(10,1,3)")
    # opened + three rejections, one of which (the latest) is the nearest candidate
    assert a.shows("reason_count(10,4)")
    assert a.shows("reason_is_key(10,candidate_rejected,8,no_link)")
    assert a.has("block_reason(10,candidate_rejected,8,no_link)")


def test_a_below_verify_chain_counts_one_reason_per_member_and_keeps_the_flag() -> None:
    # a `bv` chain (interface.lp): touches rejected below verify, each one below_verify reason
    bv = (
        "below_verify(10,6,textual). below_verify(10,7,textual). below_verify(10,8,textual). "
        "evt(6,200,200,0). evt(7,300,300,0). "
    )
    facts = BASE + bv + "rblock(10,1,3,200,400,200,400). " + _member(1, 8, 400, why="below_verify")
    a = standpoint(facts, now=500)
    # opened + three below_verify reasons: the given member's is counted through its block only
    assert a.shows("reason_count(10,4)")
    assert a.has("block_reason(10,below_verify,8,textual)")
    assert a.shows("reason_is_key(10,below_verify,8,textual)"), "the nearest candidate"
    assert a.shows("flag(10,claimed_unverified)")
    assert not any(s.startswith("reason(10,candidate_rejected,") for s in a.every)
    unseen = BASE + bv + "rblock(10,1,3,600,800,600,800). " + _member(1, 8, 800, why="below_verify")
    b = standpoint(unseen.replace("evt(6,200,200,0). evt(7,300,300,0). ", ""), now=500)
    assert b.shows("reason_count(10,1)") and not b.shows("flag(10,claimed_unverified)")


def test_a_partial_block_counts_only_its_visible_members() -> None:
    facts = (
        BASE
        + "rblock(10,1,3,200,400,200,900). rb_detailed(1). "
        + _member(1, 6, 200)
        + _member(1, 7, 300, 900)
        + _member(1, 8, 400)
    )
    a = standpoint(facts, now=500, known=500)
    assert a.has("block_partial(rejection,1)") and a.has("rb_seen(10,1,2)")
    assert a.shows("reason_count(10,3)")
    assert a.shows("reason_is_key(10,candidate_rejected,8,no_link)")


def test_an_unseen_block_counts_nothing() -> None:
    unseen = BASE + "rblock(10,1,2,600,700,600,700). " + _member(1, 9, 700)
    a = standpoint(unseen, now=500, known=1000)
    assert unseen_block(a, "rejection", 1)
    assert not any(atom.startswith("rb_seen(") for atom in a.every)
    assert a.shows("reason_count(10,1)")
    late = BASE + "rblock(10,1,2,200,300,600,700). " + _member(1, 9, 300, 700)
    assert unseen_block(standpoint(late, now=500, known=500), "rejection", 1), (
        "recorded after K: unseen"
    )


def test_a_partial_block_without_its_members_has_no_answer() -> None:
    block = BASE + "rblock(10,1,2,200,400,200,900). " + _member(1, 8, 400)
    with pytest.raises(AssertionError, match="no answer"):
        standpoint(block, now=500, known=500)
    standpoint(block + "rb_detailed(1). ", now=500, known=500)


def test_a_block_without_a_member_has_no_answer() -> None:
    with pytest.raises(AssertionError, match="no answer"):
        standpoint(BASE + "rblock(10,1,2,200,300,200,300). ", now=500)


def test_before_the_opening_is_seen_no_block_counts() -> None:
    facts = BASE.replace("opening(10,100,100)", "opening(10,100,900)") + (
        "rblock(10,1,1,200,200,200,200). " + _member(1, 6, 200)
    )
    a = standpoint(facts, now=500, known=500)
    assert not a.has("rb_seen(10,1,1)")
    assert not any(atom.startswith("reason_count(") for atom in a.shown)


def test_reasons_outside_blocks_are_counted_one_by_one() -> None:
    facts = (
        BASE
        + "rblock(10,1,2,200,300,200,300). "
        + _member(1, 7, 300)
        + "evt(9,350,350,0). rejection(10,9,no_done_cue). cand_channel(10,9,1). "
    )
    a = standpoint(facts, now=500)
    assert a.shows("reason_count(10,4)"), "opened, two in the block, one outside"
    assert a.shows("reason_is_key(10,candidate_rejected,9,no_done_cue)")
