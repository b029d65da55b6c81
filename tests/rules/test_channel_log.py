"""rules/standpoint/channel_log.lp: searched, through, gaps and candidate counts from blocks."""

from __future__ import annotations

from tests.rules.harness import standpoint, unseen_block


def test_time_blocks_searched_and_through() -> None:
    facts = (
        "tblock(1,1,100,200,100,200). tblock(1,2,300,400,300,400). "
        "tdetail(1,2,300,300). tdetail(1,2,400,400)."
    )
    a = standpoint(facts, now=350)
    assert a.has("searched(1)") and a.has("through(1,300)")
    assert a.has("block_full(time,1)") and a.has("block_partial(time,2)")
    none = standpoint("tblock(1,1,100,200,100,200).", now=50)
    assert not none.has("searched(1)") and unseen_block(none, "time", 1)
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
    assert a.has("visible_candidates(10,1,3)") and unseen_block(a, "candidate", 7)
    assert standpoint(facts, now=250, known=90).has("visible_candidates(10,1,0)")


def test_blocks_wholly_after_the_standpoint_or_unrecorded_are_not_seen() -> None:
    latest = 10**6
    assert unseen_block(
        standpoint("tblock(1,1,500,600,500,600).", now=100, known=latest), "time", 1
    )
    future = "sblock(1,1,1,2,500,500,600,500,600)."
    # known, but happened after T: a known later record (it holds its seqs), never visible
    later = standpoint(future, now=100, known=latest)
    assert later.has("block_later(seq,1)") and not later.named("vnode")
    assert later.has("knode(1,1,1)")
    assert unseen_block(standpoint(future, now=latest, known=100), "seq", 1)
    assert unseen_block(
        standpoint("cblock(10,1,5,2,500,600,500,600).", now=100, known=latest), "candidate", 5
    )


def test_a_gap_at_the_end_of_a_partial_block_reaches_the_next_block() -> None:
    facts = (
        "sblock(1,1,1,4,100,100,130,100,200). sdetail(1,1,1,100,100). sdetail(1,1,2,110,110). "
        "sdetail(1,1,3,120,200). sdetail(1,1,4,130,200). "
        "sblock(1,2,5,5,140,140,140,140,140). sblock_next(1,1,2)."
    )
    assert standpoint(facts, now=150, known=150).shows("gap(1,3,4)")


def test_a_gaps_end_is_a_visible_event_of_a_partial_block() -> None:
    # Seq 19 is given twice: once at 100 (its own whole block) and once at 900, in a partial
    # block with seq 20 at 100. At 200 only the first 19 is seen: the gap 2..18 ends at 100.
    facts = (
        "sblock(1,1,1,1,100,100,100,100,100). sblock(1,2,19,19,100,100,100,100,100). "
        "sblock(1,3,19,20,900,100,900,100,900). sdetail(1,3,19,900,900). sdetail(1,3,20,100,100). "
        "sblock_next(1,1,2). sblock_next(1,2,3)."
    )
    early = standpoint(facts, now=200, known=200)
    assert early.shows("gap(1,2,18)")
    assert early.named("gap_end") == {"gap_end(1,2,18,100)"}
    late = standpoint(facts, now=1000, known=1000)
    assert late.named("gap_end") == {"gap_end(1,2,18,100)", "gap_end(1,2,18,900)"}


def _chain(*nodes: tuple[int, int]) -> str:
    """Whole one-seq blocks ``(seq, at)`` in seq order, chained by ``sblock_next``."""
    facts = ""
    for number, (seq, at) in enumerate(nodes, start=1):
        facts += f"sblock(1,{number},{seq},{seq},{at},{at},{at},{at},{at}). "
        if number > 1:
            facts += f"sblock_next(1,{number - 1},{number}). "
    return facts


#: seqs 1 3 4 5 7 9: gaps 2 (ends at 200), 6 (ends at 150: at runs against seq) and 8 (300).
CHAIN = _chain((1, 100), (3, 200), (4, 210), (5, 220), (7, 150), (9, 300))


