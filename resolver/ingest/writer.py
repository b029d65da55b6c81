"""Serialising imported events as JSON lines, and writing a whole log atomically.

Every importer goes through here so that all logs share one canonical form: fields in the order
of the ``event`` block, absent fields left out, UTF-8 kept as is, one object a line. A whole log
is streamed into a temporary file in the target's folder and renamed into place only when the
importer finished, so a failure never leaves a half-written file; appends go through
:func:`resolver.ingest.record.append_lines`, under the same lock as ``openloop record``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from resolver.errors import InputError
from resolver.vocabulary import MARKERS

#: Field order of an event object (the order of the ``event`` block, SPEC §2.1 and §5.1).
ORDER = (
    "id",
    "channel",
    "seq",
    "at",
    "recorded",
    "by",
    "kind",
    "text",
    "files",
    "set",
    *MARKERS,
    "outcome",
)
_RANK = {name: index for index, name in enumerate(ORDER)}


def canonical(event: dict[str, Any]) -> dict[str, Any]:
    """The event with its fields in canonical order and ``None`` fields dropped."""
    present = [(k, v) for k, v in event.items() if v is not None]
    present.sort(key=lambda item: _RANK.get(item[0], len(ORDER)))
    return dict(present)


def dumps(event: dict[str, Any]) -> str:
    """One JSON line (without the newline) for ``event``, in canonical form."""
    return json.dumps(canonical(event), ensure_ascii=False)


@contextlib.contextmanager
def output(path: str | None) -> Iterator[IO[str]]:
    """A text stream for a whole log: stdout, or a temporary file renamed onto ``path``.

    The rename happens only when the block ends without an exception; otherwise the temporary
    file is removed and ``path`` is left as it was.
    """
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"cannot write {path}: no such directory {str(folder)!r}")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
