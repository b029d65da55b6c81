"""What an explanation reads beyond a key-reasons standpoint, kept item by item.

Explaining one expectation used to hand the standpoint every rejected candidate of every item,
every item's candidate chain (``cnext/3``) and every link the text linker measured: at 100k
events ten seconds to explain one item, though the rules read those facts only for the items
explained (``explained/1``, ``rules/query/explain.lp``). :class:`ItemInputs` picks the chains and
the links of given items, so that a standpoint explaining a few items receives theirs alone (the
rejected candidates by item come from :class:`~resolver.facts.rejection_blocks.RejectionBlocks`).
The facts handed over are unchanged; only those no rule would read for the standpoint are left
out (``tests/properties/test_explain_items.py`` compares the two).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from itertools import pairwise

#: The links that name an event, not an item (``resolver/facts/writer.py`` writes them): every
#: explanation reads them.
EVENT_LINKS = ("merge_kind", "done_cue")
_EVENT_NAMES = f"(?:{'|'.join(EVENT_LINKS)})"
_EVENT_LINE = re.compile(rf"^{_EVENT_NAMES}\(.*$", re.M)


class ItemInputs:
    """The candidate chains and the text linker's links of one history, by item.

    ``channels`` maps an item to its ``cand_channel(X, E, C)`` argument rows after X (an
    :meth:`~resolver.engine.prepared.Atoms.rows` lookup), ``times_of`` gives every event's
    ``(at, recorded)``, and ``links`` holds the link facts as the writer wrote them (one fact per
    line, the item first unless the name is one of :data:`EVENT_LINKS`). Nothing is indexed in
    advance: a query explains a few items, and a scan of the text in C costs milliseconds.
    """

    def __init__(
        self,
        channels: Callable[[int], list[tuple]],
        times_of: Mapping[int, tuple[int, int]],
        links: str,
        ranks: Mapping[int, int] | None = None,
    ) -> None:
        self._channels = channels
        self._times_of = times_of
        self._links = links
        self._ranks = ranks or {}

    def chain_text(self, items: Iterable[int]) -> str:
        """``cnext(X, E, F)``: the candidates of each of ``items`` in ``(at, id)`` order (the
        ids of one instant ranked by ``same_instant_rank/2``: ``ranks``), each to the next;
        ``rules/query/explain.lp`` walks this chain from the nearest candidate to the nearer
        ones (``nearer/3``) in linear time."""
        times_of, rank = self._times_of, self._ranks.get
        chains = {x: [(times_of[e][0], rank(e, 0), e) for e, _ in self._channels(x)] for x in items}
        return _chain_text(chains)

    @cached_property
    def _shared(self) -> str:
        return "".join(line + "\n" for line in _EVENT_LINE.findall(self._links))

    def links_text(self, items: Iterable[int]) -> str:
        """The links of ``items`` and every link that names an event."""
        own = []
        for x in dict.fromkeys(items):
            own.extend(re.findall(rf"^(?!{_EVENT_NAMES}\()\w+\({x},.*$", self._links, re.M))
        return "".join(line + "\n" for line in own) + self._shared


def candidate_chains(
    channels: Iterable[tuple[int, int, int]],
    times_of: Mapping[int, tuple[int, int]],
    ranks: Mapping[int, int] | None = None,
) -> str:
    """``cnext(X, E, F)`` of every item (see :meth:`ItemInputs.chain_text`), for a standpoint
    that explains every item."""
    chains: dict[int, list[tuple[int, int, int]]] = {}
    rank = (ranks or {}).get
    for x, e, _ in channels:
        chains.setdefault(x, []).append((times_of[e][0], rank(e, 0), e))
    return _chain_text(chains)


def _chain_text(chains: Mapping[int, list[tuple[int, int, int]]]) -> str:
    """Each item's ``(at, rank, event)`` triples, sorted, as ``cnext/3`` from each to the next
    (two events of one instant both have a rank, so the event number decides nothing)."""
    lines = []
    for x, found in chains.items():
        ordered = sorted(found)
        lines.extend(f"cnext({x},{a[2]},{b[2]})." for a, b in pairwise(ordered))
    return "\n".join(lines) + "\n" if lines else ""
