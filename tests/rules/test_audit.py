"""rules/query/audit.lp: a close judged at its own standpoint, then at now, and false pendings."""

from __future__ import annotations

from tests.rules.harness import standpoint

# Expectation 10 is closed by event 6 at 200; 11 is never closed; 12 is UNKNOWN (a gap);
# task 20 has obligations 10 and 11. Event 7 (at 300) claims each complete.
BASE = (
    "expectation(10). opening(10,100,100). evt(6,200,200,0). close(10,6,satisfied,state,1). "
    "expectation(11). opening(11,100,100). "
    "expectation(12). opening(12,100,100). unknown_because(12,gap). "
    "task(20). part_of(10,20). part_of(11,20). "
    "evt(7,300,300,0). claim(7,claims_complete,10). claim(7,claims_complete,11). "
    "claim(7,claims_complete,12). claim(7,claims_complete,20). "
)


def test_a_close_at_its_own_instant() -> None:
    a = standpoint(BASE + "audit_close(7).", now=300)
    assert a.named("audit_state") == {
        "audit_state(7,10,complete)",
        "audit_state(7,11,incomplete)",
        "audit_state(7,12,unknown)",
        "audit_state(7,20,incomplete)",
    }
    assert all(a.shows(x) for x in a.named("audit_state"))


def test_a_close_is_judged_only_at_its_own_instant_and_only_when_asked() -> None:
    assert not standpoint(BASE + "audit_close(7).", now=400).named("audit_state")
    assert not standpoint(BASE, now=300).named("audit_state")


def test_a_task_is_unknown_when_an_obligation_is() -> None:
    facts = BASE + "part_of(12,20). audit_close(7)."
    a = standpoint(facts.replace("part_of(11,20). ", ""), now=300)
    assert a.has("audit_state(7,20,unknown)")


def test_the_verdicts_at_now() -> None:
    handed = (
        "audit_now. audit_at_close(7,10,complete). audit_at_close(8,10,incomplete). "
        "audit_at_close(9,11,incomplete). audit_at_close(5,12,incomplete). "
        "audit_at_close(4,11,unknown). "
    )
    a = standpoint(BASE + handed, now=1000)
    assert a.named("audit_verdict") == {
        "audit_verdict(7,10,complete_when_closed)",
        "audit_verdict(8,10,landed_later)",
        "audit_verdict(9,11,never_supported)",
        "audit_verdict(5,12,unknown)",
        "audit_verdict(4,11,unknown)",
    }
    assert a.named("audit_now_state") == {
        "audit_now_state(10,complete)",
        "audit_now_state(11,incomplete)",
        "audit_now_state(12,unknown)",
    }
    assert all(a.shows(x) for x in a.named("audit_verdict") | a.named("audit_now_state"))
    assert {"keyed(10)", "keyed(11)", "keyed(12)"} <= a.named("keyed"), "each gets its reason"
    assert not standpoint(BASE + handed.replace("audit_now. ", "")).named("audit_verdict")


def test_a_task_complete_now() -> None:
    facts = "task(20). expectation(10). opening(10,100,100). part_of(10,20). "
    facts += "evt(6,200,200,0). close(10,6,satisfied,state,1). "
    a = standpoint(facts + "audit_now. audit_at_close(7,20,incomplete).")
    assert a.has("audit_now_state(20,complete)") and a.has("audit_verdict(7,20,landed_later)")


def test_false_pending_reports_and_items_still_open_on_the_tracker() -> None:
    facts = (
        "expectation(10). opening(10,100,100). evt(6,200,200,0). close(10,6,satisfied,state,1). "
        "evt(8,300,300,0). claim(8,reports_pending,10). "
    )
    a = standpoint(facts + "audit_close(8).", now=300)
    assert a.named("audit_false_pending") == {"audit_false_pending(8,10)"}
    assert a.shows("audit_false_pending(8,10)")
    assert not standpoint(facts, now=300).named("audit_false_pending"), "only when asked"
    # Tracker item 10 is satisfied: stale while open on the tracker (reported pending at 300).
    b = standpoint(facts + "audit_now. audit_item(10).")
    assert b.named("audit_stale_open") == {"audit_stale_open(10)"}
    assert b.shows("audit_stale_open(10)")
    assert b.has("keyed(10)") and b.shows("audit_now_state(10,complete)"), "with its reason"
    closed = facts + "evt(9,250,250,0). claim(9,claims_complete,10). audit_now. audit_item(10)."
    assert b.has("audit_stale_open(10)") and standpoint(closed).has("audit_stale_open(10)"), (
        "reopened (reported pending at 300) after its close at 250"
    )
    reclosed = closed + "evt(5,400,400,0). claim(5,claims_complete,10)."
    assert not standpoint(reclosed).named("audit_stale_open"), "closed again at 400"
    never = facts.replace("claim(8,reports_pending,10). ", "") + "audit_now. audit_item(10)."
    assert standpoint(never).has("audit_stale_open(10)"), "never closed on the tracker"
    assert not standpoint(never.replace("audit_item(10).", "")).named("audit_stale_open")
    unseen = closed.replace("evt(9,250,250,0)", "evt(9,250,2000,0)")
    assert standpoint(unseen).has("audit_stale_open(10)"), "a close not yet recorded"


def test_a_close_about_to_be_made_reads_the_item_now() -> None:
    a = standpoint(BASE + "audit_now. audit_gate(11). audit_gate(20).")
    assert a.named("audit_now_state") == {
        "audit_now_state(11,incomplete)",
        "audit_now_state(20,incomplete)",
    }
    assert a.has("keyed(11)") and not a.named("audit_verdict")
    assert standpoint(BASE + "audit_now. audit_gate(10).").shows("audit_now_state(10,complete)")
    assert not standpoint(BASE + "audit_gate(10).").named("audit_now_state"), "only at now"
