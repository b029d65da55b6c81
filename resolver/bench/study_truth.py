"""Ground truth for the accuracy study, read from git alone and never from openloop's output.

The study judges openloop on a real repository; its answers are compared with what git itself
shows, computed here by a route that shares no code with the importer or the rules:

* **TODO comments.** A TODO is *added* by a non-merge commit when its tree holds more copies of the
  comment at a path than its parent's tree (file contents compared, not diffs; renames count as an
  addition at the new path). At a standpoint commit S it is **open** when S's tree still holds the
  comment at that path (``git grep`` at S); otherwise it was **removed** or **file_deleted**,
  as the last commit reachable from S that took it away left the path (still a file, or gone).
* **Issue references.** Every ``#N`` a commit message names, except numbers that git shows to be
  pull requests (``Merge pull request #N`` lines and the ``(#N)`` a squash merge appends to its
  subject) and never closed by a keyword. At S an issue is **closed** when some commit reachable
  from S carries a closing keyword for it (GitHub's rule: ``close[sd]``, ``fix(es|ed)``,
  ``resolve[sd]``, an optional colon, then ``#N``), else **open**.

A comment is a ``TODO``, ``FIXME``, ``XXX`` or ``HACK`` word (upper case) after a comment leader on
its line; its key is the path and the first 8 hex digits of the SHA-1 of its text (from the word to
the end of the line, a trailing ``*/`` or ``-->`` dropped, whitespace collapsed), as SPEC §6.1
defines it, so that both sides name the same comment.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

__all__ = ["GitTruth", "IssueReference", "StudyPoint", "TodoAddition", "comment_digest"]

_MARKER = re.compile(r"\b(?:TODO|FIXME|XXX|HACK)\b")
_LEADERS = ("#", "//", "/*", "<!--", "--", ";", "%")
_TRAILER = re.compile(r"\s*(?:\*/|-->)\s*$")
_SPACES = re.compile(r"\s+")
_REFERENCE = re.compile(r"(?<![\w&/])(?:[A-Za-z0-9][\w.-]*/[\w.-]+)?#(\d+)\b")
_CLOSING = re.compile(
    r"(?<![\w-])(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved):?[ \t]+"
    r"(?:[A-Za-z0-9][\w.-]*/[\w.-]+)?#(\d+)\b",
    re.IGNORECASE,
)
_MERGED_PR = re.compile(r"^Merge pull request #(\d+)", re.MULTILINE)
_SQUASHED_PR = re.compile(r"\(#(\d+)\)\s*$")


def comment_digest(line: str) -> str | None:
    """The key digest of the TODO comment a source line carries, or None."""
    for match in _MARKER.finditer(line):
        before = line[: match.start()]
        if any(leader in before for leader in _LEADERS) or before.lstrip().startswith("*"):
            text = _SPACES.sub(" ", _TRAILER.sub("", line[match.start() :])).strip()
            return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return None


def _digests(content: bytes) -> Counter[str]:
    """How many lines carry each TODO comment digest (two equal comments share a key)."""
    out: Counter[str] = Counter()
    for raw in content.split(b"\n"):
        if b"TODO" in raw or b"FIXME" in raw or b"XXX" in raw or b"HACK" in raw:
            digest = comment_digest(raw.decode("utf-8", errors="replace").rstrip("\r"))
            if digest is not None:
                out[digest] += 1
    return out


@dataclass(frozen=True)
class StudyPoint:
    """A commit on HEAD's first-parent line and the time openloop is asked at (its commit time)."""

    name: str
    commit: str
    time: int


@dataclass(frozen=True)
class TodoAddition:
    """A TODO comment that a commit added at a path."""

    commit: str
    path: str
    digest: str

    @property
    def key(self) -> str:
        """The state key SPEC §6.1 gives the comment."""
        return f"todo.{self.path}:{self.digest}"


@dataclass(frozen=True)
class IssueReference:
    """An issue number named in the history: the first commit naming it, and its closers."""

    number: int
    first: str
    first_closes: bool
    closers: tuple[str, ...]


