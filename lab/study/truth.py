"""Ground truth for the accuracy study, read from git alone and never from openloop's output.

The study judges openloop on a real repository; its answers are compared with what git itself
shows, computed here by a route that shares no code with the importer or the rules. SPEC §6.1 says
which TODOs exist: those REV's first-parent line held.

* **TODO comments.** Each first-parent commit (a merge too) is compared with its first parent
  through the blobs ``git log --raw -M`` names: file *contents* are counted, never diff lines (the
  importer reads diffs). A comment whose copies at a path grow is *added* there (an opening); one
  whose last copy goes is ``removed``, or ``file_deleted`` when its file went. A rename carries
  its comments with their key, which keeps the path where the comment was first added. Openings
  by a revert open nothing when the policy says ``when not kind revert`` (the starter's does).
* At a standpoint S on the first-parent line a TODO is **open** iff its comment is in S's tree in
  the file its path became (:meth:`GitTruth.check_tree` confirms every open key with ``git grep``
  at S), else it is as its last change before S left it.
* **Issues** (:mod:`lab.study.issues`): closing keywords and reverts.

A comment is a ``TODO``, ``FIXME``, ``XXX`` or ``HACK`` word (upper case) after a comment leader
on its line; its key is the path and the first 8 hex digits of the SHA-1 of its text (from the
word to the end of the line, a trailing ``*/`` or ``-->`` dropped, whitespace collapsed), as SPEC
§6.1 defines it, so that both sides name the same comment.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

__all__ = ["GitTruth", "StudyPoint", "TodoKey", "TodoOpening", "comment_digest"]

_MARKER = re.compile(r"\b(?:TODO|FIXME|XXX|HACK)\b")
_LEADERS = ("#", "//", "/*", "<!--", "--", ";", "%")
_TRAILER = re.compile(r"\s*(?:\*/|-->)\s*$")
_SPACES = re.compile(r"\s+")
_NULL_SHA = "0" * 40
_GIT = ("git", "-c", "core.quotePath=false", "-C")
_WORDS = "TODO|FIXME|XXX|HACK"


def comment_digest(line: str) -> str | None:
    """The key digest of the TODO comment a source line carries, or None."""
    for match in _MARKER.finditer(line):
        before = line[: match.start()]
        if any(leader in before for leader in _LEADERS) or before.lstrip().startswith("*"):
            text = _SPACES.sub(" ", _TRAILER.sub("", line[match.start() :])).strip()
            return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return None


def digests(content: bytes) -> Counter[str]:
    """How many lines carry each TODO comment digest (a binary blob, as git judges it, none)."""
    out: Counter[str] = Counter()
    if b"\x00" in content[:8000]:  # git's own test: a NUL in the first 8000 bytes is binary
        return out
    for raw in content.split(b"\n"):
        if b"TODO" in raw or b"FIXME" in raw or b"XXX" in raw or b"HACK" in raw:
            digest = comment_digest(raw.decode("utf-8", errors="replace"))
            if digest is not None:
                out[digest] += 1
    return out


@dataclass(frozen=True)
class StudyPoint:
    """A commit on HEAD's first-parent line and the time openloop is asked at (its commit time)."""

    name: str
    commit: str
    time: int
    index: int = 0  # its position on the first-parent line, oldest 0


@dataclass(frozen=True)
class TodoKey:
    """A TODO comment's state key: the path where it was first added, and its digest."""

    path: str
    digest: str

    @property
    def key(self) -> str:
        """The state key SPEC §6.1 gives the comment."""
        return f"todo.{self.path}:{self.digest}"


@dataclass(frozen=True)
class TodoOpening:
    """A first-parent commit that added a copy of a TODO comment (one policy instance)."""

    commit: str
    index: int
    key: TodoKey


