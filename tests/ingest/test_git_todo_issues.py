"""TODO(#N) ties a TODO to issue N: the opening commit reports N pending, closing N while the
TODO stays is a finding, removing it is evidence (issue 30 item 2, docs/guide/ingest.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.ingest.todo_text import comment_text, issue_reference

DECLARATIONS = """
channel commits work
policy todo-removed {
  title "Resolve the TODO in $1"
  when set todo.* = "open"
  want $key = "removed"
  superseded_when $key = "file_deleted"
}
expectation issue-12 { title "Crash on an empty grammar" opened 2023-12-01 }
expectation issue-14 { title "Wrong line numbers in errors" opened 2023-12-01 }
"""


def _day(day: int) -> str:
    return f"2024-01-{day:02d}T10:00:00+00:00"


@pytest.mark.parametrize(
    ("line", "number"),
    [
        ("# TODO(#12): guard the empty grammar", 12),
        ("// FIXME(GH-7) wrong offset", 7),
        ("/* XXX(lark-parser/lark#301): slow */", 301),
        ("# TODO(alice): guard it, see #12", None),  # an owner, and a mention later
        ("# TODO: #12 later", None),
        ("# TODO(#0) nothing", None),
    ],
)
def test_the_tag_names_the_issue(line: str, number: int | None) -> None:
    text = comment_text(line)
    assert text is not None and issue_reference(text) == number


def ingest(repo, tmp_path: Path) -> tuple[Path, dict[str, dict]]:
    folder = tmp_path / "history"
    folder.mkdir(exist_ok=True)
    (folder / "issues.ol").write_text(DECLARATIONS, encoding="utf-8")
    out = folder / "commits.jsonl"
    assert main(["ingest", "git", str(repo.path), "--todos", "-o", str(out)]) == 0
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return folder, {e["id"]: e for e in events}


def findings(folder: Path, capsys, *standpoint: str) -> tuple[set[tuple[str, str, str]], dict]:
    capsys.readouterr()
    assert main(["status", str(folder), *standpoint, "--all", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    found = {(f["kind"], f["event"], f["target"]) for f in result["findings"]}
    return found, {e["id"]: e for e in result["expectations"]}


def ident(full: str) -> str:
    return f"commit-{full[:12]}"


def test_closing_an_issue_while_its_todo_stays_is_a_finding(git_repo, tmp_path, capsys) -> None:
    git_repo.commit("Initial", {"a.py": "a = 1\n"}, date=_day(1))
    add = git_repo.commit(
        "Stub the grammar check",
        {"a.py": "# TODO(#12): guard the empty grammar\n# TODO: tidy\na = 1\n"},
        date=_day(2),
    )
    close = git_repo.commit("Handle empty input\n\nFixes #12", {"b.py": "b = 1\n"}, date=_day(3))
    folder, events = ingest(git_repo, tmp_path)
    assert events[ident(add)]["reports_pending"] == ["issue-12"]
    assert events[ident(close)]["completes"] == ["issue-12"]
    found, verdicts = findings(folder, capsys)
    assert verdicts["issue-12"]["status"] == "SATISFIED"
    assert ("CLOSED_WITH_TODO", ident(add), "issue-12") in found
    before, _ = findings(folder, capsys, "--at", "2024-01-02T12:00")
    assert not before  # the TODO is the open issue's pending work, not a finding yet
    capsys.readouterr()
    main(["check", str(folder), "--format", "sarif"])
    rules = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]["rules"]
    described = {r["id"]: r["shortDescription"]["text"] for r in rules}
    assert "TODO comment naming it stays" in described["closed_with_todo"]


def test_removing_the_todo_then_closing_is_clean(git_repo, tmp_path, capsys) -> None:
    git_repo.commit("Initial", {"a.py": "a = 1\n"}, date=_day(1))
    git_repo.commit("Stub", {"a.py": "# TODO(#12): guard the empty grammar\na = 1\n"}, date=_day(2))
    removal = git_repo.commit("Tidy a.py", {"a.py": "a = 2\n"}, date=_day(3))
    git_repo.commit("Release notes\n\nCloses #12", {"NEWS": "fixed\n"}, date=_day(4))
    folder, events = ingest(git_repo, tmp_path)
    assert "reports_pending" not in events[ident(removal)]
    found, verdicts = findings(folder, capsys)
    assert not found
    todo = next(v for k, v in verdicts.items() if k.startswith("todo-removed/"))
    assert (todo["status"], todo["closed_by"]) == ("SATISFIED", ident(removal))
    # the removal alone is evidence, not a close of the issue
    _, then = findings(folder, capsys, "--at", "2024-01-03T12:00")
    assert then["issue-12"]["status"] == "OPEN"


def test_a_todo_naming_a_closed_issue_is_a_false_pending(git_repo, tmp_path, capsys) -> None:
    git_repo.commit("Initial\n\nFixes #14", {"a.py": "a = 1\n"}, date=_day(1))
    late = git_repo.commit("Note", {"a.py": "# FIXME(GH-14) line numbers\na = 1\n"}, date=_day(5))
    folder, events = ingest(git_repo, tmp_path)
    assert events[ident(late)]["reports_pending"] == ["issue-14"]
    found, _ = findings(folder, capsys)
    assert found == {("FALSE_PENDING", ident(late), "issue-14")}
