"""What a log's scan found, kept between processes, so an append reads only the lines added.

Every append holds the log's lock and needs its ids, each channel's highest ``seq`` and the
latest ``recorded`` (:class:`~resolver.ingest.record.LogState`). A process that appended before
keeps that in memory; a hook is a fresh process at every claim, and scanning a 100k-event log
costs it 0.7 s. So the state after each append is kept in the cache folder as JSON, with the
size and SHA-256 of the bytes it describes. It is used only when the log still begins with
exactly those bytes (a log only grows; a rewritten one is scanned anew), and only for what JSON
holds of it (checked field by field): data, never code. Writing is best effort: a cache folder
that cannot be written costs the next append a scan. Like the prepared store, the folder is one
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

#: Bumped when what is kept changes shape.
_FORMAT = 1


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


def read(name: str, head: bytes) -> tuple[int, dict[str, Any]] | None:
    """The kept state of log ``name`` if ``head`` (its bytes so far) begins with the bytes it
    describes: (their size, the state's fields)."""
    try:
        document = json.loads(_path(name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("format") != _FORMAT:
        return None
    size, digest = document.get("size"), document.get("digest")
    if type(size) is not int or not 0 <= size <= len(head) or not isinstance(digest, str):
        return None
    if hashlib.sha256(head[:size]).hexdigest() != digest:
        return None
    ids, last_seq = _names_to_ints(document.get("ids")), _names_to_ints(document.get("last_seq"))
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
        "ids": state.ids,
        "last_seq": state.last_seq,
        "last_recorded": state.last_recorded,
    }
    path = _path(name)
    with contextlib.suppress(OSError, TypeError, ValueError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".scan-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(json.dumps(document, separators=(",", ":")))  # the C encoder
            os.replace(temporary, path)
        finally:
            Path(temporary).unlink(missing_ok=True)
