"""The whole study on a small history built here with git: the real ``openloop init`` and
``ingest git --todos`` in subprocesses, every pair compared; and a log with one TODO removal
taken out, which the study must report as a disagreement (the study can fail)."""

from __future__ import annotations

import json
import subprocess

import pytest

from lab.study.issues import IssueTruth
from lab.study.report import render
from lab.study.run import _judge, run_study
from lab.study.truth import GitTruth
from tests.lab.study.gitrepo import Repo

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
    reason="git is not installed",
)


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A branchy history: a fix merged late, a rename, a removal, a deletion, a revert."""
    base = tmp_path_factory.mktemp("small-study")
    repo = Repo(base / "repo")
    body = "".join(f"line {i} of some ordinary code\n" for i in range(20))
    repo.commit("start", {"a.py": body + "# TODO one\n"})
    repo.git("checkout", "-q", "-b", "topic")
    repo.commit("Fixes #3: the parser", {"b.py": "x = 1\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("unrelated", {"d.py": "y = 1\n"})
    repo.merge("topic")
    repo.git("mv", "a.py", "src_a.py")
    repo.commit("move it")
    repo.commit("add a FIXME", {"c.py": "# FIXME two\n"})
    repo.commit("tidy", {"src_a.py": body})
    repo.commit("drop c", {"c.py": None})
    fix = repo.commit("Fix #4 in the loader", {"e.py": "z = 1\n"})
    repo.git("revert", "--no-edit", fix)
    repo.commit("later", {"f.py": "w = 1\n"})
    bundle = base / "small.bundle"
    repo.git("bundle", "create", "-q", str(bundle), "--all")
    keep = base / "study"
    return repo, run_study(bundle, keep=keep, tenths=True), keep


def test_every_pair_agrees_on_a_small_history(history):
    _, result, _ = history
    report = render(result)
    assert result.accuracy("todo") == 1.0 and result.accuracy("issue") == 1.0, report
    assert not result.unknowns() and not result.false_closes() and not result.tree_problems
    words = {(p.id.split("/")[-1], p.standpoint): p.truth for p in result.family("todo")}
    assert {w for (key, _), w in words.items() if key.startswith("todo.a.py")} == {
        "open",
        "removed",
    }
    assert {w for (key, _), w in words.items() if key.startswith("todo.c.py")} >= {"file_deleted"}
    issues = {p.id: p.truth for p in result.family("issue") if p.standpoint == "HEAD"}
    assert issues == {"issue-3": "closed", "issue-4": "open"}  # the revert reopened #4


def test_a_missing_removal_is_a_disagreement(history):
    repo, _, keep = history
    log = keep / "history" / "commits.jsonl"
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for event in events:
        if event.get("set") and "removed" in event["set"].values():
            del event["set"]
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    truth = GitTruth(repo.path)
    result = _judge(truth, IssueTruth.read(truth), keep, {}, False)
    wrong = {(p.truth, p.verdict) for p in result.pairs if not p.right}
    assert wrong == {("removed", "open")}
