"""The accuracy study: openloop's verdicts on a real git history against what git itself shows.

A user's route, end to end: clone the repository into a temporary folder, ``openloop ingest git
--todos`` it (the real command, in a subprocess), add one policy for TODO debt and one expectation
for every issue a commit references, and judge at three standpoints with default clauses. The
ground truth comes from :mod:`resolver.bench.study_truth` (git alone). Every (expectation,
standpoint) pair is compared; the result lists per-family accuracy, the confusion matrix and each
disagreement with the event that closed it, and :mod:`resolver.bench.study_report` writes it up.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from resolver import api, times
from resolver.bench.study_truth import GitTruth, IssueReference, StudyPoint, TodoAddition
from resolver.verdicts.resolution import ExpectationVerdict

__all__ = ["POLICY", "Pair", "StudyResult", "run_study"]

#: The TODO-debt policy of SPEC §6.1, with default clauses (``verify`` left at ``semantic``).
POLICY_ID = "todo-debt"
POLICY = f"""\
policy {POLICY_ID} {{
  title "Resolve the TODO in $1"
  when set todo.* = "open"
  want $key = "removed"
  superseded_when $key = "file_deleted"
}}
"""

#: What each openloop status says about a TODO comment / an issue.
_TODO_WORD = {"OPEN": "open", "UNKNOWN": "open", "SATISFIED": "removed"}
_TODO_WORD["SUPERSEDED"] = "file_deleted"
_CLOSED = {"SATISFIED", "SUPERSEDED", "CANCELLED", "WAIVED"}


@dataclass(frozen=True)
class Pair:
    """One (expectation, standpoint) comparison."""

    family: str  # "todo" or "issue"
    id: str
    standpoint: str
    truth: str  # todo: open|removed|file_deleted|absent; issue: open|closed|absent
    verdict: str  # the same words, read from openloop's status (or "absent")
    closed_by: str | None = None
    tier: str | None = None
    closer_kind: str | None = None

    @property
    def right(self) -> bool:
        """The verdict says what git says."""
        return self.truth == self.verdict


@dataclass
class StudyResult:
    """Everything the study measured."""

    commits: int
    standpoints: list[StudyPoint]
    pairs: list[Pair]
    todo_additions: int
    issues: int
    timings: dict[str, float] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)

    def family(self, name: str) -> list[Pair]:
        """The pairs of one family."""
        return [p for p in self.pairs if p.family == name]

    def accuracy(self, name: str) -> float:
        """Share of a family's pairs where openloop agrees with git."""
        pairs = self.family(name)
        return sum(p.right for p in pairs) / len(pairs) if pairs else 1.0

    def confusion(self, name: str) -> Counter[tuple[str, str]]:
        """(truth, verdict) -> number of pairs."""
        return Counter((p.truth, p.verdict) for p in self.family(name))

    def merge_false_closes(self) -> list[Pair]:
        """Pairs closed by a merge commit while git says the item is still open."""
        return [
            p
            for p in self.pairs
            if p.truth == "open" and p.verdict != "open" and p.closer_kind == "merge"
        ]


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _event_id(commit: str) -> str:
    return f"commit-{commit[:12]}"


def declarations(truth: GitTruth, issues: list[IssueReference]) -> str:
    """The study's ``.ol`` file: the TODO policy and one expectation per referenced issue.

    An issue opens with the first commit that names it; where that commit also closes it, the
    issue already existed, so it opens one second before that commit (and the commit closes it).
    """
    lines = [POLICY]
    authored = _author_times(truth)
    for issue in issues:
        subject = f"Issue #{issue.number}"
        if issue.first_closes:
            opening = f"opened {times.format_time(authored[issue.first] - 1)}"
        else:
            opening = f"opened_by {_event_id(issue.first)}"
        lines.append(f"expectation issue-{issue.number} {{ title {_quoted(subject)} {opening} }}")
    return "\n".join(lines) + "\n"


def _author_times(truth: GitTruth) -> dict[str, int]:
    out = truth.git("log", "--format=%H %at", "HEAD").decode().split("\n")
    return {h: int(t) for h, t in (line.split() for line in out if line.strip())}


def ingest(repo: Path, log: Path) -> None:
    """``openloop ingest git REPO --todos -o LOG`` in a subprocess, as a user runs it."""
    command = [sys.executable, "-m", "resolver", "ingest", "git", str(repo), "--todos"]
    subprocess.run([*command, "-o", str(log)], check=True, capture_output=True)


