"""The TODO lifecycle from a streaming ``git log -p -U0`` (SPEC §6.1, ``--todos``).

A line that carries a ``TODO``, ``FIXME``, ``XXX`` or ``HACK`` comment (the marker word in upper
case, after a comment leader: ``#``, ``//``, ``/*``, ``*``, ``--``, ``;``, ``%`` or ``<!--``) is
tracked under the key ``todo.PATH:H``, where H is the first 8 hex digits of the SHA-1 of the
comment's text (from the marker word to the end of the line, a trailing ``*/`` or ``-->`` dropped,
whitespace collapsed). Copies are counted per path (two equal comments in one file share a key),
and per commit and path:

- a comment whose count rises (from none, or by another copy): ``"open"``;
- a comment whose count falls to none: ``"removed"``, or ``"file_deleted"`` when the whole file
  was deleted (20-50% of TODOs vanish with their code, not by being resolved);
- a comment removed and added in the same path (a moved line, re-indented code around it): its
  count is unchanged, so neither;
- a renamed file takes its comments along: each one still in the file becomes ``"file_deleted"``
  at the old path (that path is gone) and ``"open"`` at the new one, so a policy instance never
  waits forever on a path that no longer exists.

The patch is read line by line as bytes: memory holds one file's TODO lines, never a whole diff,
plus the count of each comment currently open (needed for copies and renames). Merges' patches
are not read (their changes were made, and counted, on the merged branch).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

__all__ = ["FileChange", "TodoTracker", "comment_text", "parse_patches"]

_COMMENT = re.compile(r"(?:#|//|/\*|<!--|--|;|%|^\s*\*)[^\n]*?\b((?:TODO|FIXME|XXX|HACK)\b.*)$")
_MARKERS = (b"TODO", b"FIXME", b"XXX", b"HACK")
_CLOSER = re.compile(r"\s*(?:\*/|-->)\s*$")
_SPACE = re.compile(r"\s+")
_HUNK = re.compile(rb"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_ESCAPES = {b"n": b"\n", b"t": b"\t", b'"': b'"', b"\\": b"\\", b"a": b"\a", b"b": b"\b",
            b"f": b"\f", b"r": b"\r", b"v": b"\v"}  # fmt: skip


def comment_text(line: str) -> str | None:
    """The normalised TODO comment a source line carries, or None."""
    match = _COMMENT.search(line)
    if match is None:
        return None
    text = _CLOSER.sub("", match.group(1))
    return _SPACE.sub(" ", text).strip() or None


def todo_hash(text: str) -> str:
    """First 8 hex digits of the SHA-1 of the normalised comment text."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


@dataclass
class FileChange:
    """One file's part of a commit's patch: its paths and the TODO hashes added and removed."""

    old: str | None = None
    new: str | None = None
    deleted: bool = False
    added: Counter[str] = field(default_factory=Counter)
    removed: Counter[str] = field(default_factory=Counter)


def _unquote(raw: bytes) -> bytes:
    """Undo git's C-style quoting of a path (``"a/sp\\303\\251"``)."""
    if not (raw.startswith(b'"') and raw.endswith(b'"') and len(raw) >= 2):
        return raw
    body, out, i = raw[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i : i + 1]
        if char == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            digits = body[i + 1 : i + 4]
            if len(digits) == 3 and digits.isdigit():
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out += _ESCAPES.get(nxt, nxt)
            i += 2
            continue
        out += char
        i += 1
    return bytes(out)


def _path(raw: bytes, prefix: bytes) -> str | None:
    raw = _unquote(raw.rstrip(b"\n").rstrip(b"\t"))
    if raw == b"/dev/null":
        return None
    if raw.startswith(prefix):
        raw = raw[len(prefix) :]
    return raw.decode("utf-8", errors="replace")


def _todo(content: bytes) -> str | None:
    if not any(marker in content for marker in _MARKERS):
        return None
    text = comment_text(content.decode("utf-8", errors="replace").rstrip("\r\n"))
    return None if text is None else todo_hash(text)