class GitTruth:
    """Reads a clone with ``git`` and answers the study's questions about it."""

    def __init__(self, repo: str | Path) -> None:
        self.repo = str(repo)
        self._gone: set[tuple[str, str]] = set()
        self._histories: dict[TodoAddition, list[tuple[str, bool]]] = {}

    def git(self, *args: str, data: bytes | None = None) -> bytes:
        """Run ``git ARGS`` in the clone and return its standard output."""
        done = subprocess.run(
            ["git", "-C", self.repo, "-c", "core.quotePath=false", *args],
            input=data,
            capture_output=True,
            check=True,
        )
        return done.stdout

    @cached_property
    def order(self) -> list[str]:
        """Every commit reachable from HEAD, oldest first (topological order)."""
        return self.git("rev-list", "--topo-order", "--reverse", "HEAD").decode().split()

    @cached_property
    def messages(self) -> dict[str, str]:
        """Commit hash -> whole message."""
        out = self.git("log", "--format=%H%x00%B%x1e", "HEAD").decode("utf-8", errors="replace")
        pairs = (record.strip("\n").split("\x00", 1) for record in out.split("\x1e"))
        return {p[0]: p[1] for p in pairs if len(p) == 2}

    def standpoints(self) -> list[StudyPoint]:
        """A third of the way along HEAD's first-parent line, two thirds, and HEAD."""
        line = self.git("rev-list", "--first-parent", "--reverse", "HEAD").decode().split()
        picks = [("a third", line[len(line) // 3]), ("two thirds", line[2 * len(line) // 3])]
        picks.append(("HEAD", line[-1]))
        out = []
        for name, commit in picks:
            time = int(self.git("show", "-s", "--format=%ct", commit).decode().strip())
            out.append(StudyPoint(name, commit, time))
        return out

    def reachable(self, commit: str) -> frozenset[str]:
        """Every commit reachable from ``commit`` (itself included)."""
        return frozenset(self.git("rev-list", commit).decode().split())

    def todos_at(self, commit: str) -> dict[str, set[str]]:
        """Path -> digests of the TODO comments in ``commit``'s tree (``git grep``)."""
        done = subprocess.run(
            [
                "git",
                "-C",
                self.repo,
                "-c",
                "core.quotePath=false",
                "grep",
                "-I",
                "-z",
                "--full-name",
                "-E",
                "TODO|FIXME|XXX|HACK",
                commit,
                "--",
            ],
            capture_output=True,
            check=False,
        )
        if done.returncode not in (0, 1):
            raise subprocess.CalledProcessError(done.returncode, "git grep", stderr=done.stderr)
        out: dict[str, set[str]] = {}
        prefix = f"{commit}:".encode()
        for line in done.stdout.split(b"\n"):
            name, sep, content = line.partition(b"\x00")
            if not sep:
                continue
            path = name.removeprefix(prefix).decode("utf-8", errors="replace")
            digest = comment_digest(content.decode("utf-8", errors="replace").rstrip("\r"))
            if digest is not None:
                out.setdefault(path, set()).add(digest)
        return out

    def paths_at(self, commit: str) -> frozenset[str]:
        """Every file path in ``commit``'s tree."""
        out = self.git("ls-tree", "-r", "-z", "--name-only", "--full-tree", commit)
        return frozenset(p.decode("utf-8", errors="replace") for p in out.split(b"\x00") if p)

    def todo_additions(self) -> list[TodoAddition]:
        """Every TODO comment a non-merge commit added, in history order."""
        log = self.git(
            "log",
            "--no-merges",
            "--no-renames",
            "--format=%x00%H %P",
            "--name-only",
            "-G",
            "TODO|FIXME|XXX|HACK",
            "HEAD",
        )
        wanted: list[tuple[str, str | None, str]] = []
        for record in log.split(b"\x00")[1:]:
            lines = record.decode("utf-8", errors="replace").split("\n")
            hashes = lines[0].split()
            parent = hashes[1] if len(hashes) > 1 else None
            wanted.extend((hashes[0], parent, path) for path in lines[1:] if path.strip())
        specs = []
        for commit, parent, path in wanted:
            specs.append(f"{commit}:{path}")
            specs.append(f"{parent}:{path}" if parent else "")
        blobs = self._blobs(specs)
        position = {c: i for i, c in enumerate(self.order)}
        found = []
        for i, (commit, _parent, path) in enumerate(wanted):
            added = _digests(blobs[2 * i]) - _digests(blobs[2 * i + 1])  # more copies than before
            found.extend(TodoAddition(commit, path, d) for d in sorted(added))
        return sorted(found, key=lambda a: (position.get(a.commit, -1), a.path, a.digest))

    def _blobs(self, specs: list[str]) -> list[bytes]:
        """Contents of ``REV:PATH`` objects in one ``cat-file --batch`` (b"" when missing)."""
        asked = [s for s in specs if s]
        out = self.git("cat-file", "--batch", data="".join(f"{s}\n" for s in asked).encode())
        contents: dict[str, bytes] = {}
        offset = 0
        for spec in asked:
            end = out.index(b"\n", offset)
            header = out[offset:end].split()
            offset = end + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                contents[spec] = out[offset : offset + size]
                offset += size + 1
            elif len(header) == 3:
                offset += int(header[2]) + 1  # a tree or a submodule: no text
        return [contents.get(s, b"") if s else b"" for s in specs]

    def disappearances(self, addition: TodoAddition) -> list[tuple[str, bool]]:
        """Commits after ``addition`` (its descendants, oldest first) that touch its path, each
        with whether the comment is there afterwards: ``(commit, present)``; a commit whose
        tree lacks the path counts as ``(commit, False)`` and is marked by :meth:`path_gone`."""
        commits = (
            self.git(
                "rev-list",
                "--topo-order",
                "--reverse",
                "--ancestry-path",
                f"{addition.commit}..HEAD",
                "--",
                addition.path,
            )
            .decode()
            .split()
        )
        blobs = self._blobs([f"{c}:{addition.path}" for c in commits])
        out = []
        for commit, blob in zip(commits, blobs, strict=True):
            present = addition.digest in _digests(blob)
            out.append((commit, present))
            if not blob:
                self._gone.add((commit, addition.path))
        return out

    def path_gone(self, commit: str, path: str) -> bool:
        """After :meth:`disappearances`: ``commit``'s tree has no file at ``path``."""
        return (commit, path) in self._gone

    def closed_as(
        self, addition: TodoAddition, reach: frozenset[str], paths: frozenset[str]
    ) -> str:
        """How a comment absent at a standpoint went: ``removed`` (its file stayed) or
        ``file_deleted``, read at the last commit (reachable from the standpoint) that took it
        away; the standpoint's own tree decides when no such commit is found."""
        last, there = None, True
        for commit, present in self._history(addition):
            if commit not in reach:
                continue
            if there and not present:
                last = commit
            there = present
        if last is None:
            return "removed" if addition.path in paths else "file_deleted"
        return "file_deleted" if self.path_gone(last, addition.path) else "removed"

    def _history(self, addition: TodoAddition) -> list[tuple[str, bool]]:
        if addition not in self._histories:
            self._histories[addition] = self.disappearances(addition)
        return self._histories[addition]

    def issue_references(self) -> list[IssueReference]:
        """Every referenced issue that is not a pull request, with its first commit and closers."""
        first: dict[int, str] = {}
        closers: dict[int, list[str]] = {}
        pulls: set[int] = set()
        for commit in self.order:
            message = self.messages.get(commit, "")
            for match in _REFERENCE.finditer(message):
                first.setdefault(int(match.group(1)), commit)
            for match in _CLOSING.finditer(message):
                closers.setdefault(int(match.group(1)), []).append(commit)
            pulls.update(int(n) for n in _MERGED_PR.findall(message))
            subject = message.split("\n", 1)[0]
            pulls.update(int(n) for n in _SQUASHED_PR.findall(subject))
        out = []
        for number, commit in sorted(first.items()):
            if (number in pulls and number not in closers) or number <= 0:
                continue
            closing = tuple(closers.get(number, ()))
            out.append(IssueReference(number, commit, commit in closing, closing))
        return out