def run_study(
    bundle: str | Path, sizes: bool = False, keep: str | Path | None = None
) -> StudyResult:
    """Clone ``bundle``, ingest it, judge at three standpoints and compare with git.

    With ``sizes``, also measure the outputs a maintainer would read at HEAD. With ``keep``, the
    history folder (events and declarations) is written there instead of a temporary folder.
    """
    with tempfile.TemporaryDirectory(prefix="openloop-study-") as scratch:
        repo = Path(scratch) / "repo"
        subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True)
        history = Path(keep) if keep else Path(scratch) / "history"
        history.mkdir(parents=True, exist_ok=True)
        timings: dict[str, float] = {}
        started = time.perf_counter()
        ingest(repo, history / "commits.jsonl")
        timings["ingest"] = time.perf_counter() - started
        truth = GitTruth(repo)
        issues = truth.issue_references()
        (history / "study.ol").write_text(declarations(truth, issues), encoding="utf-8")
        result = _judge(truth, issues, history, timings)
        if sizes:
            from resolver.bench.study_sizes import measure

            result.sizes = measure(history, result.standpoints[-1], result.pairs)
        return result


def _judge(
    truth: GitTruth, issues: list[IssueReference], history: Path, timings: dict[str, float]
) -> StudyResult:
    started = time.perf_counter()
    with (history / "commits.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            json.loads(line)
    timings["json_floor"] = time.perf_counter() - started
    started = time.perf_counter()
    prepared = api.prepare([history])
    timings["prepare"] = time.perf_counter() - started
    kinds = {e.id: e.kind for e in prepared.project.events}
    full = {_event_id(c): c for c in truth.order}
    additions = truth.todo_additions()
    pairs: list[Pair] = []
    standpoints = truth.standpoints()
    for point in standpoints:
        started = time.perf_counter()
        resolution = api.status(prepared, at=point.time, known=point.time, reasons=False)
        timings[f"status {point.name}"] = time.perf_counter() - started
        verdicts = {v.id: v for v in resolution.expectations}
        reach = truth.reachable(point.commit)
        tree = truth.todos_at(point.commit)
        paths = truth.paths_at(point.commit)

        def todo_truth(addition: TodoAddition, reach=reach, tree=tree, paths=paths) -> str:
            if addition.commit not in reach:
                return "absent"
            if addition.digest in tree.get(addition.path, ()):
                return "open"
            return truth.closed_as(addition, reach, paths)

        seen: set[str] = set()
        for addition in additions:
            ident = f"{POLICY_ID}/{_event_id(addition.commit)}/{addition.key}"
            seen.add(ident)
            verdict = verdicts.get(ident)
            word = _TODO_WORD.get(verdict.status, verdict.status.lower()) if verdict else "absent"
            expected = todo_truth(addition)
            if expected != "absent" or word != "absent":
                pairs.append(_pair("todo", ident, point, expected, word, verdict, kinds))
        for ident, verdict in sorted(verdicts.items()):
            if ident.startswith(f"{POLICY_ID}/") and ident not in seen:
                _, event, key = ident.split("/", 2)
                path, _, digest = key.removeprefix("todo.").rpartition(":")
                expected = todo_truth(TodoAddition(full.get(event, ""), path, digest))
                word = _TODO_WORD.get(verdict.status, verdict.status.lower())
                pairs.append(_pair("todo", ident, point, expected, word, verdict, kinds))
        for issue in issues:
            ident = f"issue-{issue.number}"
            verdict = verdicts.get(ident)
            expected = "absent"
            if issue.first in reach:
                expected = "closed" if any(c in reach for c in issue.closers) else "open"
            word = "absent"
            if verdict is not None and verdict.status != "NOT_OPENED":
                word = "closed" if verdict.status in _CLOSED else "open"
            if expected != "absent" or word != "absent":
                pairs.append(_pair("issue", ident, point, expected, word, verdict, kinds))
    return StudyResult(
        commits=len(truth.order),
        standpoints=standpoints,
        pairs=pairs,
        todo_additions=len(additions),
        issues=len(issues),
        timings=timings,
    )


def _pair(
    family: str,
    ident: str,
    point: StudyPoint,
    expected: str,
    word: str,
    verdict: ExpectationVerdict | None,
    kinds: dict[str, str | None],
) -> Pair:
    closed_by = verdict.closed_by if verdict else None
    return Pair(
        family,
        ident,
        point.name,
        expected,
        word,
        closed_by,
        verdict.tier if verdict else None,
        kinds.get(closed_by) if closed_by else None,
    )
