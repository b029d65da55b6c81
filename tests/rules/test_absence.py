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
    assert a.shows("has_relevant_gap(10,1)") and a.shows("listed_gap(10,1,2,2)")
    assert a.shows("confidence(10,unknown)")
    assert a.shows("status(10,unknown)") and a.has("unknown_because(10,gap)")
    before = standpoint(BASE + log.format(at=90), now=400)
    assert not before.named("has_relevant_gap") and not before.named("listed_gap")
    assert before.shows("gap(1,2,2)") and before.shows("confidence(10,corroborated_open)")


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


def _opened(at: int) -> str:
    from tests.rules.test_channel_log import CHAIN

    log = "tblock(1,1,100,300,100,300). "
    return f"expectation(10). opening(10,{at},{at}). work(1). declared_channel(1). {log}{CHAIN}"


def test_relevance_is_the_later_neighbour_after_the_opening_once_per_channel() -> None:
    """Gaps 2 (ends 200), 6 (ends 150) and 8 (ends 300): the listed gaps are the relevant ones,
    and X gets one gap reason per channel, naming the first relevant gap in seq order."""
    early = standpoint(_opened(50), now=400)
    assert early.shows("has_relevant_gap(10,1)") and early.has("first_gap_after(1,50,2)")
    assert {a for a in early.shown if a.startswith("listed_gap")} == {
        "listed_gap(10,1,2,2)",
        "listed_gap(10,1,6,6)",
        "listed_gap(10,1,8,8)",
    }
    assert early.named("reason") >= {"reason(10,gap,0,gap(1,2,2))"}
    middle = standpoint(_opened(160), now=400)
    assert middle.named("listed_gap") == {"listed_gap(10,1,2,2)", "listed_gap(10,1,8,8)"}
    late = standpoint(_opened(250), now=400)
    assert late.has("first_gap_after(1,250,8)") and late.has("seek_channel(1)")
    assert late.named("listed_gap") == {"listed_gap(10,1,8,8)"}
    assert {r for r in late.named("reason") if ",gap," in r} == {"reason(10,gap,0,gap(1,8,8))"}
    assert late.shows("status(10,unknown)")
    after = standpoint(_opened(300), now=400)
    assert not after.named("has_relevant_gap") and not after.named("listed_gap")
    assert not after.named("gap_seek"), "no walk on a channel where no gap is relevant"
    assert after.shows("confidence(10,corroborated_open)") and after.shows("footprint_complete(10)")


def test_a_footprint_lists_a_window_of_eight_gaps_from_the_first_relevant_one() -> None:
    from tests.rules.test_channel_log import _chain

    nodes = [(1 + 2 * i, 100 + 10 * i) for i in range(13)]  # gaps 2, 4, ..., 24
    facts = "expectation(10). opening(10,125,125). work(1). declared_channel(1). " + _chain(*nodes)
    a = standpoint(facts, now=400)
    # gap 2 ends at 110, 4 at 120: before the opening; 6 (ends 130) is the first relevant.
    assert a.has("first_relevant_gap(10,1,6,6)")
    assert a.named("listed_gap") == {f"listed_gap(10,1,{lo},{lo})" for lo in range(6, 21, 2)}


def test_opening_instants_are_merged_with_the_gap_chain_once() -> None:
    """Openings 50, 160 and 250 (sorted: 50 < 160 < 250) against gaps 2 (ends 200), 6 (150)
    and 8 (300): each instant's search starts where the previous one stopped."""
    from tests.rules.test_channel_log import CHAIN

    facts = "work(1). declared_channel(1). tblock(1,1,100,300,100,300). " + CHAIN
    for x, at in ((10, 250), (11, 50), (12, 160), (13, 250)):
        facts += f"expectation({x}). opening({x},{at},{at}). "
    facts += "onext(50,160). onext(160,250). "  # the engine's chain of the opening instants
    a = standpoint(facts, now=400)
    assert a.has("seek_channel(1)") and a.named("has_earlier_instant") == {
        "has_earlier_instant(160)",
        "has_earlier_instant(250)",
    }
    assert {s for s in a.named("gap_seek") if s.endswith(",2)")} == {
        "gap_seek(1,50,2)",
        "gap_seek(1,160,2)",
        "gap_seek(1,250,2)",
    }, "the first instant starts at the first gap; each next where the previous stopped"
    assert a.named("first_gap_after") == {
        "first_gap_after(1,50,2)",
        "first_gap_after(1,160,2)",
        "first_gap_after(1,250,8)",
    }
    # 250's search starts at 2 (where 160's stopped) and walks past 6 to 8.
    assert a.named("gap_seek") >= {"gap_seek(1,250,2)", "gap_seek(1,250,6)", "gap_seek(1,250,8)"}
    assert a.has("first_relevant_gap(10,1,8,8)") and a.has("first_relevant_gap(13,1,8,8)")
    assert a.has("first_relevant_gap(11,1,2,2)") and a.has("first_relevant_gap(12,1,2,2)")


def test_doubts_name_what_makes_a_verdict_unconfident() -> None:
    """``doubt(X, Code)``: the causes of UNKNOWN, or the unsearched channel, and nothing else."""
    unsearched = standpoint(BASE + "declared_channel(1).")
    assert unsearched.named("doubt") == {"doubt(10,unsearched)"}
    assert unsearched.shows("doubt(10,unsearched)")
    effect = BASE + "declared_channel(1). tblock(1,1,50,60,50,60). evt(6,200,200,0). "
    effect += "unconfirmed(10,6,state)."
    assert standpoint(effect, now=400).named("doubt") == {"doubt(10,unconfirmed_effect)"}
    log = (
        "declared_channel(1). tblock(1,1,50,300,50,300). sblock(1,1,1,1,50,50,50,50,50). "
        "sblock(1,2,3,3,300,300,300,300,300). sblock_next(1,1,2)."
    )
    assert standpoint(BASE + log, now=400).named("doubt") == {"doubt(10,gap)"}
    searched = BASE + "declared_channel(1). tblock(1,1,50,60,50,60)."
    assert not standpoint(searched, now=400).named("doubt")
