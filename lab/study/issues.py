"""Ground truth for issues, read from commit messages and ancestry alone (never openloop's).

* **Closing keywords**, as GitHub documents them ("Linking a pull request to an issue using a
  keyword"; "Autolinked references and URLs"): ``close``, ``closes``, ``closed``, ``fix``,
  ``fixes``, ``fixed``, ``resolve``, ``resolves``, ``resolved`` in any case, an optional colon,
  then one reference: ``#N``, ``GH-N``, ``OWNER/REPO#N`` or ``https://github.com/OWNER/REPO/
  issues/N`` (``www.`` and angle brackets allowed). A revert's quoted subject (a line starting
  ``Revert "`` or ``Reapply "``, bulleted or not) repeats what the reverted commit said, so
  nothing inside its quotes counts.
* **Reverts.** A commit whose message says ``This reverts commit HASH.`` undoes that commit: what
  it closed is reopened, what it reopened is closed again (a revert of a revert).
* **The universe**: every issue some commit reachable from HEAD closes. It is owed from one
  second before the earliest author time of such a commit (the starter's ``opened``).
* At a standpoint S: not yet owed before that time; otherwise **closed** when the last of its
  closing and reopening commits reachable from S (in topological order) closes it, else
  **open**. Where two such commits are not ordered by ancestry, the order is a choice; those
  issues are listed in :attr:`IssueTruth.unordered`.
"""

from __future__ import annotations

import bisect
import itertools
import re
import subprocess
from dataclasses import dataclass, field

from lab.study.truth import GitTruth

__all__ = ["IssueTruth", "closing_numbers"]

_KEYWORD = r"(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)"
_OWNER_REPO = r"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+"
_URL = rf"<?https?://(?:www\.)?github\.com/{_OWNER_REPO}/issues/(\d+)>?"
_REF = rf"(?:(?:{_OWNER_REPO})?#(\d+)|GH-(\d+)|{_URL})"
_CLOSING = re.compile(rf"{_KEYWORD}(?::[ \t]*|[ \t]+){_REF}(?![\w/-])", re.IGNORECASE)
_QUOTED = re.compile(r'^(\s*(?:[*-]\s+)?(?:Revert|Reapply) )".*$', re.MULTILINE)
_REVERTS = re.compile(r"This reverts commit ([0-9a-f]{7,40})")


def closing_numbers(message: str) -> list[int]:
    """The issue numbers a commit message closes by keyword (quoted revert subjects masked)."""
    masked = _QUOTED.sub(r"\1", message)
    out = []
    for match in _CLOSING.finditer(masked):
        number = int(next(g for g in match.groups() if g is not None))
        if number > 0 and number not in out:
            out.append(number)
    return out


@dataclass
class IssueTruth:
    """Each commit's effects on issues and each issue's opening time."""

    effects: dict[str, dict[int, str]] = field(default_factory=dict)  # hash -> N -> close|reopen
    opened: dict[int, int] = field(default_factory=dict)  # N -> owed from (epoch seconds)
    unordered: set[int] = field(default_factory=set)

    @classmethod
    def read(cls, truth: GitTruth) -> IssueTruth:
        """Read every message reachable from HEAD."""
        commits = truth.commits
        known = sorted(commits)
        own = {h: {n: "close" for n in closing_numbers(c[3])} for h, c in commits.items()}
        reverted = {}
        for commit, (_, _, _, message) in commits.items():
            found = _REVERTS.search(message)
            if found:
                targets = [h for h in _prefixed(known, found.group(1)) if h != commit]
                if len(targets) == 1:
                    reverted[commit] = targets[0]
        out = cls()

        def effect(commit: str, depth: int = 0) -> dict[int, str]:
            if commit not in reverted or depth > 50:
                return own[commit]
            undone = effect(reverted[commit], depth + 1)
            flipped = {n: ("reopen" if e == "close" else "close") for n, e in undone.items()}
            return {**own[commit], **flipped}

        for commit in truth.order:
            found = effect(commit)
            if found:
                out.effects[commit] = found
                for number, kind in found.items():
                    if kind == "close":
                        at = commits[commit][0] - 1
                        out.opened[number] = min(out.opened.get(number, at), at)
        out.unordered = out._unordered(truth)
        return out

    def _unordered(self, truth: GitTruth) -> set[int]:
        """Issues with a close and a reopen that ancestry does not put in one order."""
        by_issue: dict[int, list[tuple[str, str]]] = {}
        for commit in truth.order:
            for number, kind in self.effects.get(commit, {}).items():
                by_issue.setdefault(number, []).append((commit, kind))
        out = set()
        for number, found in by_issue.items():
            if len({kind for _, kind in found}) < 2:
                continue
            for (older, _), (newer, _) in itertools.pairwise(found):
                asked = ["git", "-C", truth.repo, "merge-base", "--is-ancestor", older, newer]
                if subprocess.run(asked, capture_output=True).returncode != 0:
                    out.add(number)
        return out

    def state(self, number: int, time: int, reach: frozenset[str], order: list[str]) -> str:
        """``absent``, ``open`` or ``closed`` at a standpoint (its time and reachable set)."""
        if self.opened.get(number, time + 1) > time:
            return "absent"
        last = "open"
        for commit in order:
            kind = self.effects.get(commit, {}).get(number)
            if kind is not None and commit in reach:
                last = "closed" if kind == "close" else "open"
        return last


def _prefixed(known: list[str], prefix: str) -> list[str]:
    """The hashes (sorted ``known``) that start with ``prefix``."""
    start = bisect.bisect_left(known, prefix)
    out = []
    while start < len(known) and known[start].startswith(prefix):
        out.append(known[start])
        start += 1
    return out
