"""``openloop init``: a first run on a real repository shows something true (issue 27.4).

``init``, ``ingest git --todos`` and ``status`` on a repository built with git give its TODO
debt and its issues with nothing written by hand; the starter is written whole, never over an
existing file without ``--force``, never over a link's target by surprise.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from resolver.cli.main import main
from tests.ingest.conftest import GitRepo

LATEST = ("--at", "2030-01-01", "--known", "latest")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = GitRepo(tmp_path / "repo")
    repo.commit(
        "Add the exporter",
        {"src/export.py": "def export():\n    # TODO retry when the pool is exhausted\n    pass\n"},
        date="2024-01-01T10:00:00+00:00",
    )
    repo.commit(
        "Bump a dependency",
        {"requirements.txt": "lark==1.2\n"},
        author="dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>",
        date="2024-01-02T10:00:00+00:00",
    )
    repo.commit(
        "Handle empty names\n\nFixes #12",
        {"src/names.py": "NAMES = []\n"},
        date="2024-01-03T10:00:00+00:00",
    )
    repo.commit("Unrelated, see #40", {"README": "hi\n"}, date="2024-01-04T10:00:00+00:00")
    return repo


def init(capsys, where: Path, *args: str) -> tuple[int, str, str]:
    cwd = os.getcwd()
    os.chdir(where)
    try:
        code = main(["init", *args])
    finally:
        os.chdir(cwd)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_init_writes_a_starter_and_says_what_to_run_next(repo, tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    code, out, _ = init(capsys, work, str(repo.path))
    assert code == 0
    text = (work / "openloop.ol").read_text(encoding="utf-8")
    assert "channel commits work authoritative" in text
    assert 'actor "*[bot]@users.noreply.github.com" agent' in text
    assert 'title "$note"' in text and 'when set todo.* = "open"' in text
    # Closed by keyword: owed from one second before the fix; a mere mention is not an issue.
    assert 'expectation issue-12 { title "Issue #12"  opened 2024-01-03T09:59:59Z }' in text
    assert "issue-40" not in text
    assert out.startswith("wrote openloop.ol:")
    assert f"openloop ingest git {repo.path} --todos -o history/commits.jsonl" in out
    assert "openloop status openloop.ol history/" in out
    assert (work / "history").is_dir()


def test_init_ingest_status_shows_the_todo_debt_with_nothing_written_by_hand(
    repo, tmp_path, capsys
):
    work = tmp_path / "work"
    work.mkdir()
    assert init(capsys, work, str(repo.path))[0] == 0
    log = work / "history" / "commits.jsonl"
    assert main(["ingest", "git", str(repo.path), "--todos", "-o", str(log)]) == 0
    capsys.readouterr()
    assert main(["status", str(work / "openloop.ol"), str(work / "history"), *LATEST]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "1 outstanding; 2 expectations: 1 OPEN, 1 SATISFIED"
    row = next(line for line in lines if line.startswith("OPEN "))
    assert "todo-removed/" in row and "retry when the pool is exhausted" in row
    assert main(["check", str(work / "openloop.ol"), str(work / "history"), *LATEST]) == 1


def test_a_revert_of_the_fix_makes_the_issue_owed_again(repo, tmp_path, capsys):
    fix = repo.git("rev-parse", "HEAD~1")
    repo.revert(fix, "2024-01-05T10:00:00+00:00")
    work = tmp_path / "work"
    work.mkdir()
    assert init(capsys, work, str(repo.path))[0] == 0
    log = work / "history" / "commits.jsonl"
    assert main(["ingest", "git", str(repo.path), "-o", str(log)]) == 0
    capsys.readouterr()
    path = [str(work / "openloop.ol"), str(work / "history")]
    assert main(["status", *path, *LATEST, "--format", "json"]) == 0
    issue = next(
        x for x in json.loads(capsys.readouterr().out)["expectations"] if x["id"] == "issue-12"
    )
    assert issue["status"] == "OPEN" and "reopened" in issue["flags"]


def test_init_never_replaces_an_existing_file_without_force(repo, tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    (work / "openloop.ol").write_text("# mine\n", encoding="utf-8")
    code, out, err = init(capsys, work, str(repo.path))
    assert code == 2 and out == ""
    assert err.strip() == "openloop.ol: error: already exists; --force replaces it"
    assert (work / "openloop.ol").read_text(encoding="utf-8") == "# mine\n"
    code, _, _ = init(capsys, work, str(repo.path), "--force")
    assert code == 0 and "channel commits" in (work / "openloop.ol").read_text(encoding="utf-8")


def test_init_refuses_a_dangling_symlink_without_force(repo, tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    (work / "openloop.ol").symlink_to(tmp_path / "elsewhere.ol")
    code, _, err = init(capsys, work, str(repo.path))
    assert code == 2 and "already exists" in err
    assert not (tmp_path / "elsewhere.ol").exists()


def test_init_with_ol_in_a_missing_folder_writes_nothing(repo, tmp_path, capsys):
    code, _, err = init(capsys, tmp_path, str(repo.path), "--ol", "nodir/start.ol")
    assert code == 2 and "no such folder" in err
    assert not (tmp_path / "nodir").exists() and not (tmp_path / "history").exists()


def test_init_outside_a_repository_is_bad_input(tmp_path, capsys):
    code, _, err = init(capsys, tmp_path, str(tmp_path))
    assert code == 2 and "not a git repository" in err
    assert not (tmp_path / "openloop.ol").exists()


def test_init_with_a_github_export_takes_the_issues_from_it(repo, tmp_path, capsys):
    export = tmp_path / "issues.json"
    issue = {
        "author": {"login": "alice"},
        "body": "",
        "closedAt": None,
        "createdAt": "2023-12-30T08:00:00Z",
        "labels": [],
        "number": 12,
        "state": "OPEN",
        "stateReason": None,
        "title": "Empty names crash the exporter",
        "url": "https://github.com/example/repo/issues/12",
    }
    export.write_text(json.dumps([issue]), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    code, out, _ = init(capsys, work, str(repo.path), "--github", str(export))
    assert code == 0
    text = (work / "openloop.ol").read_text(encoding="utf-8")
    assert "expectation issue-12 {" in text and "opened_by issue-12-opened" in text
    assert '"Empty names crash the exporter"' in text
    assert "channel issues work authoritative" in text
    assert f"openloop ingest github {export} -o history/issues.jsonl" in out
