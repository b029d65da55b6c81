"""rules/standpoint/timeline.lp: folding visible transitions into a status."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = "expectation(10). opening(10,100,100). "


def _close(e: int, at: int, status: str = "satisfied", tier: str = "state", rank: int = 1) -> str:
    return f"evt({e},{at},{at},0). close(10,{e},{status},{tier},{rank}). "


def test_open_without_a_visible_transition() -> None:
    a = standpoint(BASE + _close(6, 500), now=400)
    assert a.shows("status(10,open)") and a.has("is_open(10)")
    assert standpoint("expectation(10).").shows("status(10,not_opened)")


def test_the_earliest_close_wins() -> None:
    a = standpoint(
        BASE + _close(6, 300) + _close(7, 200, "cancelled", "none", 6) + "inext(10,200,300)."
    )
    assert a.named("status") == {"status(10,cancelled)"}
    assert a.named("closed_by") == {"closed_by(10,7)"}
    assert a.shows("closed_time(10,200)") and a.has("late_close(10,6,already_closed)")
    assert a.shows("transition_taken(10,7,cancelled,none,200)")


def test_each_closing_status_with_its_tier() -> None:
    sat = standpoint(BASE + _close(6, 200, tier="semantic", rank=3))
    assert sat.shows("status(10,satisfied)") and sat.shows("closed_tier(10,semantic)")
    for status, rank in (("superseded", 5), ("cancelled", 6), ("waived", 7)):
        a = standpoint(BASE + _close(6, 200, status, "none", rank))
        assert a.shows(f"status(10,{status})") and not a.named("closed_tier")


#: The fact writer ranks the ids of the events that share an instant (7 before 8).
RANKS = "same_instant_rank(7,1). same_instant_rank(8,2). "


def test_ties_at_one_instant_by_rank_then_lower_event() -> None:
    a = standpoint(
        BASE + _close(7, 200, "waived", "none", 7) + _close(8, 200, tier="textual", rank=4) + RANKS
    )
    assert a.shows("closed_by(10,8)") and a.has("late_close(10,7,lost_tie)")
    b = standpoint(BASE + _close(8, 200) + _close(7, 200) + RANKS)
    assert b.shows("closed_by(10,7)") and b.has("beaten(10,200,8,1)")


def test_a_tie_is_broken_by_the_rank_of_the_id_not_the_event_number() -> None:
    # Event 8's id sorts first: the lower rank wins whatever the numbers say.
    ranks = "same_instant_rank(8,1). same_instant_rank(7,2). "
    a = standpoint(BASE + _close(7, 200) + _close(8, 200) + ranks)
    assert a.named("closed_by") == {"closed_by(10,8)"} and a.has("beaten(10,200,7,1)")
    assert a.has("late_close(10,7,lost_tie)") and not a.has("beaten(10,200,8,1)")
    # The rank comes second: a stronger close wins with the higher rank.
    b = standpoint(BASE + _close(7, 200, rank=2) + _close(8, 200, "waived", "none", 7) + ranks)
    assert b.named("closed_by") == {"closed_by(10,7)"} and b.has("beaten(10,200,8,7)")


def test_an_effective_reopen_returns_it_to_open_with_the_flag() -> None:
    facts = BASE + _close(6, 200) + "evt(7,300,300,0). reopen(10,7,marker). inext(10,200,300). "
    a = standpoint(facts)
    assert a.shows("status(10,open)") and a.shows("flag(10,reopened)")
    assert a.shows("reopen_taken(10,7,marker,300)") and a.has("open_since(10,300)")
    again = standpoint(facts + _close(8, 400) + "inext(10,300,400).")
    assert again.shows("status(10,satisfied)") and again.shows("flag(10,reopened)")


def test_a_reopen_while_open_does_nothing() -> None:
    a = standpoint(BASE + "evt(7,300,300,0). reopen(10,7,marker).")
    assert a.shows("status(10,open)") and a.has("idle_reopen(10,7,while_open)")
    assert not a.shows("flag(10,reopened)")


def test_closing_is_decided_before_reopening_at_one_instant() -> None:
    a = standpoint(BASE + _close(6, 200) + "evt(7,200,200,0). reopen(10,7,marker).")
    assert a.shows("status(10,open)") and a.shows("flag(10,reopened)")
    assert not a.has("idle_reopen(10,7,while_open)"), "it reopened what closed at its instant"


def test_a_contradiction_reopens_only_a_satisfied_close_before_the_bound() -> None:
    contra = "evt(7,300,300,0). reopen(10,7,contradiction). inext(10,200,300). "
    a = standpoint(BASE + _close(6, 200) + contra)
    assert a.shows("status(10,open)") and a.shows("flag(10,reopened)")
    assert a.shows("reopen_taken(10,7,contradiction,300)") and a.has("open_since(10,300)")
    late = standpoint(BASE + _close(6, 200) + contra + "deadline(10,250).")
    assert late.shows("status(10,satisfied)") and late.has("idle_reopen(10,7,after_bound)")
    at_bound = standpoint(BASE + _close(6, 200) + contra + "deadline(10,300).")
    assert at_bound.shows("status(10,open)")
    cancelled = standpoint(BASE + _close(6, 200, "cancelled", "none", 6) + contra)
    assert cancelled.shows("status(10,cancelled)")
    assert cancelled.has("idle_reopen(10,7,not_satisfied)")


def test_prev_steps_walk_over_invisible_instants() -> None:
    facts = (
        BASE + _close(6, 200) + "evt(7,300,300,0). reopen(10,7,marker). "
        "evt(8,400,900,0). close(10,8,satisfied,state,1). evt(9,500,500,0). reopen(10,9,marker). "
        "inext(10,200,300). inext(10,300,400). inext(10,400,500). "
    )
    a = standpoint(facts, now=600)
    assert a.has("prev_step(10,500,300)") and a.shows("status(10,open)")
    assert a.has("idle_reopen(10,9,while_open)")
    b = standpoint(
        BASE + _close(6, 200) + "evt(8,300,900,0). close(10,8,satisfied,state,1). "
        "evt(7,400,900,0). reopen(10,7,marker). evt(9,500,500,0). reopen(10,9,marker). "
        "inext(10,200,300). inext(10,300,400). inext(10,400,500).",
        now=600,
    )
    assert b.has("prev_step(10,500,200)") and b.shows("status(10,open)")


def test_closed_at_probe_answers_was_it_closed_then() -> None:
    facts = BASE + _close(6, 200) + "probe(10,150). probe(10,250)."
    a = standpoint(facts)
    assert a.has("closed_at_probe(10,250)") and not a.has("closed_at_probe(10,150)")


def test_an_idle_step_keeps_it_open_for_a_later_close() -> None:
    a = standpoint(
        BASE + "evt(7,300,300,0). reopen(10,7,marker). " + _close(8, 400) + "inext(10,300,400)."
    )
    assert a.named("status") == {"status(10,satisfied)"}


def test_open_like_is_open_or_unknown_and_shown() -> None:
    """``open_like(X)``: the verdicts still owed as far as the log shows, for the faces."""
    assert standpoint(BASE + _close(6, 500), now=400).shows("open_like(10)")
    unknown = standpoint(BASE + "unknown_because(10,gap).", now=400)
    assert unknown.shows("status(10,unknown)") and unknown.shows("open_like(10)")
    assert not standpoint(BASE + _close(6, 200)).named("open_like")
    assert not standpoint("expectation(10).").named("open_like")
