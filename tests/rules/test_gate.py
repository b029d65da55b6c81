"""rules/query/gate.lp: the scope and result of `openloop check`."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = (
    "task(20). expectation(10). opening(10,100,100). part_of(10,20). "
    "expectation(11). opening(11,100,100). before(11,9). expectation(12). "
    "evt(6,200,200,0). close(10,6,satisfied,state,1). "
)


def test_every_expectation_fails_when_one_is_outstanding() -> None:
    a = standpoint(BASE + "gate_all.")
    assert a.named("gate_scope") == {f"gate_scope({x})" for x in (10, 11, 12)}
    assert a.named("gate_outstanding") == {"gate_outstanding(11)", "gate_outstanding(12)"}
    assert a.named("keyed") == {"keyed(11)", "keyed(12)"}, "what it reports gets its key reason"
    assert a.shows("key_reason(11,no_candidate,0)") and a.shows("key_reason(12,not_opened,0)")
    assert not a.named("explained"), "a key reason, not a whole explanation"
    assert a.named("gate_result") == {"gate_result(fail)"}


def test_a_tasks_obligations_pass_when_closed() -> None:
    a = standpoint(BASE + "gate_task(20).")
    assert a.named("gate_scope") == {"gate_scope(10)"} and a.shows("gate_result(pass)")


def test_before_an_event_and_unknown_only() -> None:
    a = standpoint(BASE + "gate_before(9). unknown_because(11,gap).")
    assert a.named("gate_scope") == {"gate_scope(11)"} and a.shows("gate_unknown(11)")
    assert a.named("gate_result") == {"gate_result(unknown)"}
    assert a.named("keyed") == {"keyed(11)"}, "the gate keys what it reports"
    assert a.shows("key_reason(11,gap,0)")


def test_an_empty_scope_passes_and_no_gate_no_result() -> None:
    assert standpoint(BASE + "gate_before(99).").named("gate_result") == {"gate_result(pass)"}
    assert not standpoint(BASE).named("gate_result")


def test_every_expectation_closed_passes_and_the_scope_is_shown() -> None:
    closed = "expectation(10). opening(10,100,100). evt(6,200,200,0). "
    a = standpoint(closed + "close(10,6,satisfied,state,1). gate_all.")
    assert a.shows("gate_scope(10)") and a.named("gate_result") == {"gate_result(pass)"}
    b = standpoint(closed + "gate_all.")
    assert b.shows("gate_outstanding(10)") and b.shows("gate_result(fail)")
