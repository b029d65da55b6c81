"""The ledger's typed records: what a refresh wrote, what a list or a history reads back.

Every field is a copy of what a verdict said at the refresh's standpoint (status, confidence,
closing event and tier, flags, footprint) plus the provenance of the check: when it ran, at which
standpoint, and which log position it read through. Nothing here decides a status.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from resolver.verdicts.resolution import ExpectationVerdict


@dataclass(frozen=True)
class LogPosition:
    """How far one source file was read: the position a check is valid through.

    ``kind`` is ``jsonl`` (an append-only log: ``size`` bytes, ``lines`` newline-terminated
    lines, ``tail_offset`` where the last line starts and ``tail_sha256`` its hash, the tamper
    check) or ``ol`` (declarations: ``sha256`` of the whole file).
    """

    path: str
    resolved: str
    kind: str
    size: int
    lines: int
    tail_offset: int
    tail_sha256: str
    sha256: str | None
    mtime_ns: int

    def as_dict(self) -> dict[str, Any]:
        """The position as JSON (``resolved`` and ``mtime_ns`` are internal and left out)."""
        out: dict[str, Any] = {"path": self.path, "kind": self.kind, "size": self.size}
        if self.kind == "jsonl":
            out["lines"] = self.lines
            out["tail_sha256"] = self.tail_sha256
        else:
            out["sha256"] = self.sha256
        return out


@dataclass(frozen=True)
class Refresh:
    """One refresh (or rebuild): one transaction, one standpoint, every expectation checked.

    ``paths`` are the files and folders it was asked to read (absolute), where ``list`` looks
    for files added since; ``sources`` the position it read each file through.
    """

    id: int
    kind: str
    checked_at: int
    at: int
    known: int | None
    expectations: int
    open: int
    changed: int
    sources: tuple[LogPosition, ...] = ()
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The part of a verdict the ledger keeps, exactly as the resolution gave it."""

    id: str
    title: str | None
    task: str | None
    status: str
    confidence: str | None
    flags: tuple[str, ...]
    closed_by: str | None
    tier: str | None
    closed_at: int | None
    opened_at: int | None
    bound: int | None
    footprint: dict[str, Any]
    open: bool

    @classmethod
    def of(cls, verdict: ExpectationVerdict, footprint: dict[str, Any], open: bool) -> Verdict:
        """The ledger's copy of a resolution's verdict: every field the two share, by name."""
        shared = {f.name: getattr(verdict, f.name) for f in fields(cls) if f.name not in _OWN}
        return cls(**shared, footprint=footprint, open=open)

    def as_row(self) -> tuple:
        """The verdict as the values of :data:`VERDICT_COLUMNS` (JSON for lists and objects)."""
        return tuple(_ENCODE.get(f.name, _same)(getattr(self, f.name)) for f in fields(self))

    @classmethod
    def from_row(cls, row: tuple) -> Verdict:
        """The verdict from the values of :data:`VERDICT_COLUMNS`."""
        pairs = zip(fields(cls), row, strict=True)
        return cls(*(_DECODE.get(f.name, _same)(value) for f, value in pairs))


#: Fields of :class:`Verdict` that are the ledger's own, not copied from the resolution.
_OWN = ("footprint", "open")
#: How a :class:`Verdict` field is stored in its ``check_`` column, and read back.
_ENCODE = {
    "flags": lambda flags: json.dumps(list(flags)),
    "footprint": lambda value: json.dumps(value, sort_keys=True, separators=(",", ":")),
    "open": lambda value: 1 if value else 0,
}
_DECODE = {
    "flags": lambda text: tuple(json.loads(text)),
    "footprint": json.loads,
    "open": bool,
}
#: The ``check_`` columns holding a verdict, in the order of :class:`Verdict`'s fields.
VERDICT_COLUMNS = tuple(
    {"id": "expectation", "open": "is_open"}.get(f.name, f.name) for f in fields(Verdict)
)


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Check:
    """One recorded check of one expectation: the verdict and its re-verification provenance."""

    check_id: int
    refresh: Refresh
    verdict: Verdict

    @property
    def id(self) -> str:
        """The expectation's id."""
        return self.verdict.id

    @property
    def last_checked(self) -> int:
        """When the check ran (Unix seconds)."""
        return self.refresh.checked_at


@dataclass(frozen=True)
class Entry:
    """One expectation on the maintained list, with whether its check can still be trusted.

    ``fresh`` is False when the check is older than the ``stale_after`` asked for, or when a
    source file changed past the position the check read through; ``stale_reasons`` says which.
    """

    check: Check
    fresh: bool
    stale_reasons: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """The expectation's id."""
        return self.check.verdict.id

    @property
    def status(self) -> str:
        """The status at the check's standpoint."""
        return self.check.verdict.status

    @property
    def confidence(self) -> str | None:
        """The confidence class at the check's standpoint (open verdicts only)."""
        return self.check.verdict.confidence

    @property
    def last_checked(self) -> int:
        """When the expectation was last re-verified (Unix seconds)."""
        return self.check.refresh.checked_at

    @property
    def standpoint(self) -> tuple[int, int | None]:
        """``(at, known)`` of the last check; ``known`` None means ``known latest``."""
        return self.check.refresh.at, self.check.refresh.known

    @property
    def stale_reason(self) -> str | None:
        """The reasons the entry is stale, joined, or None when it is fresh."""
        return "; ".join(self.stale_reasons) if self.stale_reasons else None

    @property
    def verdict(self) -> Verdict:
        """The recorded verdict."""
        return self.check.verdict


@dataclass(frozen=True)
class LedgerState:
    """What one read transaction saw: the latest refresh and the open entries."""

    refresh: Refresh | None
    entries: tuple[Entry, ...] = field(default=())


@dataclass(frozen=True)
class RefreshSummary:
    """What a refresh wrote: its id, standpoint, counts, and the ids whose status changed."""

    refresh: Refresh
    db: str
    changed_ids: tuple[str, ...]
    removed_ids: tuple[str, ...]

    @property
    def id(self) -> int:
        """The refresh id."""
        return self.refresh.id

    @property
    def expectations(self) -> int:
        """How many expectations were checked."""
        return self.refresh.expectations

    @property
    def open(self) -> int:
        """How many of them are on the open list."""
        return self.refresh.open
