"""A typed query: what a standpoint's solve is asked beyond the verdicts, as integer facts.

A :class:`Query` names what to explain (items, or everything), the status a ``--why-not`` asks
about, a gate scope, a snapshot's state and whether reasons are wanted. It renders its own facts
(:meth:`Query.facts`), read by ``rules/query/*.lp`` and ``rules/standpoint/snapshot.lp``; the
engine reads its fields (never its text) to decide which prepared atoms a solve needs. Items,
events, keys and values arrive already interned (integers): no user text reaches clingo.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from resolver.vocabulary import STATUSES

#: Gate scopes (rules/query/gate.lp): every expectation, a task's obligations, or the
#: expectations whose ``before`` names an event.
GATE_SCOPES = ("all", "task", "before")


@dataclass(frozen=True)
class Gate:
    """The scope of ``openloop check``: ``scope`` from :data:`GATE_SCOPES`; ``number`` is the
    interned task (``task``) or event (``before``), 0 for ``all``."""

    scope: str
    number: int = 0

    def __post_init__(self) -> None:
        if self.scope not in GATE_SCOPES:
            raise ValueError(f"gate scope must be one of {GATE_SCOPES}, not {self.scope!r}")
        _check_int(self.number)


@dataclass(frozen=True)
class Query:
    """What one standpoint's solve is asked, besides every verdict.

    ``explain``: interned items (expectations or tasks) to explain; ``explain_all``: every item;
    ``why_not``: a lower-case status word (also explained items only); ``gate``: a check scope;
    ``snapshot``: ``(key, value)`` interned pairs of a current-state snapshot; ``ready``: ask
    what can be worked on now (rules/query/ready.lp); ``reasons``: include the rejected
    candidates that reasons read (verdicts are the same without them); ``every_reason`` False
    (with ``reasons``): show only the key reasons and each item's count of reasons
    (``key_reasons_only``, rules/standpoint/key_reasons.lp), which is all a status face or a
    gate's one-line reasons print; ``extra``: facts a caller
    rendered for a rule file of its own (read by no engine decision).
    """

    explain: tuple[int, ...] = ()
    explain_all: bool = False
    why_not: str | None = None
    gate: Gate | None = None
    snapshot: tuple[tuple[int, int], ...] = ()
    ready: bool = False
    reasons: bool = True
    every_reason: bool = True
    extra: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        for number in self.explain:
            _check_int(number)
        for key, value in self.snapshot:
            _check_int(key)
            _check_int(value)
        if self.why_not is not None and self.why_not not in STATUSES:
            raise ValueError(f"why_not must be a status word, not {self.why_not!r}")

    @property
    def explaining(self) -> bool:
        """True when the solve derives whole explanations (it then needs the linker's
        measurements and every rejected candidate). A gate is not one: it asks only each
        reported item's key reason (``keyed/1``, rules/query/gate.lp)."""
        return bool(self.explain or self.explain_all)

    @property
    def key_reasons_only(self) -> bool:
        """True when the solve shows only the key reasons and a count of the others."""
        return self.reasons and not self.every_reason

    def facts(self) -> str:
        """The query as facts for the ``standpoint`` part."""
        lines = ["explain_all."] if self.explain_all else []
        lines.extend(f"explain_target({number})." for number in self.explain)
        if self.why_not is not None:
            lines.append(f"why_not_status({self.why_not}).")
        if self.gate is not None:
            lines.append(
                "gate_all."
                if self.gate.scope == "all"
                else f"gate_{self.gate.scope}({self.gate.number})."
            )
        lines.extend(f"snapshot_state({k},{v})." for k, v in self.snapshot)
        if self.ready:
            lines.append("ready_query.")
        if self.key_reasons_only:
            lines.append("key_reasons_only.")
        text = "".join(line + "\n" for line in lines)
        return text + self.extra

    def __add__(self, other: Query | str) -> Query:
        """Both queries at once (a text is kept as ``extra`` facts)."""
        if isinstance(other, str):
            return replace(self, extra=self.extra + other)
        return Query(
            explain=tuple(dict.fromkeys(self.explain + other.explain)),
            explain_all=self.explain_all or other.explain_all,
            why_not=self.why_not or other.why_not,
            gate=self.gate or other.gate,
            snapshot=self.snapshot + other.snapshot,
            ready=self.ready or other.ready,
            reasons=self.reasons and other.reasons,
            every_reason=self.every_reason or other.every_reason,
            extra=self.extra + other.extra,
        )

    def __radd__(self, other: str) -> Query:
        return self + other


def as_query(query: Query | str | None) -> Query:
    """A query from a query, nothing, or facts a caller rendered itself."""
    if query is None:
        return Query()
    if isinstance(query, str):
        return Query(extra=query)
    return query


def _check_int(number: int) -> None:
    if not -(2**31) <= number < 2**31:
        raise OverflowError(f"{number} does not fit clingo's 32-bit integers")
