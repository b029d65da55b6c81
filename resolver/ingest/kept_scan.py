"""What a log's scan found, kept between processes, so an append reads only the lines added.

Every append holds the log's lock and needs its ids, each channel's highest ``seq`` and the
latest ``recorded`` (:class:`~resolver.ingest.record.LogState`). A process that appended before
keeps that in memory; a hook is a fresh process at every claim, and scanning a 100k-event log
costs it 0.7 s. So the state after each append is kept in the cache folder as JSON, with the
size and SHA-256 of the bytes it describes. It is used only when the log still begins with
exactly those bytes (a log only grows; a rewritten one is scanned anew), and only for what JSON
holds of it (checked field by field): data, never code. Writing is best effort: a cache folder
that cannot be written costs the next append a scan. The ids are kept as two parallel lists
(the ids, their line numbers) rather than one JSON object: at 100k events that halves both the
write every append pays (20 -> 10 ms) and the read with its checks (27 -> 16 ms), since the C
encoder and decoder walk a list faster than an object and a list's types are checked in one
C-level pass. Like the prepared store, the folder is one
the PreToolUse guard keeps agents out of (docs/guide/agents.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any

from resolver import resources

#: Bumped when what is kept changes shape (2: the ids as two parallel lists).
_FORMAT = 2
#: Look-ups of a :class:`LineIds` answered by searching its list before it builds its dict.
_SEARCHES = 8


class LineIds(MutableMapping[str, int]):
    """A log's ids and their line numbers (``LogState.ids``) as the two parallel sequences they
    were read as (the loaded columns', a kept scan's), plus the ids appended since, until more
    than a few look-ups or a change other than an addition. At 100k events the dict costs 7 ms
    to build, a C-level search of the list 0.6 ms, and an append looks up one id or a few (an
    importer's, one per event: it soon builds the dict); the lists are written back as they
    are (:func:`keep`). It is a mapping like the dict in every other way. The ids must be
    distinct (the callers check)."""

    def __init__(self, ids: Sequence[str], lines: Sequence[int]) -> None:
        self._ids, self._lines = ids, lines
        self._added: dict[str, int] = {}
        self._table: dict[str, int] | None = None
        self._searches = 0

    def _searched(self) -> bool:
        """Whether this look-up searches the list (else the dict answers it)."""
        if self._table is not None or self._searches >= _SEARCHES:
            return False
        self._searches += 1
        return True

    @property
    def table(self) -> dict[str, int]:
        """The ids as a dict (built on first use; from then on the only copy)."""
        if self._table is None:
            self._table = dict(zip(self._ids, self._lines, strict=True))
            self._table.update(self._added)
            self._ids, self._lines, self._added = (), (), {}
        return self._table

    def lists(self) -> tuple[list[str], list[int]]:
        """The ids and their line numbers, in the dict's order, as two lists."""
        if self._table is not None:
            return list(self._table), list(self._table.values())
        return [*self._ids, *self._added], [*self._lines, *self._added.values()]

    def __contains__(self, key: object) -> bool:
        if key in self._added:
            return True
        return key in self._ids if self._searched() else key in self.table

    def __getitem__(self, key: str) -> int:
        if key in self._added:
            return self._added[key]
        if not self._searched():
            return self.table[key]
        try:
            return self._lines[self._ids.index(key)]
        except ValueError:
            raise KeyError(key) from None

    def setdefault(self, key: str, default: int) -> int:  # type: ignore[override]
        """``LogState.note``'s way in: an id not in the log yet is added, nothing rebuilt."""
        if key in self:
            return self[key]
        if self._table is not None:
            self._table[key] = default
        else:
            self._added[key] = default
        return default

    def __setitem__(self, key: str, value: int) -> None:
        self.table[key] = value

    def __delitem__(self, key: str) -> None:
        del self.table[key]

    def __iter__(self) -> Iterator[str]:
        if self._table is not None:
            return iter(self._table)
        return iter([*self._ids, *self._added])

    def __len__(self) -> int:
        if self._table is not None:
            return len(self._table)
        return len(self._ids) + len(self._added)

    def __repr__(self) -> str:
        return f"LineIds({len(self)} ids)"


def _path(name: str) -> Path:
    resolved = str(Path(name).resolve()).encode("utf-8", errors="surrogateescape")
    return resources.cache_dir() / f"scan-{hashlib.sha256(resolved).hexdigest()[:24]}.json"


def exists(name: str) -> bool:
    """Whether a scan of log ``name`` is kept (current or not: :func:`read` tells)."""
    return _path(name).is_file()


def _names_to_ints(value: Any) -> dict[str, int] | None:
    if not isinstance(value, dict):
        return None
    if not all(isinstance(k, str) and type(v) is int for k, v in value.items()):
        return None
    return value


def _ids(document: dict[str, Any]) -> LineIds | None:
    """The ids and their line numbers kept as two lists of one length, each id once."""
    ids, numbers = document.get("ids"), document.get("id_lines")
    if type(ids) is not list or type(numbers) is not list or len(ids) != len(numbers):
        return None
    if not set(map(type, ids)) <= {str} or not set(map(type, numbers)) <= {int}:
        return None
    return LineIds(ids, numbers) if len(set(ids)) == len(ids) else None


def _lists(ids: Mapping[str, int]) -> tuple[list[str], list[int]]:
    if isinstance(ids, LineIds):
        return ids.lists()
    return list(ids), list(ids.values())


def read(name: str, head: bytes, digest: Any = None) -> tuple[int, dict[str, Any]] | None:
    """The kept state of log ``name`` if ``head`` (its bytes so far) begins with the bytes it
    describes: (their size, the state's fields). ``digest``: a SHA-256 of all of ``head``, if
    the caller has one (the usual case, a scan kept of the whole log, then hashes nothing)."""
    try:
        document = json.loads(_path(name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("format") != _FORMAT:
        return None
    size, kept = document.get("size"), document.get("digest")
    if type(size) is not int or not 0 <= size <= len(head) or not isinstance(kept, str):
        return None
    whole = digest if size == len(head) and digest is not None else hashlib.sha256(head[:size])
    if whole.hexdigest() != kept:
        return None
    ids, last_seq = _ids(document), _names_to_ints(document.get("last_seq"))
    lines, last = document.get("lines"), document.get("last_recorded")
    if ids is None or last_seq is None or type(lines) is not int:
        return None
    if last is not None and type(last) is not int:
        return None
    return size, {"lines": lines, "ids": ids, "last_seq": last_seq, "last_recorded": last}


def keep(name: str, size: int, digest: str, state: Any) -> None:
    """Keep ``state`` as the scan of the log's first ``size`` bytes (their SHA-256 ``digest``,
    hex); best effort."""
    ids, lines = _lists(state.ids)
    document = {
        "format": _FORMAT,
        "size": size,
        "digest": digest,
        "lines": state.lines,
        "ids": ids,
        "id_lines": lines,
        "last_seq": state.last_seq,
        "last_recorded": state.last_recorded,
    }
    path = _path(name)
    with contextlib.suppress(OSError, TypeError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".scan-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                text = json.dumps(document, separators=(",", ":"), check_circular=False)
                stream.write(text)  # the C encoder
            os.replace(temporary, path)
        finally:
            Path(temporary).unlink(missing_ok=True)
