"""Events indexed for the measurements of policy conditions (``resolver/facts/policies.py``).

Each condition's events are found through an index (channel, kind, actor, sorted keys, distinct
paths) rather than by testing every event, so the work of 100 policies over a long history grows
with the matches. Globs are matched once per distinct path, phrases once per event text.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import pairwise

from resolver.facts.linker import Vocabulary
from resolver.language.globs import GlobError, compile_glob
from resolver.language.model import Condition, Event, Expectation, Task, Value

__all__ = ["EventIndex", "chain_facts", "declared_opening", "sets_value"]


class EventIndex:
    """Events by channel, kind, actor, key and path; phrases and globs measured on demand."""

    def __init__(self, events: Iterable[Event], vocabulary: Vocabulary) -> None:
        self.events = {e.id: e for e in events}
        self.by_channel: dict[str, set[str]] = defaultdict(set)
        self.by_kind: dict[str, set[str]] = defaultdict(set)
        self.by_actor: dict[str | None, set[str]] = defaultdict(set)
        self.by_key: dict[str, set[str]] = defaultdict(set)
        self.by_path: dict[str, set[str]] = defaultdict(set)
        for e in self.events.values():
            self.by_channel[e.channel].add(e.id)
            self.by_kind[e.kind or ""].add(e.id)
            self.by_actor[e.by].add(e.id)
            for a in e.sets:
                self.by_key[a.key].add(e.id)
            for path in e.files:
                self.by_path[path].add(e.id)
        self.keys = sorted(self.by_key)
        self.vocabulary = vocabulary
        self._globs: dict[str, set[str]] = {}
        self._phrases: dict[str, set[str]] = {}
        self._tokens: dict[str, list[str]] | None = None

    def matching_keys(self, pattern: str) -> list[str]:
        if not pattern.endswith("*"):
            return [pattern] if pattern in self.by_key else []
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
                self._tokens = {
                    e.id: self.vocabulary.tokens(e.text) for e in self.events.values() if e.text
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
    events = index.events
    for name in sorted({n for _, n, _ in items}):
        members = index.glob_events(name) if family == "glob" else index.by_kind.get(name, ())
        ordered = sorted(members, key=lambda e: (events[e].at, events[e].recorded, e))
        for first, second in pairwise(ordered):
            yield ("next", name, first, second)
        chains[name] = ([events[e].at for e in ordered], ordered)
    for number, name, opening in items:
        ats, ordered = chains[name]
        if opening is None:
            continue
        position = bisect.bisect_right(ats, opening)
        if position < len(ordered):
            yield ("from", number, name, ordered[position])