def parse_patches(lines: Iterable[bytes]) -> Iterator[tuple[str, list[FileChange]]]:
    """Per commit (``\\0HASH`` header lines), the file changes of its ``-U0`` patch."""
    commit: str | None = None
    files: list[FileChange] = []
    current: FileChange | None = None
    minus = plus = 0
    for line in lines:
        if minus or plus:  # inside a hunk: exactly the announced number of -/+ lines
            if line.startswith(b"-") and minus:
                minus -= 1
                if (h := _todo(line[1:])) is not None and current is not None:
                    current.removed[h] += 1
                continue
            if line.startswith(b"+") and plus:
                plus -= 1
                if (h := _todo(line[1:])) is not None and current is not None:
                    current.added[h] += 1
                continue
            if line.startswith(b"\\"):
                continue  # "\ No newline at end of file"
            minus = plus = 0
        if line.startswith(b"\0"):
            if commit is not None:
                yield commit, files
            commit, files, current = line[1:].strip().decode("ascii"), [], None
        elif line.startswith(b"diff --git "):
            current = FileChange()
            files.append(current)
        elif current is None:
            continue
        elif line.startswith(b"@@ "):
            match = _HUNK.match(line)
            if match:
                minus = 1 if match.group(1) is None else int(match.group(1))
                plus = 1 if match.group(2) is None else int(match.group(2))
        elif line.startswith(b"--- "):
            current.old = _path(line[4:], b"a/")
        elif line.startswith(b"+++ "):
            current.new = _path(line[4:], b"b/")
        elif line.startswith(b"rename from "):
            current.old = _path(line[12:], b"")
        elif line.startswith(b"rename to "):
            current.new = _path(line[10:], b"")
        elif line.startswith(b"deleted file mode"):
            current.deleted = True
    if commit is not None:
        yield commit, files


class TodoTracker:
    """Turns each commit's file changes into ``set`` entries, counting the open comments."""

    def __init__(self) -> None:
        self.open: dict[str, Counter[str]] = {}

    def sets(self, changes: list[FileChange]) -> dict[str, str]:
        """The ``todo.PATH:H`` assignments of one commit, sorted by key."""
        values: dict[str, set[str]] = {}

        def put(path: str, h: str, value: str) -> None:
            values.setdefault(f"todo.{path}:{h}", set()).add(value)

        for change in changes:
            old, new = change.old, change.new
            if not (change.added or change.removed or old in self.open or new in self.open):
                continue  # no TODO in this file before or after: nothing to say
            if old is not None and new is not None and old != new:  # a rename
                before = self.open.pop(old, Counter())
                after = _apply(before, change)
                for h in sorted(set(before) | set(change.removed)):
                    put(old, h, "file_deleted" if after[h] > 0 else "removed")
                for h in sorted(after):
                    put(new, h, "open")
                if after:
                    self.open[new] = after
            elif change.deleted or new is None:
                path = old or ""
                gone = self.open.pop(path, Counter()) | change.removed
                for h in sorted(gone):
                    put(path, h, "file_deleted")
            else:
                before = self.open.pop(new, Counter())
                after = _apply(before, change)
                for h in sorted(set(before) | set(change.removed) | set(change.added)):
                    if after[h] > before[h]:
                        put(new, h, "open")
                    elif after[h] == 0 and change.removed[h] > change.added[h]:
                        put(new, h, "removed")
                if after:
                    self.open[new] = after
        # a key both opened and closed in one commit (two changes on one path): neither
        return {key: next(iter(v)) for key, v in sorted(values.items()) if len(v) == 1}


def _apply(before: Counter[str], change: FileChange) -> Counter[str]:
    """The comment counts of a path after ``change`` (never below zero)."""
    after = Counter(before)
    after.update(change.added)
    after.subtract(change.removed)
    return +after  # drops zero and negative counts
