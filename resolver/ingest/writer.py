"""Serialising imported events as JSON lines, and writing a whole log atomically.

Every importer goes through here so that all logs share one canonical form: fields in the order
of the ``event`` block, absent fields left out, UTF-8 kept as is, one object a line. A whole log
(``-o``) or declarations file (``--ol``) goes through the one output path every command uses
(:func:`resolver.output.writing`): streamed into a temporary file in the target's folder and
renamed into place only when the importer finished, so a failure never leaves a half-written
file; a symlink is written through, never replaced; a FIFO or device is written in place; an
input file of the command is refused. Appends go through
:func:`resolver.ingest.record.append_lines`, under the same lock as ``openloop record``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from resolver.output import writing
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
    """A text stream for a whole log: stdout, or the one output path onto ``path``.

    The content lands on ``path`` only when the block ends without an exception; otherwise
    ``path`` is left as it was.
    """
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    with writing(path) as raw:
        stream = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
        try:
            yield stream
            stream.flush()
        finally:
            stream.detach()  # the binary stream is closed by writing(), once
