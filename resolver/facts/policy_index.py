"""Events indexed for the measurements of policy conditions (``resolver/facts/policies.py``).

Each condition's events are found through an index (channel, kind, actor, sorted keys, distinct
paths) rather than by testing every event, so the work of 100 policies over a long history grows
with the matches. Globs are matched once per distinct path, phrases once per event text.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import compress, pairwise
from operator import ne

from resolver.facts.linker import Vocabulary
from resolver.language.event_columns import EventColumns
from resolver.language.globs import GlobError, compile_glob
from resolver.language.model import Condition, Event, Expectation, Task, Value
from resolver.times import EPOCH_UNIX

__all__ = ["EventIndex", "chain_facts", "declared_opening", "sets_value"]


class EventIndex:
    """Events by channel, kind, actor, key and path; phrases and globs measured on demand.

    Read from the event columns: a channel's, kind's or actor's events are one C pass over that
    column when a condition first names it, keys and paths one pass over the rows that have
    some, and an :class:`Event` is built only for an event a policy reads whole (a trigger, an
    opening). As a mapping by id keeps them, each id stands for its last record.
    """

    def __init__(self, events: EventColumns | Iterable[Event], vocabulary: Vocabulary) -> None:
        if not isinstance(events, EventColumns):
            events = EventColumns.from_events(events)
        self._columns = columns = events
        ids = columns.ids
        #: Per id, its row (the last record of an id).
        self._rows = rows = dict(zip(ids, range(len(ids)), strict=True))
        #: The rows standing for their ids (None: every row, no id is recorded twice).
        self._live = None if len(rows) == len(ids) else set(rows.values())
        self.events: Mapping[str, Event] = _Events(columns, rows)
        self.by_channel = _Grouped(columns, columns.channel, self._live)
        self.by_kind = _Grouped(columns, columns.kind, self._live, absent="")
        self.by_actor = _Grouped(columns, columns.by, self._live)
        self._by_key: dict[str, set[str]] | None = None
        #: The keys of :attr:`by_key`, sorted (listed with it).
        self.keys: list[str] = []
        self._by_path: dict[str, set[str]] | None = None
        self.vocabulary = vocabulary
        self._globs: dict[str, set[str]] = {}
        self._phrases: dict[str, set[str]] = {}
        self._tokens: dict[str, list[str]] | None = None

    @property
    def by_key(self) -> dict[str, set[str]]:
        """Per key some event sets, the events setting it."""
        if self._by_key is None:
            c = self._columns
            self._by_key = self._entries(c.set_start, c.set_end, c.set_key)
            self.keys = sorted(self._by_key)
        return self._by_key

    @property
    def by_path(self) -> dict[str, set[str]]:
        """Per path some event touches, the events touching it."""
        if self._by_path is None:
            c = self._columns
            self._by_path = self._entries(c.file_start, c.file_end, c.file_path)
        return self._by_path

    def _entries(
        self, starts: Sequence[int], ends: Sequence[int], entries: Sequence[int]
    ) -> dict[str, set[str]]:
        """Ids by the strings of a multi-valued field, read over the rows that hold some."""
        ids, strings, live = self._columns.ids, self._columns.strings, self._live
        out: dict[str, set[str]] = defaultdict(set)
        for row in compress(range(len(ids)), map(ne, starts, ends)):
            if live is None or row in live:
                ident = ids[row]
                for j in range(starts[row], ends[row]):
                    out[strings[entries[j]]].add(ident)
        return out

    def times(self, ident: str) -> tuple[int, int]:
        """The event's ``at`` and ``recorded`` (Unix seconds), read without building it."""
        row = self._rows[ident]
        return self._columns.at[row] + EPOCH_UNIX, self._columns.recorded[row] + EPOCH_UNIX

    def matching_keys(self, pattern: str) -> list[str]:
        by_key = self.by_key  # lists the keys on first use
        if not pattern.endswith("*"):
            return [pattern] if pattern in by_key else []
        prefix = pattern[:-1]
        start = bisect.bisect_left(self.keys, prefix)
        out = []
        for key in self.keys[start:]:
            if not key.startswith(prefix):
                break
            out.append(key)
        return out

    def glob_events(self, glob: str) -> set[str]:
        found = self._globs.get(glob)
        if found is None:
            found = set()
            try:
                match = compile_glob(glob).fullmatch
            except GlobError:  # a substituted glob that is no glob (`docs//x`): matches nothing
                self._globs[glob] = found
                return found
            for path, ids in self.by_path.items():
                if match(path):
                    found |= ids
            self._globs[glob] = found
        return found

    def phrase_events(self, phrase: str) -> set[str]:
        found = self._phrases.get(phrase)
        if found is None:
            wanted = self.vocabulary.phrase(phrase)
            if self._tokens is None:
                texts, tokens = self._columns.texts, self.vocabulary.tokens
                self._tokens = {
                    ident: tokens(texts[row]) for ident, row in self._rows.items() if texts[row]
                }
            width = len(wanted)
            found = {
                ident
                for ident, tokens in self._tokens.items()
                if width
                and any(
                    tuple(tokens[i : i + width]) == wanted for i in range(len(tokens) - width + 1)
                )
            }
            self._phrases[phrase] = found
        return found

    def condition_events(self, c: Condition) -> set[str]:
        """Events that meet the condition (not negated), measured on text where it is text."""
        if c.kind == "channel":
            return self.by_channel.get(c.operand, set())
        if c.kind == "kind":
            return self.by_kind.get(c.operand, set())
        if c.kind == "by":
            return self.by_actor.get(c.operand, set())
        if c.kind == "touches":
            return self.glob_events(c.operand)
        if c.kind == "text":
            return self.phrase_events(c.operand)
        out: set[str] = set()
        for key in self.matching_keys(c.operand):
            for ident in self.by_key[key]:
                if not c.has_value or sets_value(self.events[ident], key, c.value):
                    out.add(ident)
        return out