def test_the_gaps_of_a_channel_are_chained_once_in_seq_order() -> None:
    a = standpoint(CHAIN, now=400)
    assert a.named("gap") == {"gap(1,2,2)", "gap(1,6,6)", "gap(1,8,8)"}
    assert a.has("gap_first(1,2)") and a.has("gap_last_end(1,300)")
    # 2 -> 6 across the gap-free links 3-4-5 (gap_via), 6 -> 8 directly.
    assert a.named("gap_step") == {"gap_step(1,2,6,150)", "gap_step(1,6,8,300)"}
    assert a.has("gap_via(1,4,6)") and a.has("gap_via(1,3,6)")
    # The latest end so far, in seq order: it rises at 2 and 8, holds at 6.
    assert a.named("gap_upto") == {"gap_upto(1,2,200)", "gap_upto(1,6,200)", "gap_upto(1,8,300)"}


def test_gap_summaries_grow_with_the_gaps_alone() -> None:
    """One atom per gap for each summary, whatever the number of expectations."""
    nodes = [(1 + 2 * i, 100 + i) for i in range(30)]
    facts = _chain(*nodes) + "".join(
        f"expectation({10 + i}). opening({10 + i},100,100). search({10 + i},1). work(1). "
        for i in range(20)
    )
    a = standpoint(facts, now=400)
    for name in ("gap", "gap_end", "gap_upto"):
        assert len(a.named(name)) == 29, name
    assert len(a.named("gap_step")) == 28
    assert len(a.named("has_relevant_gap")) == 20
    assert len(a.named("first_relevant_gap")) == 20


def test_the_gap_chain_crosses_blocks_that_overlap_on_a_repeated_seq() -> None:
    """seq 21 twice (in blocks 20..21 and 21..22): no gap there, the chain goes on to 30."""
    facts = (
        "sblock(1,1,17,17,100,100,100,100,100). sblock(1,2,20,21,110,110,120,110,120). "
        "sblock(1,3,21,22,130,130,140,130,140). sblock(1,4,30,30,150,150,150,150,150). "
        "sblock_next(1,1,2). sblock_next(1,2,3). sblock_next(1,3,4)."
    )
    a = standpoint(facts, now=400)
    assert a.named("gap") == {"gap(1,18,19)", "gap(1,23,29)"}
    assert a.named("gap_step") == {"gap_step(1,18,23,150)"}


def test_a_known_later_record_is_no_gap() -> None:
    """SPEC 3, Absence: a seq is missing only when no record known at K holds it. Seq 2 was
    recorded by K but happened after T: it happened later, nothing can hide there."""
    facts = _chain((1, 100), (2, 500), (3, 200))
    assert not standpoint(facts, now=300, known=10**6).named("gap")
    # at K = T it is not yet known: then it is a gap, ending at the next visible event
    a = standpoint(facts, now=300, known=300)
    assert a.named("gap") == {"gap(1,2,2)"} and a.has("gap_end(1,2,2,200)")


def test_a_gap_needs_visible_events_on_both_sides() -> None:
    """Seq 3 is held by no record, between visible 1 and the known later record 4, then 6
    is missing between known later records only, and 8 between visible 7 and visible 9."""
    facts = _chain((1, 100), (4, 500), (5, 600), (7, 150), (9, 160), (11, 700))
    a = standpoint(facts, now=300, known=10**6)
    assert a.named("gap") == {"gap(1,2,3)", "gap(1,6,6)", "gap(1,8,8)"}
    # the gap's end is the known record just above it: seq 4 happened at 500
    assert a.has("gap_end(1,2,3,500)") and a.has("gap_end(1,6,6,150)")
    assert not a.has("gap(1,10,10)"), "no visible event above 10"


def test_a_partial_block_holds_its_known_later_records() -> None:
    """Seqs 1..4 in one block: 2 recorded by K but after T fills its number, 3 unknown at K
    leaves a gap between visible 1 and visible 4."""
    facts = (
        "sblock(1,1,1,4,100,100,500,100,900). sdetail(1,1,1,100,100). sdetail(1,1,2,500,200). "
        "sdetail(1,1,3,120,900). sdetail(1,1,4,130,130)."
    )
    a = standpoint(facts, now=300, known=300)
    assert a.has("block_partial(seq,1)") and a.has("knode(1,1,2)") and not a.has("vnode(1,1,2)")
    assert a.named("gap") == {"gap(1,3,3)"} and a.has("gap_end(1,3,3,130)")