@dataclass
class TodoWalk:
    """The first-parent line read once: openings, and each key's changes ``(index, state)``."""

    openings: list[TodoOpening] = field(default_factory=list)
    changes: dict[TodoKey, list[tuple[int, str]]] = field(default_factory=dict)
    where: dict[TodoKey, set[str]] = field(default_factory=dict)  # the paths holding it now
    renamed: set[TodoKey] = field(default_factory=set)  # keys whose file moved at least once

    def state(self, key: TodoKey, index: int) -> str:
        """``open``, ``removed`` or ``file_deleted`` after the first-parent commit ``index``."""
        last = "absent"
        for at, state in self.changes.get(key, ()):
            if at > index:
                break
            last = state
        return last


class GitTruth:
    """Reads a clone with ``git`` and answers the study's questions about it."""

    def __init__(self, repo: str | Path) -> None:
        self.repo = str(repo)
        self._digests: dict[str, Counter[str]] = {}

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
    def line(self) -> list[str]:
        """HEAD's first-parent line, oldest first."""
        return self.git("rev-list", "--first-parent", "--reverse", "HEAD").decode().split()

    @cached_property
    def commits(self) -> dict[str, tuple[int, int, tuple[str, ...], str]]:
        """Hash -> (author time, committer time, parents, whole message)."""
        out = self.git("log", "--format=%H %at %ct %P%x00%B%x1e", "HEAD").decode(
            "utf-8", errors="replace"
        )
        found = {}
        for record in out.split("\x1e"):
            head, sep, message = record.lstrip("\n").partition("\x00")
            if sep:
                fields = head.split()
                found[fields[0]] = (int(fields[1]), int(fields[2]), tuple(fields[3:]), message)
        return found

    def is_revert(self, commit: str) -> bool:
        """SPEC §6.1's ``kind revert``: not a merge, and its subject starts ``Revert "``."""
        _, _, parents, message = self.commits[commit]
        return len(parents) < 2 and message.startswith('Revert "')

    def standpoints(
        self, tenths: bool = False, extra: dict[int, str] | None = None
    ) -> list[StudyPoint]:
        """A third of the way along HEAD's first-parent line, two thirds, and HEAD (with
        ``tenths``, every tenth too; ``extra``: more, by position on the line). A pick moves
        forward while the next first-parent commit has the same commit time, so that what was
        known at that second is what S's tree holds."""
        line = self.line
        picks = [(len(line) - 1, "HEAD"), (len(line) // 3, "a third")]
        picks.append((2 * len(line) // 3, "two thirds"))
        if tenths:
            picks += [(tenth * len(line) // 10, f"{tenth}0%") for tenth in range(1, 10)]
        picks += sorted((extra or {}).items())
        out: dict[int, StudyPoint] = {}
        for index, name in picks:  # the first name given a position keeps it
            while index + 1 < len(line) and self._ct(line[index + 1]) <= self._ct(line[index]):
                index += 1
            if index not in out:
                out[index] = StudyPoint(name, line[index], self._ct(line[index]), index)
        return [out[i] for i in sorted(out)]

    @cached_property
    def learned(self) -> dict[str, int]:
        """Commit -> position of the first first-parent commit that contains it."""
        out: dict[str, int] = {}
        for index, head in enumerate(self.line):
            stack = [head]
            while stack:
                commit = stack.pop()
                if commit in out:
                    continue
                out[commit] = index
                stack.extend(p for p in self.commits[commit][2] if p not in out)
        return out

    def _ct(self, commit: str) -> int:
        return self.commits[commit][1]

    def reachable(self, commit: str) -> frozenset[str]:
        """Every commit reachable from ``commit`` (itself included)."""
        return frozenset(self.git("rev-list", commit).decode().split())

    @cached_property
    def walk(self) -> TodoWalk:
        """Follow every TODO comment along the first-parent line (see the module's docstring)."""
        raw = self.git(
            "log",
            "--first-parent",
            "--reverse",
            "--root",
            "-M",
            "--raw",
            "-z",
            "--no-abbrev",
            "--diff-merges=first-parent",
            "--format=%x01%H",
            "HEAD",
        )
        records = []
        for record in raw.split(b"\x01")[1:]:
            head, _, rest = record.partition(b"\x00")
            records.append((head.decode().strip(), _raw_entries(rest)))
        blobs = {b for _, entries in records for e in entries for b in e[:2] if b != _NULL_SHA}
        self._load(blobs)
        position = {c: i for i, c in enumerate(self.line)}
        walk = TodoWalk()
        homes: dict[tuple[str, str], TodoKey] = {}
        for commit, entries in records:
            self._apply(walk, homes, commit, position[commit], entries)
        walk.where = {key: paths for key, paths in walk.where.items() if paths}
        return walk

    def _apply(self, walk: TodoWalk, homes, commit: str, index: int, entries) -> None:
        """One first-parent commit: deletions and renames first, then each path's contents.

        ``homes`` maps (path, digest) to the key a comment there takes: a key follows its file
        through renames whether or not its comment is there now, so a comment brought back into
        the file its path became (a revert) is the same TODO again."""
        opens = not self.is_revert(commit)
        entries = sorted(entries, key=lambda e: e[2][0] not in "RD")
        for _, _, status, old_path, new_path in entries:
            if status[0] in "RD":
                for path, digest in [h for h in homes if h[0] == old_path]:
                    key = homes.pop((path, digest))
                    if status[0] == "R":
                        homes[(new_path, digest)] = key
                        walk.renamed.add(key)
                        if path in walk.where.get(key, ()):
                            walk.where[key] = walk.where[key] - {path} | {new_path}
        for old_blob, new_blob, status, old_path, new_path in entries:
            old, new = self._count(old_blob), self._count(new_blob)
            for digest in sorted(old.keys() | new.keys()):
                key = homes.get((new_path, digest))
                if status[0] == "D":
                    key = key or self._deleted(walk, old_path, digest)
                if key is None:
                    key = homes[(new_path, digest)] = TodoKey(new_path, digest)
                places = walk.where.setdefault(key, set())
                if new[digest] > old[digest]:
                    places.add(new_path)
                    if opens:
                        walk.openings.append(TodoOpening(commit, index, key))
                    walk.changes.setdefault(key, []).append((index, "open"))
                elif new[digest] == 0 and old[digest] > 0 and new_path in places:
                    places.discard(new_path)
                    if not places:  # its last copy went (another path may still hold one)
                        gone = "file_deleted" if status[0] == "D" else "removed"
                        walk.changes.setdefault(key, []).append((index, gone))

    @staticmethod
    def _deleted(walk: TodoWalk, path: str, digest: str) -> TodoKey | None:
        """The live key whose comment a deleted file at ``path`` held."""
        for key, places in walk.where.items():
            if key.digest == digest and path in places:
                return key
        return None

    def _count(self, blob: str) -> Counter[str]:
        return self._digests.get(blob, Counter()) if blob != _NULL_SHA else Counter()

    def _load(self, blobs: set[str]) -> None:
        """Digest every blob once, in one ``git cat-file --batch``."""
        wanted = sorted(blobs - self._digests.keys())
        if not wanted:
            return
        out = self.git("cat-file", "--batch", data="".join(f"{b}\n" for b in wanted).encode())
        offset = 0
        for blob in wanted:
            end = out.index(b"\n", offset)
            header = out[offset:end].split()
            offset = end + 1
            if len(header) == 3:
                size = int(header[2])
                content = out[offset : offset + size] if header[1] == b"blob" else b""
                self._digests[blob] = digests(content)
                offset += size + 1
            else:
                self._digests[blob] = Counter()  # missing (a submodule's commit)

    def todos_at(self, commit: str) -> dict[str, set[str]]:
        """Path -> digests of the TODO comments in ``commit``'s tree (``git grep``)."""
        done = subprocess.run(
            [*_GIT, self.repo, "grep", "-I", "-z", "--full-name", "-E", _WORDS, commit, "--"],
            capture_output=True,
            check=False,
        )
        if done.returncode not in (0, 1):
            raise subprocess.CalledProcessError(done.returncode, "git grep", stderr=done.stderr)
        out: dict[str, set[str]] = {}
        prefix = f"{commit}:".encode()
        for line in done.stdout.split(b"\n"):
            name, sep, content = line.partition(b"\x00")
            if sep:
                digest = comment_digest(content.decode("utf-8", errors="replace"))
                if digest is not None:
                    path = name.removeprefix(prefix).decode("utf-8", errors="replace")
                    out.setdefault(path, set()).add(digest)
        return out

    def check_tree(self, point: StudyPoint) -> list[str]:
        """The walk against ``git grep`` at ``point``: each key the walk calls open whose comment
        is not in the tree, and each comment in the tree the walk holds no open key for."""
        tree = {(path, d) for path, found in self.todos_at(point.commit).items() for d in found}
        walk = self.walk
        open_keys = {k for k in walk.changes if walk.state(k, point.index) == "open"}
        held = self._paths_at(point.index)
        problems = [f"open in the walk, not in the tree: {k.key}" for k in open_keys - held.keys()]
        problems += [
            f"open in the walk, not in the tree: {k.key} at {p}"
            for k, paths in held.items()
            if k in open_keys
            for p in paths
            if (p, k.digest) not in tree
        ]
        covered = {(p, k.digest) for k, paths in held.items() for p in paths if k in open_keys}
        problems += [f"in the tree, no open key: {p}:{d}" for p, d in sorted(tree - covered)]
        return problems

    def _paths_at(self, index: int) -> dict[TodoKey, set[str]]:
        """Each open key's path(s) in the tree after first-parent commit ``index``: its own
        path, followed through the renames of the first-parent line up to there."""
        renames = self.git(
            "log",
            "--first-parent",
            "--reverse",
            "-M",
            "--diff-filter=R",
            "--name-status",
            "-z",
            "--diff-merges=first-parent",
            "--format=%x01%H",
            self.line[index],
        )
        position = {c: i for i, c in enumerate(self.line)}
        moves: list[tuple[int, str, str]] = []
        for record in renames.split(b"\x01")[1:]:
            head, _, rest = record.partition(b"\x00")
            fields = rest.lstrip(b"\n").split(b"\x00")
            at = position[head.decode().strip()]
            for i in range(0, len(fields) - 2, 3):
                old, new = fields[i + 1], fields[i + 2]
                moves.append((at, old.decode("utf-8", "replace"), new.decode("utf-8", "replace")))
        out: dict[TodoKey, set[str]] = {}
        for key, changes in self.walk.changes.items():
            path = key.path
            for at, old, new in moves:
                if at > changes[0][0] and old == path:
                    path = new
            out[key] = {path}
        return out


def _raw_entries(rest: bytes) -> list[tuple[str, str, str, str, str]]:
    """``git log --raw -z`` entries: (old blob, new blob, status, old path, new path)."""
    fields = rest.lstrip(b"\n").split(b"\x00")
    out = []
    i = 0
    while i < len(fields):
        meta = fields[i].lstrip(b"\n").decode()
        if not meta.startswith(":"):
            i += 1
            continue
        old_mode, new_mode, old_blob, new_blob, status = meta[1:].split()
        if status[0] in "RC":
            old_path, new_path = fields[i + 1], fields[i + 2]
            i += 3
        else:
            old_path = new_path = fields[i + 1]
            i += 2
        if "160000" in (old_mode, new_mode):
            continue  # a submodule: no text
        names = old_path.decode("utf-8", errors="replace"), new_path.decode("utf-8", "replace")
        out.append((old_blob, new_blob, status, *names))
    return out
