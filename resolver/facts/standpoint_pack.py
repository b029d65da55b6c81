"""The facts a standpoint reads beside the prepared atoms, kept so that they are not built again.

A standpoint no stored answer covers is solved over the declarations, the prepared atoms, the
channel log and (when it explains) the text linker's links. Without these the store's history
had to build every fact again (the linker over every event, the channel log: 0.35 s of a hook's
first claim at 100k events) only to hand a solve two small texts and the log's blocks. They are
a function of the entry's key (the files and the code), like the atoms, so the entry keeps them:
the two texts as atoms (no period, checked like every stored atom: no character a rule or a
directive needs can reach clingo) and the log as its blocks' integers
(:meth:`resolver.facts.channel_log.ChannelLog.pack`), compressed and checked against their
SHA-256 (:mod:`resolver.store.entry`). Anything unexpected is a miss: the facts are built from
the files as before.
"""

from __future__ import annotations

import json
import re
import zlib
from array import array
from dataclasses import dataclass

from resolver.facts.channel_log import ChannelLog

#: What a stored fact text may hold once its periods are taken out (an atom's characters): no
#: space inside a fact, no quote, no ``#``, no ``:``, so only facts of integers and constants.
_ATOM_TEXT = re.compile(r"[^A-Za-z0-9_(),\- ]")


@dataclass(frozen=True)
class StandpointFacts:
    """The declarations' and links' fact texts and the channel log of a stored history."""

    declarations: str
    links: str
    channel_log: ChannelLog
    #: The linker's counts of the expectations' words (:meth:`TextLinker.linking_counts`),
    #: when kept: what an append reads to tell whether it makes a word common.
    word_counts: dict[str, int] | None = None


def _as_atoms(facts: str) -> str | None:
    """``a(1).\\nb(2).\\n`` as ``a(1) b(2)``; None for a text of another shape."""
    if not facts.strip():
        return ""
    lines = facts.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not all(line.endswith(".") for line in lines):
        return None
    text = " ".join(line[:-1] for line in lines)
    return (
        None
        if _ATOM_TEXT.search(text) or "  " in text or len(lines) != text.count(" ") + 1
        else text
    )


def _atoms_text(text: str) -> bool:
    """Whether ``text`` is atoms separated by single spaces (or empty)."""
    if not text:
        return True
    if _ATOM_TEXT.search(text) or "  " in text:
        return False
    return text[0] != " " and text[-1] != " "


def _as_facts(atoms: str) -> str:
    return atoms.replace(" ", ".\n") + ".\n" if atoms else ""


def pack(
    declarations: str, links: str, log: ChannelLog, counts: dict[str, int] | None = None
) -> bytes | None:
    """The facts and counts, compressed; None when a text is not plain facts (then nothing is
    kept)."""
    texts = [_as_atoms(declarations), _as_atoms(links)]
    if None in texts:
        return None
    counted = b"" if counts is None else json.dumps(counts, ensure_ascii=True).encode("ascii")
    parts = [text.encode("ascii") for text in texts if text is not None]
    parts += [log.pack(), counted]
    sizes = array("q", [len(part) for part in parts]).tobytes()
    return zlib.compress(sizes + b"".join(parts), 1)


#: The parts :func:`pack` writes: two texts, the log, the counts.
_PARTS = 4


def unpack(blob: bytes) -> StandpointFacts | None:
    """What :func:`pack` kept, or None when it is not that."""
    try:
        data = zlib.decompress(blob)
    except (zlib.error, TypeError):
        return None
    sizes = array("q")
    head = _PARTS * sizes.itemsize
    if len(data) < head:
        return None
    sizes.frombytes(data[:head])
    if min(sizes) < 0 or head + sum(sizes) != len(data):
        return None
    start = head
    parts = []
    for size in sizes:
        parts.append(data[start : start + size])
        start += size
    try:
        declarations, links = (part.decode("ascii") for part in parts[:2])
    except UnicodeDecodeError:
        return None
    if not all(_atoms_text(text) for text in (declarations, links)):
        return None
    log = ChannelLog.unpack(parts[2])
    counts = _counts(parts[3]) if parts[3] else None
    if log is None or (parts[3] and counts is None):
        return None
    return StandpointFacts(_as_facts(declarations), _as_facts(links), log, counts)


def _counts(data: bytes) -> dict[str, int] | None:
    """The counts' JSON read back: an object of words to integers, or None."""
    try:
        counts = json.loads(data)
    except ValueError:
        return None
    if not isinstance(counts, dict):
        return None
    if not all(isinstance(k, str) and type(v) is int for k, v in counts.items()):
        return None
    return counts
