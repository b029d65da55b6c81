"""The accuracy study: openloop's verdicts on a real git history against what git itself shows.

A user's route, end to end: clone the repository into a temporary folder, ``openloop init`` it
(the starter ``.ol``: the TODO-debt policy and one expectation per issue the history closes),
``openloop ingest git --todos`` it (the real commands, in subprocesses), and judge at standpoints
along HEAD's first-parent line. The ground truth comes from :mod:`lab.study.truth` and
:mod:`lab.study.issues` (git alone). Every (expectation, standpoint) pair is compared;
the result lists per-family accuracy, the confusion matrix and each disagreement with the event
that closed it, and :mod:`lab.study.report` writes it up.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lab.study.claims import Measured, claim_rows
from lab.study.issues import IssueTruth
from lab.study.truth import GitTruth, StudyPoint, TodoKey
from resolver import api, times, vocabulary
from resolver.verdicts.resolution import ExpectationVerdict

__all__ = ["Pair", "StudyResult", "claimed_sample", "declarations", "run_study"]

#: The study's own TODO policy, used only when ``openloop init`` is not available: SPEC §6.1's.
FALLBACK_POLICY = """\
policy todo-debt {
  title "$note"
  when set todo.* = "open"
  when not kind revert
  want $key = "removed"
  superseded_when $key = "file_deleted"
}
"""

#: What each openloop status says about a TODO comment / an issue (UNKNOWN is its own word:
#: git never justifies it on these histories, so every UNKNOWN is a disagreement). A TODO's
#: other statuses (OPEN) say their own word; an issue's closed ones all say "closed".
_TODO_WORD = {"SATISFIED": "removed", "SUPERSEDED": "file_deleted"}
_CLOSED = frozenset(vocabulary.upper(vocabulary.CLOSED_STATUSES))
_FALSE_CLOSERS = ("merge", "revert")


@dataclass(frozen=True)
class Pair:
    """One (expectation, standpoint) comparison."""

    family: str  # "todo" or "issue"
    id: str
    standpoint: str
    truth: str  # todo: open|removed|file_deleted|absent; issue: open|closed|absent
    verdict: str  # the same words (or "unknown"), read from openloop's status, or "absent"
    closed_by: str | None = None
    tier: str | None = None
    closer_kind: str | None = None
    flags: tuple[str, ...] = ()

    @property
    def right(self) -> bool:
        """The verdict says what git says."""
        return self.truth == self.verdict


@dataclass
class StudyResult:
    """Everything the study measured on one history."""

    name: str
    commits: int
    first_parent: int
    standpoints: list[StudyPoint]
    pairs: list[Pair]
    todo_openings: int
    issues: int
    declarations_from: str
    tree_problems: list[str] = field(default_factory=list)
    unordered_issues: list[int] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    screen: str = ""
    history: Path | None = None
    #: Every candidate `claimed_unverified` names at HEAD, measured (for the hand labels).
    claims: Measured | None = None

    def family(self, name: str, standpoint: str | None = None) -> list[Pair]:
        """The pairs of one family (at one standpoint)."""
        return [
            p
            for p in self.pairs
            if p.family == name and (standpoint is None or p.standpoint == standpoint)
        ]

    def accuracy(self, name: str, standpoint: str | None = None) -> float:
        """Share of a family's pairs where openloop agrees with git."""
        pairs = self.family(name, standpoint)
        return sum(p.right for p in pairs) / len(pairs) if pairs else 1.0

    def confusion(self, name: str) -> Counter[tuple[str, str]]:
        """(truth, verdict) -> number of pairs."""
        return Counter((p.truth, p.verdict) for p in self.family(name))

    def unknowns(self) -> list[Pair]:
        """Pairs openloop calls UNKNOWN (git's history justifies none here)."""
        return [p for p in self.pairs if p.verdict == "unknown"]

    def false_closes(self) -> list[Pair]:
        """Pairs closed by a merge or a revert while git says the item is still open."""
        return [
            p
            for p in self.pairs
            if p.truth == "open"
            and p.verdict not in ("open", "unknown", "absent")
            and p.closer_kind in _FALSE_CLOSERS
        ]


