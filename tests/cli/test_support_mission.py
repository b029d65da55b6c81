"""The support mission of the commitment-graph study, through `openloop status` and `receipt`.

Each variant of ``fixtures/support-mission/`` is its own history; these tests read what the
command line prints, exactly as a user or another tool would. The ``test`` blocks in the
fixtures assert the same verdicts through ``openloop test``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main

MISSION = Path(__file__).resolve().parents[2] / "fixtures" / "support-mission"
TASK = "support-88"
CONFIRM = "support-88/customer-confirms"
DEPLOY = "support-88/deploy"
APPROVAL = "support-88/approval"


def status(capsys, variant: str, at: str, *extra: str) -> dict:
    assert main(["status", str(MISSION / variant), "--at", at, "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def receipt(capsys, variant: str, at: str, fmt: str = "json") -> dict | str:
    code = main(["receipt", TASK, str(MISSION / variant), "--at", at, "--format", fmt])
    assert code == 0
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def statuses(doc: dict) -> dict[str, str]:
    return {x["id"]: x["status"] for x in doc["expectations"]}


def flags(doc: dict, ident: str) -> list[str]:
    return next(x["flags"] for x in doc["expectations"] if x["id"] == ident)


def task(doc: dict) -> dict:
    (found,) = [t for t in doc["tasks"] if t["id"] == TASK]
    return found


def findings(doc: dict) -> set[tuple[str, str, tuple[str, ...]]]:
    return {(f["kind"], f["event"], tuple(f["outstanding"])) for f in doc["findings"]}


def obligation(doc: dict, ident: str) -> dict:
    return next(o for o in doc["obligations"] if o["id"] == ident)


# (variant, at, task status, outstanding, findings as (kind, event, outstanding))
CASES = [
    (
        "base",
        "2024-09-03T15:00",
        "INCOMPLETE",
        [CONFIRM],
        {("FALSE_COMPLETION", "session-88", (CONFIRM,))},
    ),
    (
        "base",
        "2024-09-06",
        "COMPLETE",
        [],
        {("FALSE_COMPLETION", "session-88", (CONFIRM,)), ("FALSE_PENDING", "session-89", ())},
    ),
    (
        "reverted",
        "2024-09-04T09:00",
        "INCOMPLETE",
        [CONFIRM, DEPLOY],
        {("FALSE_COMPLETION", "session-88", (CONFIRM,))},
    ),
    (
        "timeout",
        "2024-09-03T15:00",
        "INCOMPLETE",
        [CONFIRM, DEPLOY],
        {("FALSE_COMPLETION", "session-88", (CONFIRM, DEPLOY))},
    ),
    (
        "timeout",
        "2024-09-05T10:00",
        "UNKNOWN",
        [DEPLOY],
        {("FALSE_COMPLETION", "session-88", (CONFIRM, DEPLOY))},
    ),
    (
        "timeout",
        "2024-09-06T12:00",
        "COMPLETE",
        [],
        {("FALSE_COMPLETION", "session-88", (CONFIRM, DEPLOY))},
    ),
    (
        "waived",
        "2024-09-11T10:00",
        "INCOMPLETE",
        [CONFIRM],
        {("FALSE_COMPLETION", "session-88", (CONFIRM,))},
    ),
    ("waived", "2024-09-12", "COMPLETE", [], {("FALSE_COMPLETION", "session-88", (CONFIRM,))}),
    (
        "unapproved",
        "2024-09-06",
        "COMPLETE",
        [],
        {("FALSE_COMPLETION", "session-88", (APPROVAL, CONFIRM))},
    ),
]


@pytest.mark.parametrize(("variant", "at", "expected", "outstanding", "found"), CASES)
def test_status_and_receipt_agree_on_the_task(capsys, variant, at, expected, outstanding, found):
    doc = status(capsys, variant, at)
    assert (task(doc)["status"], task(doc)["outstanding"]) == (expected, outstanding)
    assert findings(doc) == found
    rec = receipt(capsys, variant, at)
    assert (rec["task"]["status"], rec["remaining"]) == (expected, outstanding)
    assert findings(rec) == found
    assert {o["id"]: o["status"] for o in rec["obligations"]} == statuses(doc)


# --- base: five steps, a premature "resolved", then the customer ------------------------------


def test_base_each_step_waits_for_the_one_before(capsys):
    doc = status(capsys, "base", "2024-09-02T12:00")
    assert statuses(doc)["support-88/reproduce"] == "SATISFIED"
    assert statuses(doc)[CONFIRM] == "NOT_OPENED"  # owed from the deploy on
    assert "blocked" not in flags(doc, "support-88/patch")
    assert "blocked" in flags(doc, "support-88/tests")
    assert "blocked" in flags(doc, DEPLOY)


def test_base_false_completion_lists_the_customer_confirmation(capsys):
    doc = status(capsys, "base", "2024-09-03T15:00")
    assert all(s == "SATISFIED" for x, s in statuses(doc).items() if x != CONFIRM)
    assert statuses(doc)[CONFIRM] == "OPEN" and "awaiting" in flags(doc, CONFIRM)
    (finding,) = task(doc)["findings"]
    assert finding == {
        "kind": "FALSE_COMPLETION",
        "event": "session-88",
        "by": "agent-7",
        "target": TASK,
        "outstanding": [CONFIRM],
    }


def test_base_receipt_names_the_evidence_and_tier_of_each_step(capsys):
    rec = receipt(capsys, "base", "2024-09-06")
    evidence = {o["id"]: (o["evidence"]["event"], o["tier"]) for o in rec["obligations"]}
    assert evidence == {
        "support-88/reproduce": ("ci-301", "state"),
        "support-88/patch": ("commit-4417", "state"),
        "support-88/tests": ("ci-302", "state"),
        APPROVAL: ("review-12", "explicit"),
        DEPLOY: ("deploy-91", "state"),
        CONFIRM: ("ticket-88-reply", "state"),
    }
    assert [o["id"] for o in rec["obligations"]] == [  # the order the task declares them
        "support-88/reproduce",
        "support-88/patch",
        "support-88/tests",
        APPROVAL,
        DEPLOY,
        CONFIRM,
    ]
    assert obligation(rec, APPROVAL)["evidence"]["by"] == "maria"
    assert obligation(rec, DEPLOY)["requires"] == [{"id": APPROVAL, "status": "SATISFIED"}]
    assert rec["task"]["principals"] == ["maria"]
    assert rec["endings"] == []


def test_base_receipt_markdown(capsys):
    text = receipt(capsys, "base", "2024-09-03T15:00", fmt="md")
    assert text.startswith("# Work receipt: support-88\n")
    assert "**INCOMPLETE** at 2024-09-03T15:00:00Z" in text
    assert "**FALSE_COMPLETION** `session-88` (2024-09-03T14:30:00Z) by agent-7" in text
    assert (
        "- `support-88/customer-confirms`: OPEN; awaiting evidence until 2024-09-10T14:00:00Z"
        in text
    )


# --- reverted: later evidence wins -------------------------------------------------------------


def test_reverted_deploy_is_open_again(capsys):
    before = status(capsys, "reverted", "2024-09-03T15:00")
    assert statuses(before)[DEPLOY] == "SATISFIED"
    after = status(capsys, "reverted", "2024-09-04T09:00")
    assert statuses(after)[DEPLOY] == "OPEN"
    assert "reopened" in flags(after, DEPLOY)
    late = status(capsys, "reverted", "2024-09-11")
    assert "deadline_passed" in flags(late, DEPLOY)


def test_reverted_receipt_notes_the_rollback(capsys):
    rec = receipt(capsys, "reverted", "2024-09-04T09:00")
    deploy = obligation(rec, DEPLOY)
    assert deploy["evidence"] is None and "reopened" in deploy["flags"]
    assert [(n["code"], n["event"]) for n in deploy["notes"]] == [("reopened", "monitor-5")]


# --- timeout: unknown is a state of its own ---------------------------------------------------


def test_timeout_deploy_is_unknown_and_so_is_the_task(capsys):
    doc = status(capsys, "timeout", "2024-09-05T10:00")
    deploy = next(x for x in doc["expectations"] if x["id"] == DEPLOY)
    assert (deploy["status"], deploy["confidence"]) == ("UNKNOWN", "UNKNOWN")
    assert any(
        r["code"] == "unconfirmed_effect" and r["event"] == "deploy-91" for r in deploy["reasons"]
    )
    rec = receipt(capsys, "timeout", "2024-09-05T10:00")
    assert [(n["code"], n["event"]) for n in obligation(rec, DEPLOY)["notes"]] == [
        ("unconfirmed_effect", "deploy-91")
    ]


def test_timeout_settled_by_a_later_observation(capsys):
    rec = receipt(capsys, "timeout", "2024-09-06T12:00")
    assert obligation(rec, DEPLOY)["evidence"]["event"] == "monitor-6"


# --- waived: the agent proposes, the principal disposes ---------------------------------------


def test_waived_agent_proposal_has_no_effect(capsys):
    doc = status(capsys, "waived", "2024-09-11T10:00")
    confirm = next(x for x in doc["expectations"] if x["id"] == CONFIRM)
    assert confirm["status"] == "OPEN" and "awaiting" not in confirm["flags"]
    assert [(r["code"], r["event"]) for r in confirm["reasons"] if r["code"] == "proposal"] == [
        ("proposal", "ticket-88-note")
    ]
    rec = receipt(capsys, "waived", "2024-09-11T10:00")
    assert rec["endings"] == [
        {
            "event": "ticket-88-note",
            "at": "2024-09-11T09:00:00Z",
            "by": "agent-7",
            "kind": "waives",
            "obligation": CONFIRM,
            "effective": False,
            "outcome": "proposal",
        }
    ]


def test_waived_by_the_principal_completes_the_task(capsys):
    doc = status(capsys, "waived", "2024-09-12")
    confirm = next(x for x in doc["expectations"] if x["id"] == CONFIRM)
    assert (confirm["status"], confirm["closed_by"]) == ("WAIVED", "ticket-88-close")
    assert "session-90" not in {f["event"] for f in doc["findings"]}  # a true claim
    rec = receipt(capsys, "waived", "2024-09-12")
    assert [(e["event"], e["by"], e["outcome"]) for e in rec["endings"]] == [
        ("ticket-88-note", "agent-7", "proposal"),
        ("ticket-88-close", "maria", "closed"),
    ]
    text = receipt(capsys, "waived", "2024-09-12", fmt="md")
    assert "agent-7 waives `support-88/customer-confirms`: a proposal without authority" in text
    assert "maria waives `support-88/customer-confirms`: took effect" in text


# --- unapproved: deployed before approval -----------------------------------------------------


def test_unapproved_deploy_flags_the_unmet_precondition(capsys):
    doc = status(capsys, "unapproved", "2024-09-03T15:00")
    assert statuses(doc)[DEPLOY] == "SATISFIED"
    assert "precondition_unmet" in flags(doc, DEPLOY)
    assert statuses(doc)[APPROVAL] == "OPEN" and "claimed_unverified" in flags(doc, APPROVAL)
    text = receipt(capsys, "unapproved", "2024-09-06", fmt="md")
    assert "**COMPLETE**" in text
    assert "`support-88/deploy` was satisfied while its preconditions" in text
    assert "review-11 reaches only tier textual, below `verify explicit`" in text
