"""Work receipts (``resolver/receipt.py``, ``openloop receipt``) on small histories."""

from __future__ import annotations

import json

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.errors import InputError
from resolver.faces import receipt_text
from resolver.verdicts import receipt
from tests.helpers import prepare_text

TASK = """
task t {
  title "Ship the fix"
  opened 2024-07-01
  principal alice
  obligation a { title "Write the patch" want patch.done = true verify state }
  obligation b { title "Approve" verify explicit requires a }
}
event a1 { channel commits at 2024-07-10 by dev text "patch" set patch.done = true }
"""


def build(source: str, at: str = "2024-09-01", known: str | None = None, task: str = "t"):
    prepared = prepare_text(source)
    return receipt.build(prepared, api.status(prepared, at=at, known=known), task)


def test_receipt_of_an_incomplete_task():
    rec = build(TASK)
    assert (rec.task, rec.title, rec.status, rec.remaining) == (
        "t",
        "Ship the fix",
        "INCOMPLETE",
        ("b",),
    )
    a = rec.obligation("a")
    assert a is not None and a.evidence is not None
    assert (a.status, a.tier, a.evidence.event, a.evidence.by, a.evidence.channel) == (
        "SATISFIED",
        "state",
        "a1",
        "dev",
        "commits",
    )
    b = rec.obligation("b")
    assert b is not None
    assert (b.status, b.evidence, [(p.id, p.status) for p in b.preconditions]) == (
        "OPEN",
        None,
        [("a", "SATISFIED")],
    )
    assert rec.principals == ("alice",)


def test_principal_waiver_on_the_task_shows_for_each_obligation():
    rec = build(TASK + "event w { channel commits at 2024-07-20 by alice waives t }\n")
    assert rec.status == "COMPLETE"
    endings = {(e.obligation, e.event, e.effective, e.outcome) for e in rec.endings}
    # a was already satisfied: the waiver had authority over it but changed nothing
    assert endings == {("a", "w", True, "none"), ("b", "w", True, "closed")}


def test_agent_waiver_is_listed_as_a_proposal():
    rec = build(TASK + "event w { channel commits at 2024-07-20 by bot waives b }\n")
    assert [(e.by, e.kind, e.obligation, e.effective, e.outcome) for e in rec.endings] == [
        ("bot", "waives", "b", False, "proposal")
    ]
    assert rec.status == "INCOMPLETE"


def test_principal_reopening_is_listed_with_its_effect():
    rec = build(TASK + "event r { channel commits at 2024-07-20 by alice reopens a }\n")
    assert [(e.event, e.kind, e.outcome) for e in rec.endings] == [("r", "reopens", "reopened")]
    assert rec.obligation("a").notes[0].code == "reopened"


def test_markers_not_yet_visible_are_not_listed():
    source = TASK + "event w { channel commits at 2024-07-20 by alice waives b }\n"
    assert build(source, at="2024-07-15").endings == ()


def test_findings_carry_the_claims_time():
    claim = "event c { channel sessions at 2024-07-11 by bot claims_complete t }\n"
    rec = build(TASK + claim)
    (finding,) = rec.findings
    assert (finding.kind, finding.event, finding.by, finding.outstanding) == (
        "FALSE_COMPLETION",
        "c",
        "bot",
        ("b",),
    )
    assert receipt_text.to_dict(rec)["findings"][0]["at"] == "2024-07-11T00:00:00Z"


def test_empty_task_receipt():
    rec = build('task e { title "Nothing owed" opened 2024-07-01 }\n', task="e")
    assert (rec.status, rec.obligations, rec.remaining) == ("COMPLETE", (), ())
    text = receipt_text.render_markdown(rec)
    assert "No obligations: the task is complete by definition." in text
    assert "Nothing: every obligation is satisfied" in text
    assert "Authority over endings" not in text


def test_without_principals_any_non_agent_has_authority():
    source = "channel x work\n" + TASK.replace("principal alice", "")
    prepared = prepare_text(source, preamble=False)
    rec = receipt.build(prepared, api.status(prepared, at="2024-09-01"), "t")
    assert rec.principals == ()
    assert "Authority over endings: any actor who is not an agent." in (
        receipt_text.render_markdown(rec)
    )


def test_awaiting_window_end_is_shown():
    source = TASK.replace("verify explicit requires a", "verify explicit window 2d")
    rec = build(source, at="2024-07-02")
    b = rec.obligation("b")
    assert b is not None and "awaiting" in b.flags
    assert receipt_text.to_dict(rec)["obligations"][1]["awaiting_until"] == "2024-07-03T00:00:00Z"


def test_json_standpoint_with_known_latest():
    doc = receipt_text.to_dict(build(TASK, at="2024-09-01", known="latest"))
    assert doc["standpoint"] == {"at": "2024-09-01T00:00:00Z", "known": "latest"}
    assert set(doc) == {
        "schema_version",
        "kind",
        "standpoint",
        "task",
        "obligations",
        "endings",
        "findings",
        "remaining",
    }


def test_unknown_task_is_an_input_error():
    with pytest.raises(InputError, match="unknown task 'nope' \\(declared tasks: t\\)"):
        build(TASK, task="nope")


def test_an_expectation_is_not_a_task():
    with pytest.raises(InputError, match="'a' is an expectation, not a task"):
        build(TASK, task="a")


# --- the command line ---------------------------------------------------------------------------


def write_history(tmp_path) -> str:
    from tests.helpers import PREAMBLE

    (tmp_path / "history.ol").write_text(PREAMBLE + TASK, encoding="utf-8")
    return str(tmp_path)


def test_cli_unknown_task_exits_2_and_writes_nothing(tmp_path, capsys):
    folder = write_history(tmp_path)
    out = tmp_path / "receipt.md"
    assert main(["receipt", "nope", folder, "--at", "2024-09-01", "-o", str(out)]) == 2
    assert "error: unknown task 'nope'" in capsys.readouterr().err
    assert not out.exists()


def test_cli_writes_markdown_by_default_and_json_on_request(tmp_path, capsys):
    folder = write_history(tmp_path)
    assert main(["receipt", "t", folder, "--at", "2024-09-01"]) == 0
    assert capsys.readouterr().out.startswith("# Work receipt: t\n")
    out = tmp_path / "receipt.json"
    assert (
        main(["receipt", "t", folder, "--at", "2024-09-01", "--format", "json", "-o", str(out)])
        == 0
    )
    assert json.loads(out.read_text())["task"]["status"] == "INCOMPLETE"


def test_cli_bad_standpoint_exits_2(tmp_path, capsys):
    folder = write_history(tmp_path)
    assert main(["receipt", "t", folder, "--at", "yesterday"]) == 2
    assert "error" in capsys.readouterr().err


def test_markdown_says_what_blocks_what_remains():
    source = TASK.replace("event a1", "event later-a1").replace("2024-07-10", "2024-10-10")
    text = receipt_text.render_markdown(build(source))
    assert "- `b`: OPEN; blocked by `a` (OPEN)" in text
    text = receipt_text.render_markdown(build(source.replace("requires a", "requires a, ghost")))
    # The rules ignore a precondition naming nothing declared (lint warns): it blocks nothing.
    assert "- `b`: OPEN; blocked by `a` (OPEN)\n" in text
    assert "ghost" not in text.split("## What remains")[1]