def claimed_sample(result: StudyResult, most: int = 40, seed: int = 27) -> tuple[int, list[str]]:
    """How many items ``claimed_unverified`` marks at HEAD, and a sample of up to ``most`` of
    them (fixed seed) for labelling by hand (``docs/design/accuracy.md``)."""
    flagged = sorted(
        {p.id for p in result.pairs if p.standpoint == "HEAD" and "claimed_unverified" in p.flags}
    )
    return len(flagged), sorted(random.Random(seed).sample(flagged, min(most, len(flagged))))


def _event_id(commit: str) -> str:
    return f"commit-{commit[:12]}"


def declarations(issues: IssueTruth) -> str:
    """The study's own ``.ol`` (when ``openloop init`` is not there): the TODO policy and one
    expectation per issue a commit closes, owed from one second before that commit."""
    lines = [FALLBACK_POLICY]
    for number in sorted(issues.opened):
        opened = times.format_time(issues.opened[number])
        lines.append(f'expectation issue-{number} {{ title "Issue #{number}" opened {opened} }}')
    return "\n".join(lines) + "\n"


def _openloop(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "resolver", *arguments]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def run_study(
    bundle: str | Path,
    sizes: bool = False,
    keep: str | Path | None = None,
    tenths: bool = True,
) -> StudyResult:
    """Clone ``bundle``, init and ingest it, judge along the first-parent line, compare with git.

    With ``sizes``, also measure the outputs a maintainer would read at HEAD. With ``keep``, the
    history folder (events and declarations) is written there instead of a temporary folder.
    """
    with tempfile.TemporaryDirectory(prefix="openloop-study-") as scratch:
        repo = Path(scratch) / "repo"
        subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True)
        folder = Path(keep) if keep else Path(scratch) / "study"
        (folder / "history").mkdir(parents=True, exist_ok=True)
        timings: dict[str, float] = {}
        truth = GitTruth(repo)
        issues = IssueTruth.read(truth)
        ol = folder / "openloop.ol"
        ol.unlink(missing_ok=True)
        made = _openloop("init", str(repo), "--ol", str(ol))
        source = "openloop init"
        if made.returncode != 0:
            ol.write_text(declarations(issues), encoding="utf-8")
            source = "the study's own (openloop init failed: " + made.stderr.strip()[-200:] + ")"
        started = time.perf_counter()
        log = str(folder / "history" / "commits.jsonl")
        done = _openloop("ingest", "git", str(repo), "--todos", "-o", log)
        if done.returncode != 0:
            raise RuntimeError(f"ingest git failed: {done.stderr.strip()[-300:]}")
        timings["ingest"] = time.perf_counter() - started
        result = _judge(truth, issues, folder, timings, tenths)
        result.name = Path(bundle).name.removesuffix(".bundle")
        result.declarations_from = source
        if sizes:
            from lab.study.sizes import first_screen, measure

            result.sizes = measure(folder, result.standpoints[-1])
            result.screen, result.sizes["status_lines_now"] = first_screen(folder)
        return result


def _policy(text: str) -> tuple[str, bool]:
    """The TODO policy's id in the declarations, and whether reverts open nothing."""
    found = re.search(r"policy\s+(\S+)\s*\{([^}]*set todo\.\*[^}]*)\}", text)
    if not found:
        raise RuntimeError("the declarations hold no TODO policy (`when set todo.* = ...`)")
    return found.group(1), bool(re.search(r"when\s+not\s+kind\s+revert", found.group(2)))


