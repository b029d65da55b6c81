"""rules/standpoint/absence.lp: search channels, relevant gaps, footprint and confidence."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = "expectation(10). opening(10,100,100). work(1). work(2). "


def test_search_channels_are_the_search_list_else_every_work_channel() -> None:
    listed = standpoint(BASE + "search(10,2). declared_channel(1).")
    assert listed.named("search_channel") == {"search_channel(10,2)"}
    default = standpoint(
        BASE + "declared_channel(1). tblock(2,1,50,60,50,60). mention(3). declared_channel(3)."
    )
    assert default.named("search_channel") == {"search_channel(10,1)", "search_channel(10,2)"}


def test_never_searched_is_incomplete_search() -> None:
    a = standpoint(BASE + "declared_channel(1).")
    assert a.shows("confidence(10,incomplete_search)") and not a.shows("footprint_complete(10)")
    assert a.shows("candidates(10,1,0)")


def test_all_searched_without_gaps_is_corroborated() -> None:
    a = standpoint(
        BASE + "declared_channel(1). tblock(1,1,50,60,50,60). cblock(10,1,5,1,200,200,200,200).",
        now=300,
    )
    assert a.shows("confidence(10,corroborated_open)") and a.shows("footprint_complete(10)")
    assert a.shows("candidates(10,1,1)")


def test_a_gap_after_the_opening_makes_it_unknown() -> None:
    log = (
        "declared_channel(1). tblock(1,1,50,300,50,300). sblock(1,1,1,1,50,50,50,50,50). "
        "sblock(1,2,3,3,{at},{at},{at},{at},{at}). sblock_next(1,1,2)."
    )
    a = standpoint(BASE + log.format(at=300), now=400)
    assert a.shows("relevant_gap(10,1,2,2)") and a.shows("confidence(10,unknown)")
    assert a.shows("status(10,unknown)") and a.has("unknown_because(10,gap)")
    before = standpoint(BASE + log.format(at=90), now=400)
    assert not before.shows("relevant_gap(10,1,2,2)") and before.shows("gap(1,2,2)")


def test_an_unconfirmed_effect_in_the_open_period_makes_it_unknown() -> None:
    facts = (
        BASE
        + "declared_channel(1). tblock(1,1,50,60,50,60). evt(6,200,200,0). unconfirmed(10,6,state)."
    )
    a = standpoint(facts, now=400)
    assert a.has("unknown_because(10,unconfirmed_effect)") and a.shows("status(10,unknown)")
    assert not standpoint(facts, now=150).has("unknown_because(10,unconfirmed_effect)")
    old = facts.replace("evt(6,200,200,0)", "evt(6,100,100,0)") + (
        "evt(7,150,150,0). close(10,7,satisfied,state,1). evt(8,250,250,0). reopen(10,8,marker). "
        "inext(10,150,250). inext(10,100,150)."
    )
    assert not standpoint(old, now=400).has("unknown_because(10,unconfirmed_effect)")


def test_closed_verdicts_carry_no_confidence() -> None:
    a = standpoint(BASE + "declared_channel(1). evt(6,200,200,0). close(10,6,satisfied,state,1).")
    assert not a.named("confidence")


def test_a_relevant_gap_leaves_the_footprint_incomplete() -> None:
    log = (
        "declared_channel(1). tblock(1,1,50,300,50,300). sblock(1,1,1,1,50,50,50,50,50). "
        "sblock(1,2,3,3,300,300,300,300,300). sblock_next(1,1,2). "
        "evt(6,200,200,0). close(10,6,satisfied,state,1)."
    )
    a = standpoint(BASE + log, now=400)
    assert not a.shows("footprint_complete(10)") and a.shows("status(10,satisfied)")