def sets_value(event: Event, key: str, value: Value | None) -> bool:
    """The event sets ``key`` to ``value`` (type-aware: ``1`` is not ``true``)."""
    return any(
        a.key == key and a.value == value and type(a.value) is type(value) for a in event.sets
    )


def declared_opening(x: Expectation, task: Task | None, index: EventIndex) -> int | None:
    """When ``x`` opens, as ``rules/prepare/opening.lp`` says (its own opening, else its
    task's; ``opened_by`` before ``opened``): only a hint for :func:`chain_facts`, which the
    rules check."""
    for source in (x, task):
        if source is None:
            continue
        if source.opened_by is not None:
            event = index.events.get(source.opened_by)
            return None if event is None else event.at
        if source.opened is not None:
            return source.opened
    return None


def chain_facts(
    index: EventIndex, family: str, items: Iterable[tuple[int, str, int | None]]
) -> Iterator[tuple]:
    """The events of each glob (``family`` ``glob``: those whose ``files`` it matches) or kind
    (``kind``) the items name, as a chain in (at, recorded, id) order, and where each item's
    part of it starts, so that an item meets only the events that could decide first (SPEC
    §5.2, issue 26 item 5; the walk and its checks are ``rules/prepare/file_touches.lp``).

    Yields ``("next", NAME, E1, E2)``: E2 follows E1 in NAME's chain; ``("from", ITEM, NAME,
    E)``: E is the first event of the chain strictly after the item's opening. One per event
    of a chain and one per item: nothing here grows with items x events.
    """
    items = list(items)
    chains: dict[str, tuple[list[int], list[str]]] = {}
    times = index.times
    for name in sorted({n for _, n, _ in items}):
        members = index.glob_events(name) if family == "glob" else index.by_kind.get(name, ())
        ordered = sorted(members, key=lambda e: (*times(e), e))
        for first, second in pairwise(ordered):
            yield ("next", name, first, second)
        chains[name] = ([times(e)[0] for e in ordered], ordered)
    for number, name, opening in items:
        ats, ordered = chains[name]
        if opening is None:
            continue
        position = bisect.bisect_right(ats, opening)
        if position < len(ordered):
            yield ("from", number, name, ordered[position])


class _Events(Mapping[str, Event]):
    """Events by id, each built from the columns on first use (the last record of an id)."""

    def __init__(self, columns: EventColumns, rows: dict[str, int]) -> None:
        self._columns = columns
        self.rows = rows
        self._built: dict[str, Event] = {}

    def __getitem__(self, ident: str) -> Event:
        event = self._built.get(ident)
        if event is None:
            event = self._built[ident] = self._columns.event_at(self.rows[ident])
        return event

    def __iter__(self) -> Iterator[str]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


class _Grouped:
    """Ids by the string one column holds, each group found when first asked (a C pass)."""

    def __init__(
        self, columns: EventColumns, column: Sequence[int], live: set[int] | None, absent=None
    ) -> None:
        self._columns, self._column, self._live = columns, column, live
        #: The name that also holds the events without a value (a kind's ``""``).
        self._absent = absent
        self._groups: dict[str, set[str]] = {}

    def get(self, name: str, default=None):
        """The ids of the events whose value is ``name`` (``default`` if none)."""
        group = self._groups.get(name)
        if group is None:
            code = self._columns.find_string(name)
            column, live = self._column, self._live
            if name == self._absent:  # no value at all counts as this name
                hits: Iterable[bool] = map(lambda c: c < 0 or c == code, column)
            elif code is None:
                hits = ()
            else:
                hits = map(code.__eq__, column)
            rows = compress(range(len(column)), hits)
            ids = self._columns.ids
            group = self._groups[name] = {ids[r] for r in rows if live is None or r in live}
        return group if group else default