def _judge(
    truth: GitTruth, issues: IssueTruth, folder: Path, timings: dict[str, float], tenths: bool
) -> StudyResult:
    policy, skips_reverts = _policy((folder / "openloop.ol").read_text(encoding="utf-8"))
    started = time.perf_counter()
    prepared = api.prepare([folder])
    timings["prepare"] = time.perf_counter() - started
    kinds = {e.id: e.kind for e in prepared.project.events}
    walk = truth.walk
    openings = [o for o in walk.openings if not skips_reverts or not truth.is_revert(o.commit)]
    full = {_event_id(c): truth.line.index(c) for c in {o.commit for o in walk.openings}}
    pairs: list[Pair] = []
    standpoints = truth.standpoints(tenths, _windows(truth, issues) if tenths else None)
    problems: list[str] = []
    for point in standpoints:
        started = time.perf_counter()
        resolution = api.status(prepared, at=point.time, known=point.time, reasons=False)
        timings[f"status {point.name}"] = time.perf_counter() - started
        verdicts = {v.id: v for v in resolution.expectations}
        problems += [f"{point.name}: {p}" for p in truth.check_tree(point)]
        seen: set[str] = set()
        for opening in openings:
            ident = f"{policy}/{_event_id(opening.commit)}/{opening.key.key}"
            seen.add(ident)
            expected = "absent"
            if opening.index <= point.index:
                expected = walk.state(opening.key, point.index)
            pairs.append(_pair("todo", ident, point, expected, verdicts.get(ident), kinds))
        for ident, verdict in sorted(verdicts.items()):
            if ident.startswith(f"{policy}/") and ident not in seen:
                _, event, key = ident.split("/", 2)
                path, _, digest = key.removeprefix("todo.").rpartition(":")
                index = full.get(event, len(truth.line))
                expected = "absent"
                if index <= point.index:
                    expected = walk.state(TodoKey(path, digest), point.index)
                pairs.append(_pair("todo", ident, point, expected, verdict, kinds))
        reach = truth.reachable(point.commit)
        for number in sorted(issues.opened):
            ident = f"issue-{number}"
            expected = issues.state(number, point.time, reach, truth.order)
            pairs.append(_pair("issue", ident, point, expected, verdicts.get(ident), kinds))
    pairs = [p for p in pairs if p.truth != "absent" or p.verdict != "absent"]
    head = next(p for p in standpoints if p.name == "HEAD")
    return StudyResult(
        name="",
        commits=len(truth.order),
        first_parent=len(truth.line),
        standpoints=standpoints,
        pairs=pairs,
        todo_openings=len(openings),
        issues=len(issues.opened),
        declarations_from="",
        tree_problems=problems,
        unordered_issues=sorted(issues.unordered),
        timings=timings,
        history=None,
        claims=claim_rows(prepared, head.time),
    )


def _windows(truth: GitTruth, issues: IssueTruth, most: int = 40) -> dict[int, str]:
    """More standpoints where an answer can go wrong (up to ``most`` of each kind, fixed seed):
    just before and at each first-parent commit that changes a TODO key, and, for each issue
    whose fix reached main through a merge after the issue was owed, the first-parent commit
    before that merge (owed, the fix not yet known: open) and the merge itself."""
    todo: set[int] = set()
    for changes in truth.walk.changes.values():
        for index, _ in changes:
            todo.update(i for i in (index - 1, index) if i >= 0)
    window: set[int] = set()
    for number, owed in issues.opened.items():
        for commit, found in issues.effects.items():
            learned = truth.learned[commit]
            closes = found.get(number) == "close" and learned > 0
            if closes and truth.commits[truth.line[learned - 1]][1] >= owed:
                window.update((learned - 1, learned))
    pick = random.Random(27)
    out = {i: f"TODO change @{i}" for i in sorted(pick.sample(sorted(todo), min(most, len(todo))))}
    chosen = pick.sample(sorted(window), min(most, len(window)))
    out.update({i: f"issue window @{i}" for i in sorted(chosen) if i not in out})
    return out


def _word(family: str, verdict: ExpectationVerdict | None) -> str:
    if verdict is None or verdict.status == "NOT_OPENED":
        return "absent"
    if verdict.status == "UNKNOWN":
        return "unknown"
    if family == "todo":
        return _TODO_WORD.get(verdict.status, verdict.status.lower())
    return "closed" if verdict.status in _CLOSED else verdict.status.lower()


def _pair(
    family: str,
    ident: str,
    point: StudyPoint,
    expected: str,
    verdict: ExpectationVerdict | None,
    kinds: dict[str, str | None],
) -> Pair:
    closed_by = verdict.closed_by if verdict else None
    return Pair(
        family,
        ident,
        point.name,
        expected,
        _word(family, verdict),
        closed_by,
        verdict.tier if verdict else None,
        kinds.get(closed_by) if closed_by else None,
        tuple(verdict.flags) if verdict else (),
    )


def json_summary(result: StudyResult) -> str:
    """A one-line JSON summary (for logs)."""
    return json.dumps(
        {
            "history": result.name,
            "todo": round(result.accuracy("todo"), 4),
            "issue": round(result.accuracy("issue"), 4),
            "unknown": len(result.unknowns()),
            "false_closes": len(result.false_closes()),
        }
    )
