"""rules/standpoint/tasks.lp: task completion, and claims judged at their own time."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = (
    "task(20). expectation(10). opening(10,100,100). part_of(10,20). "
    "expectation(11). opening(11,100,100). part_of(11,20). "
)


def _close(x: int, e: int, at: int, status: str = "satisfied", rank: int = 1) -> str:
    return f"evt({e},{at},{at},0). close({x},{e},{status},state,{rank}). "


def test_complete_iff_every_obligation_is_closed() -> None:
    a = standpoint(BASE + _close(10, 6, 200) + _close(11, 7, 200, "waived", 7))
    assert a.named("task_status") == {"task_status(20,complete)"}
    assert standpoint("task(21).").shows("task_status(21,complete)")


def test_incomplete_while_one_is_open_or_not_opened() -> None:
    a = standpoint(BASE + _close(10, 6, 200))
    assert a.named("task_status") == {"task_status(20,incomplete)"}
    assert a.named("outstanding") == {"outstanding(20,11)"}
    b = standpoint(BASE.replace("opening(11,100,100). ", "") + _close(10, 6, 200))
    assert b.shows("task_status(20,incomplete)") and b.has("pending(11)")


def test_unknown_when_the_rest_hinges_on_an_unknown() -> None:
    a = standpoint(BASE + _close(10, 6, 200) + "unknown_because(11,gap).")
    assert a.named("task_status") == {"task_status(20,unknown)"}
    assert a.shows("outstanding(20,11)")


def test_a_false_completion_judged_at_the_claims_own_instant() -> None:
    facts = (
        BASE
        + _close(10, 6, 200)
        + _close(11, 7, 400)
        + "evt(8,300,300,3). claim(8,claims_complete,20). "
    )
    a = standpoint(facts, now=500)
    assert a.shows("finding(false_completion,8,20)")
    assert a.shows("finding_outstanding(8,20,11)") and not a.shows("finding_outstanding(8,20,10)")
    assert a.shows("task_finding(20,false_completion,8,20)") and a.shows("visible_claim(8)")
    fine = facts.replace("evt(8,300,300,3)", "evt(8,450,450,3)")
    assert not standpoint(fine, now=500).named("finding")


def test_a_claim_about_an_obligation_is_listed_under_its_task() -> None:
    facts = BASE + "evt(8,300,300,3). claim(8,claims_complete,10). "
    a = standpoint(facts, now=500)
    assert a.shows("finding(false_completion,8,10)")
    assert a.shows("task_finding(20,false_completion,8,10)")
    assert a.shows("finding_outstanding(8,10,10)")
    assert not standpoint(facts, now=250).named("visible_claim")


def test_a_false_pending_when_it_was_done() -> None:
    facts = BASE + _close(10, 6, 200) + "evt(8,300,300,3). claim(8,reports_pending,10). "
    a = standpoint(facts, now=500)
    assert a.shows("finding(false_pending,8,10)")
    b = standpoint(
        facts.replace("claim(8,reports_pending,10)", "claim(8,reports_pending,11)"), now=500
    )
    assert not b.named("finding")
    task = standpoint(
        BASE
        + _close(10, 6, 200)
        + _close(11, 7, 210)
        + "evt(8,300,300,3). claim(8,reports_pending,20).",
        now=500,
    )
    assert task.shows("finding(false_pending,8,20)")
