"""`check --format github|sarif`: annotations on the right lines, SARIF valid against 2.1.0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from resolver.cli import COMMANDS
from resolver.cli.main import main

MISSION = Path("fixtures/support-mission/base")
SARIF_SCHEMA = Path("schemas/sarif-2.1.0.json")


def _line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def _run(capsys, *args: str) -> tuple[int, str]:
    code = main(["check", *args])
    return code, capsys.readouterr().out


def test_github_annotations_point_at_the_declaration_and_the_claim(capsys, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    code, out = _run(capsys, str(MISSION), "--at", "2024-09-03T15:00", "--format", "github")
    assert code == 1
    lines = out.splitlines()
    declared = _line_of(MISSION / "mission.ol", "obligation support-88/customer-confirms")
    claimed = _line_of(MISSION / "events.jsonl", '"session-88"')
    owed = next(x for x in lines if "customer-confirms is OPEN" in x)
    assert owed.startswith(f"::error file={MISSION / 'mission.ol'},line={declared},")
    claim = next(x for x in lines if "FALSE_COMPLETION" in x)
    assert claim.startswith(f"::error file={MISSION / 'events.jsonl'},line={claimed},")
    assert lines[-1].startswith("::notice title=openloop check::FAIL: 1 outstanding")
    assert len(lines) == 3


def test_github_caps_annotations_at_ten_and_writes_the_step_summary(
    capsys, monkeypatch, tmp_path: Path
):
    source = "channel work work\n" + "".join(
        f'expectation e{n:02} {{ title "Step {n}" opened 2024-01-01 want s.{n} = "done" }}\n'
        for n in range(12)
    )
    (tmp_path / "many.ol").write_text(source, encoding="utf-8")
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out = _run(capsys, str(tmp_path), "--at", "2024-02-01", "--format", "github")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 11 and all(x.startswith("::error ") for x in lines[:10])
    assert "2 more not annotated" in lines[-1] and lines[-1].startswith("::notice ")
    assert [f"line={n + 2}," in lines[n] for n in range(10)] == [True] * 10
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# earlier step\n## openloop check failed")
    assert text.count("| error |") == 12


def test_github_escapes_percent_and_commas(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    folder = tmp_path / "a,b"
    folder.mkdir()
    (folder / "odd.ol").write_text(
        'channel work work\nexpectation odd { title "100% done, surely" opened 2024-01-01 }\n',
        encoding="utf-8",
    )
    _, out = _run(capsys, str(folder), "--at", "2024-02-01", "--format", "github")
    first = out.splitlines()[0]
    properties, message = first.split("::")[1], first.split("::", 2)[2]
    assert "a%2Cb/odd.ol,line=2," in properties  # in a property ',' is escaped too
    assert '"100%25 done, surely"' in message


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    return jsonschema.Draft4Validator(schema)


def test_sarif_is_valid_2_1_0_with_a_rule_per_reason_code(capsys, sarif_validator):
    code, out = _run(capsys, str(MISSION), "--at", "2024-09-03T15:00", "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    sarif_validator.validate(log)
    (run,) = log["runs"]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert sorted(rules) == ["false_completion", "no_candidate"]
    results = run["results"]
    assert len(results) == 2
    for result in results:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results)
    assert uris == [f"{MISSION.as_posix()}/events.jsonl", f"{MISSION.as_posix()}/mission.ol"]


def test_sarif_fingerprints_are_stable_across_standpoints(capsys, sarif_validator):
    def prints(at: str) -> dict[str, str]:
        _, out = _run(capsys, str(MISSION), "--at", at, "--format", "sarif")
        log = json.loads(out)
        sarif_validator.validate(log)
        return {
            r["properties"]["id"]: r["partialFingerprints"]["openloopItem/v1"]
            for r in log["runs"][0]["results"]
        }

    early, late = prints("2024-09-02T12:00"), prints("2024-09-03T15:00")
    shared = set(early) & set(late)
    assert shared and all(early[k] == late[k] for k in shared)
    assert len(set(early.values())) == len(early)


def test_sarif_for_a_passing_gate_still_reports_the_false_claims(capsys, sarif_validator):
    code, out = _run(capsys, str(MISSION), "--at", "2024-09-12", "--format", "sarif")
    log = json.loads(out)
    sarif_validator.validate(log)
    assert code == 0
    results = log["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == ["false_completion", "false_pending"]
    levels = {r["ruleId"]: r["level"] for r in results}
    assert levels == {"false_completion": "error", "false_pending": "warning"}


def test_the_action_and_the_pre_commit_hooks_run_real_commands():
    action = Path("action.yml").read_text(encoding="utf-8")
    assert "using: composite" in action
    assert "--format github" in action and "--format sarif" in action
    assert "${{ inputs." not in action.split("run:", 1)[1].split("env:")[0]  # no inline inputs
    hooks = Path(".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert re.findall(r"^- id: (\S+)", hooks, re.M) == ["openloop-lint", "openloop-check"]
    entries = re.findall(r"^  entry: openloop (\S+)", hooks, re.M)
    assert entries == ["lint", "check"] and set(entries) <= set(COMMANDS)


@pytest.mark.parametrize("command", ["ready", "brief", "mcp", "hook"])
def test_the_new_commands_explain_themselves(capsys, command: str):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert len(capsys.readouterr().out) > 300
