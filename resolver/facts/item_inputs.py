"""What an explanation reads beyond a key-reasons standpoint, kept item by item.

Explaining one expectation used to hand the standpoint every rejected candidate of every item,
every item's candidate chain (``cnext/3``) and every link the text linker measured: at 100k
events ten seconds to explain one item, though the rules read those facts only for the items
explained (``explained/1``, ``rules/query/explain.lp``). :class:`ItemInputs` keeps the chains and
the links by item, so that a standpoint explaining a few items receives theirs alone (the
rejected candidates by item come from :class:`~resolver.facts.rejection_blocks.RejectionBlocks`).
The facts handed over are unchanged; only those no rule would read for the standpoint are left
out (``tests/test_explain_items.py`` compares the two).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from itertools import pairwise

#: The links that name an event, not an item (``resolver/facts/writer.py`` writes them): every
#: explanation reads them.
EVENT_LINKS = ("merge_kind", "done_cue")


class ItemInputs:
    """The candidate chains and the text linker's links of one history, by item.

    ``channels`` holds every ``cand_channel(X, E, C)`` of the history, ``times_of`` every
    event's ``(at, recorded)``, and ``links`` the link facts as the writer wrote them (one fact
    per line, the item first unless the name is one of :data:`EVENT_LINKS`).
    """

    def __init__(
        self,
        channels: Iterable[tuple[int, int, int]],
        times_of: Mapping[int, tuple[int, int]],
        links: str,
    ) -> None:
        chains: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for x, e, _ in channels:
            chains[x].append((times_of[e][0], e))
        self._chains = chains
        self._links: dict[int, list[str]] = defaultdict(list)
        shared: list[str] = []
        for line in links.splitlines():
            paren = line.find("(")
            if paren < 0:
                continue
            if line[:paren] in EVENT_LINKS:
                shared.append(line)
            else:
                self._links[int(line[paren + 1 : line.index(",", paren)])].append(line)
        self._shared = "".join(line + "\n" for line in shared)

    def chain_text(self, items: Iterable[int] | None = None) -> str:
        """``cnext(X, E, F)``: the candidates of each of ``items`` (None: every item) in
        ``(at, event number)`` order, each to the next; ``rules/query/explain.lp`` walks this
        chain from the nearest candidate to the nearer ones (``nearer/3``) in linear time."""
        chosen = self._chains if items is None else {x: self._chains.get(x, []) for x in items}
        lines = []
        for x, found in chosen.items():
            ordered = sorted(found)
            lines.extend(f"cnext({x},{a[1]},{b[1]})." for a, b in pairwise(ordered))
        return "\n".join(lines) + "\n" if lines else ""

    def links_text(self, items: Iterable[int]) -> str:
        """The links of ``items`` and every link that names an event."""
        own = [line for x in dict.fromkeys(items) for line in self._links.get(x, ())]
        return "".join(line + "\n" for line in own) + self._shared
