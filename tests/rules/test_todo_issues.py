"""rules/standpoint/todo_issues.lp: a TODO(#N) judged against issue N."""

from __future__ import annotations

from tests.rules.harness import standpoint

# issue 10 opened at 100; event 5 (at 200) adds TODO(#10), opening the TODO's expectation 11
BASE = (
    "expectation(10). opening(10,100,100). "
    "expectation(11). opening(11,200,200). opener(11,5). "
    "evt(5,200,200,3). claim(5,reports_pending,10). "
)


def _close(x: int, e: int, at: int, status: str = "satisfied", tier: str = "explicit") -> str:
    return f"evt({e},{at},{at},0). close({x},{e},{status},{tier},1). "


def test_closing_the_issue_while_its_todo_stays_is_a_finding() -> None:
    a = standpoint(BASE + _close(10, 6, 300))
    assert a.shows("finding(closed_with_todo,5,10)")
    assert a.has("todo_tie(5,10,11)")
    assert a.shows("status(10,satisfied)") and a.shows("status(11,open)")
    # any close counts: the comment still names an issue that is no longer open
    assert standpoint(BASE + _close(10, 6, 300, "cancelled")).shows(
        "finding(closed_with_todo,5,10)"
    )
    # before the close, the TODO is simply pending work of an open issue
    assert not standpoint(BASE + _close(10, 6, 300), now=250).named("finding")


def test_removing_the_todo_first_is_evidence_not_a_finding() -> None:
    a = standpoint(BASE + _close(11, 7, 280, tier="state") + _close(10, 6, 300))
    assert not a.named("finding")
    assert a.shows("todo_cleared(10,11,7)")
    # the removal alone closes nothing of the issue
    b = standpoint(BASE + _close(11, 7, 280, tier="state"))
    assert b.shows("status(10,open)") and b.shows("todo_cleared(10,11,7)")


def test_a_todo_written_after_the_close_is_one_false_pending() -> None:
    facts = (
        "expectation(10). opening(10,100,100). expectation(11). opening(11,400,400). "
        "opener(11,5). evt(5,400,400,3). claim(5,reports_pending,10). " + _close(10, 6, 300)
    )
    a = standpoint(facts, now=500)
    assert a.named("finding") == {"finding(false_pending,5,10)"}


def test_only_the_reporting_events_own_todos_and_only_visible_ones() -> None:
    other = BASE.replace("opener(11,5)", "opener(11,9)") + "evt(9,200,200,3). "
    assert not standpoint(other + _close(10, 6, 300)).named("todo_tie")
    # the report itself is not its own TODO: N's own opener is never tied to N
    self_tie = BASE + "opener(10,5). "
    assert not standpoint(self_tie + _close(10, 6, 300)).has("todo_tie(5,10,10)")
    unseen = BASE.replace("evt(5,200,200,3)", "evt(5,200,900,3)")
    assert not standpoint(unseen + _close(10, 6, 300), now=500).named("todo_tie")


def test_the_gate_grades_it_a_warning() -> None:
    a = standpoint(BASE + _close(10, 6, 300) + "gate_all. ")
    assert a.shows("ci_finding_level(closed_with_todo,warning)")
    assert not standpoint(BASE + "gate_all. ").named("ci_finding_level")
