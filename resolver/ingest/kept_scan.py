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
from pathlib import Path
from typing import Any

from resolver import resources

#: Bumped when what is kept changes shape (2: the ids as two parallel lists).
_FORMAT = 2


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


def _ids(document: dict[str, Any]) -> dict[str, int] | None:
    """The ids and their line numbers kept as two lists of one length, each id once."""
    ids, numbers = document.get("ids"), document.get("id_lines")
    if type(ids) is not list or type(numbers) is not list or len(ids) != len(numbers):
        return None
    if not set(map(type, ids)) <= {str} or not set(map(type, numbers)) <= {int}:
        return None
    table = dict(zip(ids, numbers, strict=True))
    return table if len(table) == len(ids) else None


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
    document = {
        "format": _FORMAT,
        "size": size,
        "digest": digest,
        "lines": state.lines,
        "ids": list(state.ids),
        "id_lines": list(state.ids.values()),
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
