"""rules/standpoint/output.lp: what a standpoint hands the faces (only the shown atoms)."""

from __future__ import annotations

from tests.rules.harness import standpoint

#: X (10) opens at 100 and searches work channel 1, whose log is read through 60.
BASE = "expectation(10). opening(10,100,100). work(1). declared_channel(1). "


def test_the_opening_and_the_search_footprint_are_shown() -> None:
    a = standpoint(BASE + "tblock(1,1,50,60,50,60).", now=300)
    assert a.shows("opened_at(10,100)") and a.shows("search_channel(10,1)")
    assert a.shows("searched(1)") and a.shows("through(1,60)")


def test_a_channel_never_read_is_not_shown_as_searched() -> None:
    a = standpoint(BASE, now=300)
    assert a.shows("search_channel(10,1)") and not a.named("searched")
    assert not standpoint(BASE, now=50).shows("opened_at(10,100)"), "not yet opened"
