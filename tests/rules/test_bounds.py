"""rules/standpoint/bounds.lp: the bound, and deadline_passed, late, awaiting."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = "expectation(10). opening(10,100,100). "


def test_the_earlier_of_deadline_and_a_visible_before_event() -> None:
    a = standpoint(BASE + "deadline(10,500). before(10,7). evt(7,300,300,0).", now=400)
    assert a.shows("bound(10,300)")
    hidden = standpoint(BASE + "deadline(10,500). before(10,7). evt(7,300,300,0).", now=250)
    assert hidden.shows("bound(10,500)")
    assert not standpoint(BASE).named("bound")


def test_deadline_passed_needs_t_after_the_bound() -> None:
    assert standpoint(BASE + "deadline(10,500).", now=501).shows("flag(10,deadline_passed)")
    assert not standpoint(BASE + "deadline(10,500).", now=500).shows("flag(10,deadline_passed)")
    unknown = BASE + "deadline(10,500). unknown_because(10,gap)."
    assert standpoint(unknown, now=600).shows("flag(10,deadline_passed)")


def test_late_when_closed_after_the_bound() -> None:
    facts = BASE + "deadline(10,150). evt(6,200,200,0). close(10,6,satisfied,state,1)."
    assert standpoint(facts).shows("flag(10,late)")
    assert not standpoint(facts.replace("150", "200")).shows("flag(10,late)")


def test_awaiting_within_the_window_of_the_opening() -> None:
    assert standpoint(BASE + "window(10,50).", now=150).shows("flag(10,awaiting)")
    assert not standpoint(BASE + "window(10,50).", now=151).shows("flag(10,awaiting)")
