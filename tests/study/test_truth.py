"""The study's ground truth, read from git alone, on a small repository built here."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from resolver.bench.study_truth import GitTruth, comment_digest

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
    reason="git is not installed",
)


def _git(repo: Path, *args: str) -> None:
    env = {"GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z"}
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        check=True,
        capture_output=True,
        env={**env, "PATH": "/usr/bin:/bin"},
    )


def _commit(repo: Path, message: str, files: dict[str, str | None]) -> None:
    for name, content in files.items():
        path = repo / name
        if content is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--allow-empty", "-m", message)


def test_comment_digest_needs_a_comment_leader():
    assert comment_digest("x = 1  # TODO   tidy  up */") == comment_digest("// TODO tidy up")
    assert comment_digest('print("TODO later")') is None
    assert comment_digest("  * FIXME: this") is not None
    assert comment_digest("# todo lower case") is None


def test_truth_follows_the_tree(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "start", {"a.py": "x = 1  # TODO one\n", "b.py": "# HACK two\n"})
    _commit(repo, "more, see #7", {"a.py": "x = 1  # TODO one\n# TODO one\n# XXX three\n"})
    _commit(repo, "tidy: fixes #7", {"a.py": "x = 1\n# XXX three\n", "b.py": None})
    _commit(repo, "mention #9 again", {})
    truth = GitTruth(repo)
    added = [(a.path, a.digest) for a in truth.todo_additions()]
    one, two, three = comment_digest("# TODO one"), comment_digest("# HACK two"), None
    three = comment_digest("# XXX three")
    # the second copy of "TODO one" is an addition too (two equal comments share one key)
    assert sorted(added) == sorted([("a.py", one), ("b.py", two), ("a.py", one), ("a.py", three)])
    head = truth.order[-1]
    assert truth.todos_at(head) == {"a.py": {three}}
    assert "b.py" not in truth.paths_at(head)
    issues = {i.number: i for i in truth.issue_references()}
    assert set(issues) == {7, 9}
    assert issues[7].closers and not issues[7].first_closes and not issues[9].closers
    assert [p.name for p in truth.standpoints()] == ["a third", "two thirds", "HEAD"]


def test_pull_requests_are_not_issues(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "Add a thing (#12)", {"a.py": "1\n"})
    _commit(repo, "Merge pull request #13 from x/y", {})
    _commit(repo, "Refer to #14", {})
    assert [i.number for i in GitTruth(repo).issue_references()] == [14]
