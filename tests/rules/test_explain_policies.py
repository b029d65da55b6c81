"""rules/query/explain_policies.lp: where an explained bound comes from (`within`, next kind)."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = (
    "expectation(10). opening(10,100,100). opener(10,5). evt(5,100,100,0). work(1). "
    "principal_of(10,1). opened_by_source(10,10). explain_target(10). "
)


def test_the_bound_comes_from_within_when_it_is_the_earliest() -> None:
    a = standpoint(BASE + "within(10,50). kind_after(10,9). evt(9,400,400,0).", now=450)
    assert a.shows("bound_from(10,within,0)") and not a.shows("bound_from(10,next_kind,9)")


def test_the_bound_comes_from_the_next_kind_event_when_it_is_earlier() -> None:
    a = standpoint(BASE + "within(10,500). kind_after(10,9). evt(9,400,400,0).", now=450)
    assert a.shows("bound_from(10,next_kind,9)") and not a.shows("bound_from(10,within,0)")
    hidden = standpoint(BASE + "within(10,500). kind_after(10,9). evt(9,400,400,0).", now=350)
    assert hidden.shows("bound_from(10,within,0)")


def test_nothing_is_explained_unless_asked() -> None:
    facts = BASE.replace("explain_target(10). ", "") + "within(10,50)."
    assert not standpoint(facts).named("bound_from")
