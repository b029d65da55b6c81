"""rules/query/ready.lp: what is ready (`openloop ready`) and how urgent each owed item is."""

from __future__ import annotations

from tests.rules.harness import standpoint

#: 10 open; 11 requires 10 (open) ; 12 requires task 20 (its obligation 13 open);
#: 14 closed; 15 not opened; 16 unknown (a gap); 17 open past its deadline.
BASE = (
    "expectation(10). opening(10,100,100). "
    "expectation(11). opening(11,100,100). requires(11,10). "
    "task(20). expectation(13). opening(13,100,100). part_of(13,20). "
    "expectation(12). opening(12,100,100). requires(12,20). "
    "expectation(14). opening(14,100,100). evt(6,200,200,0). close(14,6,satisfied,state,1). "
    "expectation(15). "
    "expectation(16). opening(16,100,100). unknown_because(16,gap). "
    "expectation(17). opening(17,100,100). deadline(17,300). "
)


def test_ready_is_open_with_every_precondition_met() -> None:
    a = standpoint(BASE + "ready_query.", now=400)
    assert a.named("ready") == {"ready(10)", "ready(13)", "ready(17)"}
    assert a.shows("ready(10)") and a.shows("waiting_on(11,10)")
    assert a.named("waiting_on") == {"waiting_on(11,10)", "waiting_on(12,20)"}
    assert a.shows("waiting_on(12,20)")


def test_a_met_precondition_makes_it_ready() -> None:
    closed = "evt(7,150,150,0). close(10,7,satisfied,state,1). close(13,7,satisfied,state,1). "
    a = standpoint(BASE + closed + "ready_query.", now=400)
    assert {"ready(11)", "ready(12)"} <= a.named("ready")
    assert not a.named("waiting_on")


def test_urgency_classes_of_everything_owed() -> None:
    a = standpoint(BASE + "ready_query.", now=400)
    assert a.named("urgency") == {
        "urgency(17,1,overdue)",
        "urgency(10,2,ready)",
        "urgency(13,2,ready)",
        "urgency(16,3,unknown)",
        "urgency(11,4,waiting)",
        "urgency(12,4,waiting)",
        "urgency(15,5,not_opened)",
    }
    assert a.shows("urgency(17,1,overdue)") and a.has("owed(15)")


def test_nothing_without_the_query() -> None:
    a = standpoint(BASE, now=400)
    assert not a.named("ready") and not a.named("urgency") and not a.named("waiting_on")
