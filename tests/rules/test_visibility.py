"""rules/standpoint/visibility.lp: what the standpoint (at T, known K) sees."""

from __future__ import annotations

from tests.rules.harness import standpoint


def test_an_event_is_visible_iff_at_le_t_and_recorded_le_k() -> None:
    facts = "evt(1,100,100,0). evt(2,100,200,0). evt(3,300,300,0)."
    a = standpoint(facts, now=250, known=150)
    assert a.has("visible(1)") and not a.has("visible(2)") and not a.has("visible(3)")
    assert a.has("at(2,100)")


def test_opened_from_the_opening_and_not_opened_otherwise() -> None:
    facts = "expectation(10). opening(10,100,120). expectation(11)."
    seen = standpoint(facts, now=130)
    assert seen.has("opened(10)") and seen.has("opened_at(10,100)")
    assert seen.has("not_opened(11)") and not seen.has("not_opened(10)")
    assert standpoint(facts, now=110).has("not_opened(10)")
    assert standpoint(facts, now=99, known=200).has("not_opened(10)")
