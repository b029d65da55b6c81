"""rules/standpoint/preconditions.lp: `requires`, blocked and precondition_unmet."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = "expectation(10). opening(10,100,100). expectation(11). opening(11,100,100). "


def test_blocked_while_the_precondition_is_unsettled() -> None:
    a = standpoint(BASE + "requires(10,11).")
    assert a.shows("flag(10,blocked)") and a.shows("blocked_by(10,11,open)")
    assert a.shows("precondition(10,11)")
    done = standpoint(BASE + "requires(10,11). evt(6,200,200,0). close(11,6,satisfied,state,1).")
    assert not done.shows("flag(10,blocked)")
    closed = standpoint(BASE + "requires(10,11). evt(6,200,200,0). close(10,6,cancelled,none,6).")
    assert not closed.shows("flag(10,blocked)")


def test_a_task_precondition_blocks_until_the_task_is_complete() -> None:
    facts = BASE + "task(20). part_of(11,20). requires(10,20)."
    a = standpoint(facts)
    assert a.shows("blocked_by(10,20,incomplete)")
    assert not standpoint(facts + "evt(6,200,200,0). close(11,6,waived,none,7).").shows(
        "flag(10,blocked)"
    )


def test_a_task_requires_for_each_of_its_obligations() -> None:
    a = standpoint(BASE + "task(20). part_of(10,20). requires(20,11).")
    assert a.shows("precondition(10,11)") and a.shows("precondition_via(10,11,20)")
    own = standpoint(BASE + "task(20). part_of(10,20). requires(20,11). requires(10,11).")
    assert not own.shows("precondition_via(10,11,20)")


def test_precondition_unmet_when_satisfied_before_the_precondition_closed() -> None:
    facts = BASE + "requires(10,11). evt(6,200,200,0). close(10,6,satisfied,state,1). "
    a = standpoint(facts + "evt(7,300,300,0). close(11,7,satisfied,state,1).")
    assert a.shows("flag(10,precondition_unmet)")
    same = standpoint(facts + "evt(7,200,200,0). close(11,7,satisfied,state,1).")
    assert not same.shows("flag(10,precondition_unmet)")


def test_precondition_unmet_on_a_task_reads_each_obligation() -> None:
    facts = (
        BASE + "expectation(12). opening(12,100,100). task(20). part_of(11,20). part_of(12,20). "
        "requires(10,20). evt(6,200,200,0). close(10,6,satisfied,state,1). "
        "evt(7,150,150,0). close(11,7,satisfied,state,1). "
        "evt(8,300,300,0). close(12,8,satisfied,state,1)."
    )
    assert standpoint(facts).shows("flag(10,precondition_unmet)")
    early = facts.replace("evt(8,300,300,0)", "evt(8,190,190,0)")
    assert not standpoint(early).shows("flag(10,precondition_unmet)")
