"""``openloop check``: the gate of SPEC §4 (rules/query/gate.lp).

Exit 0, 1, 3, or 2 on bad input.
"""

from __future__ import annotations

import json

import pytest

from resolver import api
from resolver.api import gate_facts
from resolver.cli.main import main
from resolver.verdicts.resolution import resolve
from tests.helpers import PREAMBLE, prepare_text


def test_release_gate_before_and_after(capsys):
    args = ["check", "fixtures/release", "--before", "release-024"]
    assert main([*args, "--at", "2024-08-23"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1] == "FAIL: 1 outstanding, 0 unknown, 0 closed"  # the summary comes first
    assert lines[2].startswith("OPEN       intent-401")
    assert "nearest candidate commit-115: rejected [no_done_cue]" in lines[-1]
    assert main([*args, "--at", "2024-08-28"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "PASS: 0 outstanding, 0 unknown, 1 closed"


def test_task_scope(capsys):
    assert main(["check", "fixtures/release", "--task", "release-prep", "--at", "2024-08-23"]) == 1
    out = capsys.readouterr().out
    assert "obligations of task release-prep (5 expectations)" in out
    assert "intent-401" in out and "docs-update" not in out.split("\n", 1)[1]


def test_unknown_only_exits_3(tmp_path, capsys):
    (tmp_path / "h.ol").write_text(
        PREAMBLE
        + """
expectation x { opened 2024-07-01 want k = "v" }
event a { channel commits seq 1 at 2024-07-02 }
event b { channel commits seq 3 at 2024-07-04 }
""",
        encoding="utf-8",
    )
    assert main(["check", str(tmp_path), "--at", "2024-07-05"]) == 3
    out = capsys.readouterr().out
    assert "UNKNOWN    x" in out and "missing seq 2" in out


def test_not_opened_is_outstanding(tmp_path, capsys):
    (tmp_path / "h.ol").write_text(
        PREAMBLE + "expectation x { opened 2024-07-10 }", encoding="utf-8"
    )
    assert main(["check", str(tmp_path), "--at", "2024-07-05"]) == 1
    assert "NOT_OPENED x" in capsys.readouterr().out


def test_empty_scope_passes_when_allowed(capsys):
    args = ["check", "fixtures/release", "--before", "commit-113", "--at", "2024-08-23"]
    assert main([*args, "--allow-empty"]) == 0
    assert "(0 expectations)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("option", "value"), [("--task", "nosuch"), ("--task", "intent-401"), ("--before", "nosuch")]
)
def test_unknown_scope_is_bad_input(option, value, capsys):
    assert main(["check", "fixtures/release", option, value, "--at", "2024-08-23"]) == 2
    assert "error:" in capsys.readouterr().err


def test_json_output(capsys):
    assert main(["check", "fixtures/release", "--at", "2024-08-23", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["result"] == "FAIL" and data["exit"] == 1
    assert [x["id"] for x in data["outstanding"]] == ["intent-401"]


def test_gate_rules_decide_scope_and_result():  # gate.lp
    history = prepare_text("""
task t { opened 2024-07-01 obligation a { title "a" } obligation b { title "b" } }
task u { opened 2024-07-01 }
expectation c { opened 2024-07-01 before rel }
event done { channel commits at 2024-07-02 by alice cancels a }
event rel { channel commits at 2024-07-03 }
""")
    point = api.standpoint("2024-07-05")

    def gate(task=None, before=None):
        atoms = resolve(history, point, gate_facts(history, task, before)).atoms
        scope = sorted(history.facts.item_id(x) for (x,) in atoms.get("gate_scope"))
        return scope, atoms.get("gate_result")[0][0]

    assert gate() == (["a", "b", "c"], "fail")
    assert gate(task="t") == (["a", "b"], "fail")
    assert gate(before="rel") == (["c"], "fail")
    assert gate(task="u") == ([], "pass")
    plain = resolve(history, point).atoms
    assert plain.get("gate_result") == [] and plain.get("explained") == []


def test_gate_asks_for_the_key_reason_of_what_it_reports():  # explained/1 in gate.lp
    history = prepare_text("""
expectation open { opened 2024-07-01 want k = "v" search commits }
expectation gapped { opened 2024-07-01 want j = "w" search other }
event a { channel other seq 1 at 2024-07-02 }
event b { channel other seq 3 at 2024-07-04 }
""")
    atoms = resolve(history, api.standpoint("2024-07-05"), gate_facts(history, None, None)).atoms
    reasons = {history.facts.item_id(x): code for x, code, _ in atoms.get("key_reason")}
    assert reasons == {"open": "no_candidate", "gapped": "gap"}
