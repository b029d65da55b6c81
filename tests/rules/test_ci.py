"""rules/query/ci.lp: the findings in the gate's scope and the level of each CI annotation."""

from __future__ import annotations

from tests.rules.harness import standpoint

#: Task 20 with obligation 10 (open) and 11 (closed at 200); expectation 12 bounded by event 9.
#: Claim 8 says task 20 is complete (false); claim 5 says 11 is still pending (false); claim 4
#: says 12 is complete (false).
BASE = (
    "task(20). expectation(10). opening(10,100,100). part_of(10,20). "
    "expectation(11). opening(11,100,100). part_of(11,20). "
    "evt(6,200,200,0). close(11,6,satisfied,state,1). "
    "expectation(12). opening(12,100,100). before(12,9). "
    "evt(8,300,300,3). claim(8,claims_complete,20). "
    "evt(5,300,300,3). claim(5,reports_pending,11). "
    "evt(4,300,300,3). claim(4,claims_complete,12). "
)


def test_every_finding_with_gate_all() -> None:
    a = standpoint(BASE + "gate_all.", now=400)
    assert a.named("gate_finding") == {
        "gate_finding(false_completion,8,20)",
        "gate_finding(false_pending,5,11)",
        "gate_finding(false_completion,4,12)",
    }
    assert a.shows("gate_finding(false_pending,5,11)")


def test_a_tasks_findings_are_about_it_or_its_obligations() -> None:
    a = standpoint(BASE + "gate_task(20).", now=400)
    assert a.named("gate_finding") == {
        "gate_finding(false_completion,8,20)",
        "gate_finding(false_pending,5,11)",
    }


def test_before_an_event_takes_the_findings_about_the_scope() -> None:
    a = standpoint(BASE + "gate_before(9).", now=400)
    assert a.named("gate_finding") == {"gate_finding(false_completion,4,12)"}


def test_levels() -> None:
    a = standpoint(
        BASE + "expectation(13). opening(13,100,100). unknown_because(13,gap). gate_all.", now=400
    )
    assert a.named("ci_level") == {
        "ci_level(10,error)",
        "ci_level(12,error)",
        "ci_level(13,warning)",
    }
    assert a.shows("ci_level(13,warning)") and a.shows("ci_level(10,error)")
    assert a.named("ci_finding_level") == {
        "ci_finding_level(false_completion,error)",
        "ci_finding_level(false_pending,warning)",
    }
    assert a.shows("ci_finding_level(false_pending,warning)")


def test_nothing_without_a_gate() -> None:
    a = standpoint(BASE, now=400)
    assert not a.named("gate_finding") and not a.named("ci_level")
