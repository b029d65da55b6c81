"""Typed verdicts kept beside an answered plateau: a JSON encoding that decodes fast.

Reading a stored answer's atoms into typed verdicts (:func:`resolver.verdicts.resolution.read`)
costs far more than reading the atoms themselves: at 100k events, 1,000 verdicts with 5,000
footprints and their key reasons take 50–90 ms, the atoms a few. The verdicts the reader made
are therefore kept beside the atoms of the same answer (:class:`resolver.engine.plateau.Memo`,
``answers`` table of :mod:`resolver.store.entry`) as JSON: plain data, never code, checked
against its SHA-256 like the atoms, and decoded into the very same :class:`Resolution`.

The encoding shares what repeats: a channel's gaps once per channel (as the reader shares
them), each distinct footprint and reason once, findings once (a task lists the same objects).
It carries a stamp of the code that reads verdicts (this module and the reader): the store's
key covers the code that derives atoms, not the reader, so kept verdicts of another reader are
a miss, never an answer. :func:`encode` keeps nothing that does not decode back equal to the
verdicts it was given, so a field the encoding cannot carry costs a read, never a difference.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

from resolver.engine.atoms import Atoms
from resolver.engine.plateau import Memo
from resolver.engine.prepared import Standpoint
from resolver.verdicts import resolution as reader
from resolver.verdicts.resolution import (
    ChannelFootprint,
    ExpectationVerdict,
    Finding,
    Reason,
    Resolution,
    TaskVerdict,
)

#: Bumped when the encoding changes shape.
FORMAT = 1


@cache
def reader_stamp() -> str:
    """A digest of the code that turns atoms into verdicts and verdicts into this encoding."""
    digest = hashlib.sha256(f"kept verdicts {FORMAT}\n".encode())
    for module in (reader.__file__, __file__):
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()


def encode(resolution: Resolution, flags: tuple[bool, bool]) -> str | None:
    """The verdicts of ``resolution`` as JSON text (``flags``: the reader's ``with_reasons``
    and ``key_only``), or None when they would not decode back equal."""
    channels: dict[str, int] = {}
    gaps: list[list] = []
    for x in resolution.expectations:
        for name, fp in x.channels.items():
            if name not in channels:
                channels[name] = len(gaps)
                gaps.append([name, [list(g) for g in fp.gaps]])
    footprints: dict[tuple, int] = {}
    #: By reason and its value's type: a value ``1`` and a value ``true`` are equal in Python
    #: but printed apart.
    reasons: dict[tuple[Reason, type], int] = {}

    def footprint(name: str, fp: ChannelFootprint) -> int:
        row = (
            channels[name],
            fp.searched,
            fp.through,
            fp.candidates,
            tuple(fp.relevant_gaps),
            fp.has_relevant_gap,
            fp.gaps_after,
        )
        kinds = tuple(map(type, row))
        return footprints.setdefault((row, kinds), len(footprints))

    def reason(r: Reason) -> int:
        return reasons.setdefault((r, type(r.value)), len(reasons))

    rows = []
    for x in resolution.expectations:
        shown = [reason(r) for r in x.reasons]
        # The key reasons are every reason shown when only they were read: kept once.
        key = [reason(r) for r in x.key_reasons]
        rows.append(
            [
                x.id,
                x.title,
                x.task,
                x.status,
                x.confidence,
                list(x.flags),
                x.closed_by,
                x.tier,
                x.closed_at,
                x.opened_at,
                x.bound,
                x.footprint_complete,
                [footprint(name, fp) for name, fp in x.channels.items()],
                shown,
                list(x.examined),
                None if key == shown else key,
                x.verify,
                x.policy,
                x.trigger,
                x.open_like,
                list(x.doubts),
                x.reasons_in_all,
            ]
        )
    found: dict[int, int] = {}
    finding_rows: list[list] = []

    def finding(f: Finding) -> int:
        if id(f) not in found:
            found[id(f)] = len(finding_rows)
            finding_rows.append([f.kind, f.event, f.by, f.target, list(f.outstanding), f.at])
        return found[id(f)]

    listed = [finding(f) for f in resolution.findings]
    tasks = [
        [t.id, t.title, t.status, list(t.outstanding), [finding(f) for f in t.findings], *by]
        for t in resolution.tasks
        for by in [(t.policy, t.trigger)]
    ]
    document = {
        "format": FORMAT,
        "reader": reader_stamp(),
        "flags": list(flags),
        "gaps": gaps,
        "footprints": [[*row[:4], [list(g) for g in row[4]], *row[5:]] for row, _ in footprints],
        "reasons": [
            [r.code, r.event, r.detail, r.channel, r.gap and list(r.gap), r.value, r.verify]
            for r, _ in reasons
        ],
        "expectations": rows,
        "findings": finding_rows,
        "listed": listed,
        "tasks": tasks,
    }
    try:
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    # JSON keeps strings, integers, booleans and None apart, and what is shared above is
    # shared by type too: equal verdicts back are the same verdicts (a list where a tuple was
    # read, or any value JSON cannot carry, makes them differ).
    back = decode(text, flags, resolution.standpoint, lambda: resolution.atoms)
    return text if back == resolution else None


def lookup(
    memo: Memo, view: tuple, flags: tuple[bool, bool], at: Standpoint, atoms: Callable[[], Atoms]
) -> Resolution | None:
    """The verdicts kept beside the memo's answer under ``view`` (the answer's key, then the
    reader's flags), decoded at ``at`` and remembered in memory; None when none are kept."""
    text = memo.verdicts(view[:3])
    decoded = None if text is None else decode(text, flags, at, atoms)
    if decoded is not None:
        memo.keep_view(view, decoded)
    return decoded


