"""Ingested history judged end to end: the TODO lifecycle, trailers, keywords, false completion."""

from __future__ import annotations

import json
from pathlib import Path

from ingest_history import build, h

from resolver.cli.main import main

POLICIES = """
channel commits work
actor bot@agents.example agent

policy todo-removed {
  title "Resolve the TODO in $1"
  when set todo.* = "open"
  want $key = "removed"
  superseded_when $key = "file_deleted"
}

expectation intent-1 { title "Make module a robust" opened 2023-12-01 }
expectation issue-12 { title "Crash on bad input" opened 2023-12-01 }

task task-x {
  title "Ship it"
  opened 2023-12-01
  obligation guide { title "Write the user guide" want docs.guide = "written" }
}
"""


def status(folder: Path, capsys, *standpoint: str) -> dict:
    capsys.readouterr()
    assert main(["status", str(folder), *standpoint, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def ingested(git_repo, tmp_path: Path, extra: str = "") -> tuple[dict[str, str], Path]:
    """The shared history ingested with --todos next to the policies; (commit ids, folder)."""
    c = build(git_repo)
    folder = tmp_path / "history"
    folder.mkdir()
    (folder / "policies.ol").write_text(POLICIES + extra, encoding="utf-8")
    out = folder / "commits.jsonl"
    assert main(["ingest", "git", str(git_repo.path), "--todos", "-o", str(out)]) == 0
    return {name: f"commit-{full[:12]}" for name, full in c.items()}, folder


def test_todo_lifecycle_verdicts(git_repo, tmp_path, capsys) -> None:
    ident, folder = ingested(git_repo, tmp_path)
    result = status(folder, capsys, "--at", "2024-02-01", "--known", "latest")
    verdicts = {e["id"]: e for e in result["expectations"]}

    def instance(commit: str, key: str) -> dict:
        return verdicts[f"todo-removed/{ident[commit]}/todo.{key}"]

    logging = instance("start", f"src/a.py:{h('TODO: add logging')}")
    assert (logging["status"], logging["closed_by"], logging["tier"]) == (
        "SATISFIED", ident["logging"], "state",
    )  # fmt: skip
    errors = instance("start", f"src/a.py:{h('TODO: handle errors')}")
    assert errors["status"] == "OPEN"  # removed, then the revert brought it back
    assert "reopened" in errors["flags"]
    assert instance("revert", f"src/a.py:{h('TODO: handle errors')}")["status"] == "OPEN"
    hack = instance("hack", f"old.py:{h('HACK: temporary')}")
    assert (hack["status"], hack["closed_by"]) == ("SUPERSEDED", ident["delete"])
    # written and renamed on the branch: main learns of it at the merge, in its merged place
    assert instance("merge", f"lib/c.py:{h('FIXME: later')}")["status"] == "OPEN"
    assert not any("lib/b.py" in name for name in verdicts)


def test_trailers_keywords_and_false_completion(git_repo, tmp_path, capsys) -> None:
    ident, folder = ingested(git_repo, tmp_path)
    before_revert = status(folder, capsys, "--at", "2024-01-09T12:00")
    closed = {e["id"]: e for e in before_revert["expectations"]}
    for name in ("intent-1", "issue-12"):  # a trailer and a closing keyword: explicit markers
        assert (closed[name]["status"], closed[name]["closed_by"], closed[name]["tier"]) == (
            "SATISFIED", ident["errors"], "explicit",
        )  # fmt: skip
    result = status(folder, capsys, "--at", "2024-02-01", "--known", "latest")
    verdicts = {e["id"]: e for e in result["expectations"]}
    for name in ("intent-1", "issue-12"):  # the revert of that commit reopens what it closed
        assert verdicts[name]["status"] == "OPEN"
        assert "reopened" in verdicts[name]["flags"]
    tasks = {t["id"]: t for t in result["tasks"]}
    assert tasks["task-x"]["status"] == "INCOMPLETE"
    findings = [(f["kind"], f["event"], f["by"]) for f in result["findings"]]
    assert ("FALSE_COMPLETION", ident["hack"], "bot@agents.example") in findings


def test_a_branch_is_known_to_main_only_once_merged(git_repo, tmp_path, capsys) -> None:
    extra = f"""
expectation add-b {{
  title "Move the b library"
  opened 2023-12-01
  want todo.lib/c.py:{h("FIXME: later")} = "open"
  verify state
}}
"""
    ident, folder = ingested(git_repo, tmp_path, extra)

    def verdict(*standpoint: str) -> dict:
        result = status(folder, capsys, *standpoint)
        return next(e for e in result["expectations"] if e["id"] == "add-b")

    before = verdict("--at", "2024-01-07T12:00")  # written on the branch, not yet merged
    assert before["status"] == "OPEN"
    # the branch's own commits carry no TODO sets: even known later, nothing was on main then
    assert verdict("--at", "2024-01-07T12:00", "--known", "latest")["status"] == "OPEN"
    after = verdict("--at", "2024-01-08T10:00")
    assert (after["status"], after["closed_by"]) == ("SATISFIED", ident["merge"])
