"""The study's ground truth, read from git alone, on small repositories built here with git."""

from __future__ import annotations

import subprocess

import pytest

from lab.study.issues import IssueTruth, closing_numbers
from lab.study.truth import GitTruth, comment_digest
from tests.lab.study.gitrepo import Repo

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
    reason="git is not installed",
)


ONE, TWO = comment_digest("# TODO one"), comment_digest("# FIXME two")


def _states(truth: GitTruth) -> dict[str, list[tuple[int, str]]]:
    return {key.key: changes for key, changes in truth.walk.changes.items()}


def _no_tree_problems(truth: GitTruth) -> None:
    for index, commit in enumerate(truth.line):
        point = truth.standpoints()[-1].__class__("x", commit, 0, index)
        assert truth.check_tree(point) == [], commit


def test_comment_digest_needs_a_comment_leader():
    assert comment_digest("x = 1  # TODO   tidy  up */") == comment_digest("// TODO tidy up")
    assert comment_digest('print("TODO later")') is None
    assert comment_digest("  * FIXME: this") is not None
    assert comment_digest("# todo lower case") is None


def test_two_branches_one_todo_and_a_merge_that_removes(tmp_path):
    repo = Repo(tmp_path / "r")
    repo.commit("start", {"a.py": "x = 1\n"})
    repo.git("checkout", "-q", "-b", "one")
    repo.commit("one adds", {"a.py": "x = 1\n# TODO one\n"})
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "two")
    repo.commit("two adds", {"a.py": "x = 1\n# TODO one\n"})
    repo.commit("two adds and removes a FIXME", {"b.py": "# FIXME two\n"})
    repo.commit("gone again", {"b.py": None})
    repo.git("checkout", "-q", "main")
    first = repo.merge("one")
    repo.merge("two")
    repo.git("checkout", "-q", "-b", "fix")
    repo.commit("resolve it", {"a.py": "x = 2\n"})
    repo.git("checkout", "-q", "main")
    last = repo.merge("fix")
    truth = GitTruth(repo.path)
    # one opening, by the first merge; the branch's own commits and the FIXME never were on main
    assert [(o.commit, o.key.key) for o in truth.walk.openings] == [(first, f"todo.a.py:{ONE}")]
    assert _states(truth) == {f"todo.a.py:{ONE}": [(1, "open"), (3, "removed")]}
    assert truth.line[3] == last and truth.learned[first] == 1
    _no_tree_problems(truth)


def test_renames_carry_the_key_copies_count_and_reverts_open_nothing(tmp_path):
    repo = Repo(tmp_path / "r")
    body = "".join(f"line {i} of some ordinary code\n" for i in range(20))
    repo.commit("start", {"a.py": body + "# TODO one\n# TODO one\n"})
    repo.git("mv", "a.py", "b.py")
    repo.commit("move it")
    repo.commit("one copy less", {"b.py": body + "# TODO one\n"})
    remove = repo.commit("the last copy", {"b.py": body})
    repo.git("revert", "--no-edit", remove)
    repo.commit("add a FIXME", {"c.py": "# FIXME two\n"})
    repo.commit("delete its file", {"c.py": None})
    truth = GitTruth(repo.path)
    keys = [o.key.key for o in truth.walk.openings if not truth.is_revert(o.commit)]
    assert keys == [f"todo.a.py:{ONE}", f"todo.c.py:{TWO}"]  # the two copies share one key
    assert _states(truth)[f"todo.a.py:{ONE}"] == [(0, "open"), (3, "removed"), (4, "open")]
    assert _states(truth)[f"todo.c.py:{TWO}"] == [(5, "open"), (6, "file_deleted")]
    assert truth.walk.where[next(k for k in truth.walk.changes if k.path == "a.py")] == {"b.py"}
    _no_tree_problems(truth)


def test_standpoints_on_the_first_parent_line(tmp_path):
    repo = Repo(tmp_path / "r")
    for i in range(9):
        repo.commit(f"c{i}")
    points = GitTruth(repo.path).standpoints()
    assert [(p.name, p.index) for p in points] == [("a third", 3), ("two thirds", 6), ("HEAD", 8)]
    tenths = GitTruth(repo.path).standpoints(tenths=True)
    assert [p.index for p in tenths] == list(range(9)) and tenths[3].name == "a third"


@pytest.mark.parametrize(
    ("message", "numbers"),
    [
        ("Fixes #1", [1]),
        ("closes: GH-2 and Resolved owner/repo#3", [2, 3]),
        (
            "fix https://github.com/o/r/issues/4, fixed <https://www.github.com/o/r/issues/5>",
            [4, 5],
        ),
        ("fix https://github.com/o/r/pull/6", []),
        ("fixes #7abc, prefix-fixes #8, fixing #9, fixes#10", []),
        ('Revert "Fix #11"\n\nThis reverts commit 0123456789abcdef.', []),
        ('Merge pull request #20 from a/b\n\n* Revert "Fix #12"\n* Fix #13', [13]),
        ('Revert "Revert "Closes #14""', []),
    ],
)
def test_closing_keywords_as_github_documents_them(message, numbers):
    assert closing_numbers(message) == numbers


def test_a_revert_reopens_and_a_fix_on_a_branch_closes_when_merged(tmp_path):
    repo = Repo(tmp_path / "r")
    repo.commit("start")
    fix = repo.commit("Fix #5: tidy", {"a.py": "x = 1\n"})
    repo.git("revert", "--no-edit", fix)
    revert = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "topic")
    branch_fix = repo.commit("Closes #6")
    repo.git("checkout", "-q", "main")
    repo.commit("unrelated")
    repo.merge("topic")
    repo.git("revert", "--no-edit", revert)
    again = repo.git("rev-parse", "HEAD")
    truth = GitTruth(repo.path)
    issues = IssueTruth.read(truth)
    assert issues.effects[revert] == {5: "reopen"} and issues.effects[again] == {5: "close"}
    assert issues.opened[5] == truth.commits[fix][0] - 1
    assert issues.opened[6] == truth.commits[branch_fix][0] - 1
    assert issues.unordered == set()

    def state(number: int, index: int) -> str:
        commit = truth.line[index]
        time = truth.commits[commit][1]
        return issues.state(number, time, truth.reachable(commit), truth.order)

    # the line: start, fix, revert, unrelated, merge, revert of the revert
    assert [state(5, i) for i in range(6)] == ["absent", "closed", "open", "open", "open", "closed"]
    assert [state(6, i) for i in range(3, 6)] == ["open", "closed", "closed"]
    assert truth.learned[branch_fix] == 4
