"""The TODO lifecycle along REV's first-parent line (SPEC §6.1, ``--todos``).

Each commit of the first-parent line (a merge too) is read as its ``git log -p -U0 -M`` patch
against its first parent, so the state followed is exactly what main held after each commit:

- a TODO added on two branches and kept once by their merge is one TODO (the merge's patch adds
  nothing that main already had);
- a TODO a merge removes is removed (the merge's own patch removes it);
- side-branch commits carry no TODO sets: their effect lands with the merge that brings them.

Per commit and path, with copies counted (two equal comments in one file share a key):

- a comment whose count rises (from none, or by another copy): ``"open"``;
- a comment whose count falls to none: ``"removed"``, or ``"file_deleted"`` when the whole file
  was deleted (20-50% of TODOs vanish with their code, not by being resolved);
- a comment removed and added in the same path (a moved line, re-indented code): neither;
- a renamed file carries its comments: neither removed nor opened anew. A TODO keeps the key it
  was opened under (``todo.OLD/PATH:H``) for its whole life, so the expectation it opened is the
  one its later removal closes, wherever the file has moved since.

A comment whose tag names an issue (``TODO(#12)``) is remembered in ``opened_issues`` when it
opens, so the commit can say the code reports that issue pending (docs/guide/ingest.md).

The patch is read line by line as bytes: memory holds the TODO lines of one commit, never a whole
diff, plus the count and key of each comment currently open.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from resolver.ingest.todo_text import (
    comment_text,
    issue_reference,
    key_path,
    note_text,
    todo_hash,
)

__all__ = ["FileChange", "TodoTracker", "parse_patches"]

_MARKERS = (b"TODO", b"FIXME", b"XXX", b"HACK")
_ESCAPES = {b"n": b"\n", b"t": b"\t", b'"': b'"', b"\\": b"\\", b"a": b"\a", b"b": b"\b",
            b"f": b"\f", b"r": b"\r", b"v": b"\v"}  # fmt: skip


@dataclass
class FileChange:
    """One file's part of a commit's patch: its paths and the TODO comments added and removed."""

    old: str | None = None
    new: str | None = None
    deleted: bool = False
    added: Counter[str] = field(default_factory=Counter)
    removed: Counter[str] = field(default_factory=Counter)
    #: The comment text of each hash added (for the note of the event that opens it).
    texts: dict[str, str] = field(default_factory=dict)


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
                out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
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


def _comment(content: bytes) -> str | None:
    if not any(marker in content for marker in _MARKERS):
        return None
    return comment_text(content.decode("utf-8", errors="replace").rstrip("\r\n"))


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
                if current is not None and (text := _comment(line[1:])) is not None:
                    current.removed[todo_hash(text)] += 1
                continue
            if line.startswith(b"+") and plus:
                plus -= 1
                if current is not None and (text := _comment(line[1:])) is not None:
                    h = todo_hash(text)
                    current.added[h] += 1
                    current.texts.setdefault(h, text)
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
            minus, plus = _hunk(line)
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


def _hunk(line: bytes) -> tuple[int, int]:
    """The old and new line counts of ``@@ -a[,b] +c[,d] @@`` (a missing count is 1)."""
    parts = line.split(b" ", 3)
    if len(parts) < 3:
        return 0, 0
    counts = []
    for part in parts[1:3]:
        _, comma, count = part.partition(b",")
        counts.append(int(count) if comma and count.isdigit() else 1)
    return counts[0], counts[1]


@dataclass
class _Open:
    """A comment open in a path: how many copies, and the key it was opened under."""

    count: int
    key: str


class TodoTracker:
    """Turns each first-parent commit's file changes into ``set`` entries and their notes."""

    def __init__(self) -> None:
        self.open: dict[str, dict[str, _Open]] = {}
        #: Of the TODOs the last :meth:`sets` opened, those tied to an issue (``TODO(#12)``):
        #: key -> issue number.
        self.opened_issues: dict[str, int] = {}

    def sets(self, changes: list[FileChange]) -> tuple[dict[str, str], dict[str, str]]:
        """The ``todo.PATH:H`` assignments of one commit and the notes of those it opens."""
        values: dict[str, set[str]] = {}
        notes: dict[str, str] = {}
        issues: dict[str, int] = {}

        def put(key: str, value: str) -> None:
            values.setdefault(key, set()).add(value)

        for change in changes:
            old, new = change.old, change.new
            if not (change.added or change.removed or old in self.open or new in self.open):
                continue  # no TODO in this file before or after: nothing to say
            if change.deleted or new is None:
                path = old or ""
                entries = self.open.pop(path, {})
                for h in sorted(set(entries) | set(change.removed)):
                    put(entries[h].key if h in entries else _key(path, h), "file_deleted")
                continue
            before = self.open.pop(old, {}) if old is not None and old != new else {}
            before = {**self.open.pop(new, {}), **before}  # a rename carries its comments
            after: dict[str, _Open] = {}
            for h in sorted(set(before) | set(change.added) | set(change.removed)):
                was = before[h].count if h in before else 0
                now = max(was + change.added[h] - change.removed[h], 0)
                key = before[h].key if h in before else _key(new, h)
                if now > was:
                    put(key, "open")
                    notes[key] = note_text(change.texts.get(h, ""), new)
                    if (number := issue_reference(change.texts.get(h, ""))) is not None:
                        issues[key] = number
                elif now == 0 and (was > 0 or change.removed[h] > change.added[h]):
                    put(key, "removed")
                if now:
                    after[h] = _Open(now, key)
            if after:
                self.open[new] = after
        # a key both opened and closed in one commit (two changes on one path): neither
        sets = {key: next(iter(v)) for key, v in sorted(values.items()) if len(v) == 1}
        self.opened_issues = {key: n for key, n in issues.items() if sets.get(key) == "open"}
        return sets, {key: notes[key] for key in sets if sets[key] == "open" and key in notes}


def _key(path: str, h: str) -> str:
    return f"todo.{key_path(path)}:{h}"
