"""rules/standpoint/channel_log.lp: searched, through, gaps and candidate counts from blocks."""

from __future__ import annotations

from tests.rules.harness import standpoint


def test_time_blocks_searched_and_through() -> None:
    facts = (
        "tblock(1,1,100,200,100,200). tblock(1,2,300,400,300,400). "
        "tdetail(1,2,300,300). tdetail(1,2,400,400)."
    )
    a = standpoint(facts, now=350)
    assert a.has("searched(1)") and a.has("through(1,300)")
    assert a.has("tb_full(1,1)") and a.has("tb_partial(1,2)")
    none = standpoint("tblock(1,1,100,200,100,200).", now=50)
    assert not none.has("searched(1)") and none.has("tb_none(1,1)")
    unrecorded = standpoint("tblock(1,1,100,200,300,300).", now=250, known=250)
    assert not unrecorded.has("searched(1)")


def test_a_partial_block_needs_its_details() -> None:
    import pytest

    with pytest.raises(AssertionError):
        standpoint("tblock(1,2,300,400,300,400).", now=350)
    with pytest.raises(AssertionError):
        standpoint("sblock(1,1,1,2,100,100,200,100,200).", now=150)
    with pytest.raises(AssertionError):
        standpoint("cblock(10,1,5,2,100,200,100,200).", now=150)


def test_whole_seq_blocks_leave_gaps_between_them() -> None:
    facts = (
        "sblock(1,1,1,3,100,100,120,100,120). sblock(1,2,6,8,200,200,220,200,220). "
        "sblock_next(1,1,2)."
    )
    a = standpoint(facts, now=300)
    assert a.shows("gap(1,4,5)") and a.has("gap_end(1,4,5,200)")
    assert not standpoint(facts, now=150).named("gap")


def test_seqs_of_a_partial_block_are_judged_one_by_one() -> None:
    facts = (
        "sblock(1,1,1,4,100,100,130,100,200). sdetail(1,1,1,100,100). sdetail(1,1,2,110,110). "
        "sdetail(1,1,3,120,200). sdetail(1,1,4,130,130). "
        "sblock(1,2,5,5,140,140,140,140,140). sblock_next(1,1,2)."
    )
    a = standpoint(facts, now=150, known=150)
    assert a.shows("gap(1,3,3)") and a.has("gap_end(1,3,3,130)")
    assert not a.shows("gap(1,5,5)")


def test_invisible_whole_blocks_between_visible_ones_are_skipped() -> None:
    facts = (
        "sblock(1,1,1,1,100,100,100,100,100). sblock(1,2,2,2,500,500,500,500,500). "
        "sblock(1,3,3,3,150,150,150,150,150). sblock(1,4,4,4,600,600,600,600,600). "
        "sblock(1,5,5,5,160,160,160,160,160). "
        "sblock_next(1,1,2). sblock_next(1,2,3). sblock_next(1,3,4). sblock_next(1,4,5)."
    )
    a = standpoint(facts, now=200)
    assert a.shows("gap(1,2,2)") and a.shows("gap(1,4,4)")
    b = standpoint(
        facts.replace("sblock(1,3,3,3,150,150,150,150,150)", "sblock(1,3,3,3,550,550,550,550,550)"),
        now=200,
    )
    assert b.shows("gap(1,2,4)")


def test_candidate_blocks_count_the_visible_candidates() -> None:
    facts = (
        "cblock(10,1,5,2,100,120,100,120). cblock(10,1,6,2,200,300,200,300). "
        "cdetail(6,61,200,200). cdetail(6,62,300,300). cblock(10,1,7,3,900,990,900,990)."
    )
    a = standpoint(facts, now=250)
    assert a.has("visible_candidates(10,1,3)") and a.has("cb_none(7)")
    assert standpoint(facts, now=250, known=90).has("visible_candidates(10,1,0)")


def test_blocks_wholly_after_the_standpoint_or_unrecorded_are_not_seen() -> None:
    latest = 10**6
    assert standpoint("tblock(1,1,500,600,500,600).", now=100, known=latest).has("tb_none(1,1)")
    future = "sblock(1,1,1,2,500,500,600,500,600)."
    assert standpoint(future, now=100, known=latest).has("sb_none(1,1)")
    assert standpoint(future, now=latest, known=100).has("sb_none(1,1)")
    assert standpoint("cblock(10,1,5,2,500,600,500,600).", now=100, known=latest).has("cb_none(5)")


def test_a_gap_at_the_end_of_a_partial_block_reaches_the_next_block() -> None:
    facts = (
        "sblock(1,1,1,4,100,100,130,100,200). sdetail(1,1,1,100,100). sdetail(1,1,2,110,110). "
        "sdetail(1,1,3,120,200). sdetail(1,1,4,130,200). "
        "sblock(1,2,5,5,140,140,140,140,140). sblock_next(1,1,2)."
    )
    assert standpoint(facts, now=150, known=150).shows("gap(1,3,4)")
