"""rules/standpoint/instances.lp: policy instances at a standpoint, and the new bounds."""

from __future__ import annotations

from tests.rules.harness import standpoint

#: Instance 90 of policy 50 from trigger 5 (at 100, recorded 100); task instance 20 of policy
#: 51 from trigger 6 (at 200) with obligation 21.
FACTS = (
    "evt(5,100,100,0). derived(90,5). instance_of(90,50,5). opening(90,100,100). "
    "evt(6,200,200,0). derived_task(20,6). instance_of(20,51,6). opening(20,200,200). "
    "derived(21,6). part_of(21,20). opening(21,200,200). "
)


def test_an_instance_exists_iff_its_trigger_is_visible() -> None:
    early = standpoint(FACTS, now=50)
    assert not early.has("expectation(90)") and not early.named("status")
    assert not early.named("instance") and not early.has("not_opened(90)")
    seen = standpoint(FACTS, now=150)
    assert seen.has("expectation(90)") and seen.shows("status(90,open)")
    assert seen.shows("instance(90,50,5)") and not seen.has("task(20)")
    unrecorded = standpoint(FACTS, now=150, known=50)
    assert not unrecorded.has("expectation(90)")


def test_a_task_instance_and_its_obligations_exist_with_their_trigger() -> None:
    a = standpoint(FACTS, now=250)
    assert a.has("task(20)") and a.shows("task_status(20,incomplete)")
    assert a.shows("instance(20,51,6)") and a.shows("instance(21,51,6)")
    assert a.has("expectation(21)") and a.shows("outstanding(20,21)")


def test_within_bounds_from_the_opening() -> None:
    a = standpoint(FACTS + "within(90,30).", now=150)
    assert a.has("bound_at(90,130)") and a.shows("bound(90,130)")
    assert a.shows("flag(90,deadline_passed)")


def test_next_kind_bounds_at_the_earliest_visible_event_of_the_kind() -> None:
    facts = FACTS + "kind_after(90,7). evt(7,300,300,0). kind_after(90,8). evt(8,400,400,0). "
    assert standpoint(facts, now=450).shows("bound(90,300)")
    assert standpoint(facts, now=350).shows("bound(90,300)")
    assert not standpoint(facts, now=250).named("bound"), "an unseen event bounds nothing"