def remember(memo: Memo, view: tuple, resolution: Resolution, flags: tuple[bool, bool]) -> None:
    """Keep the verdicts just read from an answer: in memory, and beside the answer in the
    memo's backing (encoded only when there is one)."""
    memo.keep_view(view, resolution)
    if memo.backing is not None:
        text = encode(resolution, flags)
        if text is not None:
            memo.keep_verdicts(view[:3], text)


class _Deferred(Atoms):
    """A kept answer's atoms, read only when a face asks for them (``status`` never does;
    ``check``, ``ready``, ``brief`` and explanations do, and then read the stored answer)."""

    def __init__(self, load: Callable[[], Atoms]) -> None:
        # Atoms.__init__ is not called: every attribute it sets is read through _real().
        self._load = load
        self._atoms: Atoms | None = None

    def _real(self) -> Atoms:
        if self._atoms is None:
            self._atoms = self._load()
        return self._atoms

    @property
    def text(self) -> str:  # type: ignore[override]
        return self._real().text

    @property
    def ground_rules(self) -> int:  # type: ignore[override]
        return self._real().ground_rules

    def get(self, name: str) -> list[tuple]:
        return self._real().get(name)

    def rows(self, name: str, first) -> list[tuple]:
        return self._real().rows(name, first)

    @property
    def by_name(self) -> dict[str, list[tuple]]:
        return self._real().by_name

    def facts(self) -> str:
        return self._real().facts()


def decode(
    text: str, flags: tuple[bool, bool], standpoint: Standpoint, atoms: Callable[[], Atoms]
) -> Resolution | None:
    """The resolution kept as ``text`` at ``standpoint`` (its atoms read through ``atoms`` when
    a face first asks for them), or None when ``text`` is not an encoding of this reader's with
    these ``flags``."""
    try:
        document = json.loads(text)
        if (
            not isinstance(document, dict)
            or document.get("format") != FORMAT
            or document.get("reader") != reader_stamp()
            or document.get("flags") != list(flags)
        ):
            return None
        return _build(document, standpoint, _Deferred(atoms))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def _fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


_REASON = _fields(Reason)
_FOOTPRINT = _fields(ChannelFootprint)
_VERDICT = _fields(ExpectationVerdict)


def _make(cls: type, names: tuple[str, ...], values) -> Any:
    """An instance of the frozen dataclass ``cls`` with ``values`` for its fields ``names``,
    as its ``__init__`` would build it (none of these classes has a ``__post_init__``), without
    the per-field ``object.__setattr__`` of a frozen class: a fifth of the cost, and what the
    decoding of 1,000 verdicts spent most on."""
    made = object.__new__(cls)
    made.__dict__.update(zip(names, values, strict=True))
    return made


def _build(document: dict[str, Any], standpoint: Standpoint, atoms: Atoms) -> Resolution:
    gaps = [(name, tuple((lo, hi) for lo, hi in spans)) for name, spans in document["gaps"]]
    footprints = []
    for c, searched, through, candidates, relevant, has_relevant, after in document["footprints"]:
        name, every = gaps[c]
        spans = tuple((lo, hi) for lo, hi in relevant)
        values = (searched, through, candidates, every, spans, has_relevant, after)
        footprints.append((name, _make(ChannelFootprint, _FOOTPRINT, values)))
    reasons = []
    for code, event, detail, channel, gap, value, verify in document["reasons"]:
        values = (code, event, detail, channel, gap and (gap[0], gap[1]), value, verify)
        reasons.append(_make(Reason, _REASON, values))
    channel = footprints.__getitem__
    reason = reasons.__getitem__
    expectations = []
    for row in document["expectations"]:
        row[5] = tuple(row[5])  # flags
        row[12] = dict(map(channel, row[12]))
        shown = row[13] = tuple(map(reason, row[13]))
        row[14] = tuple(row[14])  # examined
        row[15] = shown if row[15] is None else tuple(map(reason, row[15]))
        row[20] = tuple(row[20])  # doubts
        expectations.append(_make(ExpectationVerdict, _VERDICT, row))
    findings = [
        Finding(kind, event, by, target, tuple(outstanding), at)
        for kind, event, by, target, outstanding, at in document["findings"]
    ]
    tasks = tuple(
        TaskVerdict(
            ident, title, status, tuple(out), tuple(findings[i] for i in of), policy, trigger
        )
        for ident, title, status, out, of, policy, trigger in document["tasks"]
    )
    listed = tuple(findings[i] for i in document["listed"])
    return Resolution(standpoint, tuple(expectations), tasks, listed, atoms)
