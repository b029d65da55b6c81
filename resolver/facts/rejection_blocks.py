"""The rejected candidates in blocks, for a standpoint that shows only the key reasons.

A history's rejections (every touching event that makes no transition) are most of what a
standpoint with reasons parses and grounds: at 10k events four in five of its facts. A face that
prints only the key reasons needs of them just a count and, per role, the latest one seen (the
nearest candidate), so ``rules/standpoint/rejection_blocks.lp`` reads them in blocks. The
prepare part says which rejections go into blocks and along which chain
(``for_blocks(X, E, Why, Role)``, ``rules/prepare/interface.lp``); everything else of the
reasons family passes through unchanged.

Each chain is a :class:`~resolver.facts.channel_log.TimeChain` in ``(at, id)`` order (the ids
of one instant ranked by ``same_instant_rank/2``, as the rules rank them), cut
afresh for each standpoint: of a detailed block (late records) every member comes with its atoms,
of any other block only its latest. The rules judge every block from its bounds alone, so the
cut decides nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from resolver.facts.candidate_log import BlockNumbers, TimeChain


class RejectionBlocks:
    """The reasons family of one prepared history, with its plain rejections in blocks.

    ``plain`` holds the ``(X, E, why, role)`` of each rejection that goes into a block,
    ``whole`` the family's other rejections ``(X, E, why)``, ``channels`` every
    ``cand_channel(X, E, C)``, ``family_events`` the ``(at, recorded, actor)`` of the events
    only the family names, ``times_of`` every event's ``(at, recorded)``, and ``below`` the
    tier of each ``below_verify(X, E, T)`` of the family (a `bv` member's), and ``ranks`` each
    ``same_instant_rank(E, K)``. A member's facts are written only when a standpoint asks for
    them.
    """

    def __init__(
        self,
        plain: Iterable[tuple[int, int, str, str]],
        whole: Iterable[tuple[int, int, str]],
        channels: Iterable[tuple[int, int, int]],
        family_events: Mapping[int, tuple[int, int, int]],
        times_of: Mapping[int, tuple[int, int]],
        below: Mapping[tuple[int, int], str] | None = None,
        ranks: Mapping[int, int] | None = None,
    ) -> None:
        rows: dict[tuple[int, str], list[tuple[int, int, int]]] = defaultdict(list)
        self._why: dict[tuple[int, int], str] = {}
        rank = (ranks or {}).get
        for x, e, why, role in plain:
            rows[(x, role)].append((times_of[e][0], rank(e, 0), e))
            self._why[(x, e)] = why
        self._events = family_events
        #: The tier of each touch rejected below `verify` (a `bv` member), whose
        #: below_verify/3 atom comes with it.
        self._below = dict(below or {})
        self._channel: dict[tuple[int, int], int] = {}
        lines = [f"rejection({x},{e},{why})." for x, e, why in whole]
        named_by_rest = {e for _, e, _ in whole}
        for x, e, c in channels:
            if (x, e) in self._why:
                self._channel[(x, e)] = c
            else:
                lines.append(f"cand_channel({x},{e},{c}).")
                named_by_rest.add(e)
        lines.extend(self._event(e) for e in sorted(named_by_rest) if e in family_events)
        #: The facts of the family that every key-reasons standpoint reads whole.
        self.static_text = "\n".join(lines) + "\n" if lines else ""
        self._chains: list[tuple[int, TimeChain, tuple[int, ...]]] = []
        self._blocks = BlockNumbers()
        for (x, _role), found in sorted(rows.items()):
            found.sort()
            chain = TimeChain([at for at, _, _ in found], [times_of[e][1] for _, _, e in found])
            self._chains.append((x, chain, tuple(e for _, _, e in found)))

    def _event(self, e: int) -> str:
        at, rec, actor = self._events[e]
        return f"evt({e},{at},{rec},{actor})."

    def _member(self, number: int, x: int, e: int) -> str:
        """Block member ``e`` of ``x``: its rejection, channel and (family) event."""
        return f"rmember({number},{e}). " + self._rejection(x, e)

    def _rejection(self, x: int, e: int) -> str:
        """Plain rejection ``(x, e)`` as the whole family has it: rejection, channel, event."""
        text = f"rejection({x},{e},{self._why[(x, e)]})."
        tier = self._below.get((x, e))
        if tier is not None:
            text += f" below_verify({x},{e},{tier})."
        channel = self._channel.get((x, e))
        if channel is not None:
            text += f" cand_channel({x},{e},{channel})."
        if e in self._events:
            text += " " + self._event(e)
        return text

    def details(self, at: int, known: int, whole: frozenset[int] = frozenset()) -> str:
        """The blocks of every chain cut for ``(at, known)``: of a detailed block every member,
        of any other its latest (the latest seen of the chain, when the block is seen). The
        plain rejections of the items in ``whole`` (those a query explains, whose every reason
        is shown: ``whole_reasons/1``, key_reasons.lp) come one by one instead, in no block."""
        lines: list[str] = []
        for index, (x, chain, events) in enumerate(self._chains):
            if x in whole:
                lines.extend(self._rejection(x, e) for e in events)
                continue
            for start, stop, detailed in chain.cut(at, known):
                number = self._blocks.number(index, start, stop)
                at_min, at_max, rec_min, rec_max = chain.bounds(start, stop)
                lines.append(
                    f"rblock({x},{number},{stop - start},{at_min},{at_max},{rec_min},{rec_max})."
                )
                if detailed:
                    lines.append(f"rb_detailed({number}).")
                    lines.extend(self._member(number, x, events[i]) for i in range(start, stop))
                else:  # the rules judge it seen whole or unseen; either way its latest suffices
                    lines.append(self._member(number, x, events[stop - 1]))
        return "\n".join(lines) + "\n" if lines else ""
