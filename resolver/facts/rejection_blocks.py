"""The rejected candidates in blocks, for a standpoint that shows only the key reasons.

A history's rejections (every touching event that makes no transition) are most of what a
standpoint with reasons parses and grounds: at 10k events four in five of its facts. A face that
prints only the key reasons needs of them just a count and, per role, the latest one seen (the
nearest candidate), so ``rules/standpoint/rejection_blocks.lp`` reads them in blocks. The
prepare part says which rejections go into blocks and along which chain
(``for_blocks(reject_chain(X, E, Role))``, ``rules/prepare/interface.lp``); everything else of
the reasons family passes through unchanged.

The blocks are cut for each standpoint ``(T, K)``, in ``(at, event)`` order along a chain: the
longest prefix whose members all have ``at <= T`` and ``recorded <= K``, then the members up to
the last with ``at <= T`` (with every member's atoms: some are recorded after ``K``), then the
rest. Each block carries its bounds, and the rules judge it whole, partial or unseen from them
alone, exactly as for the channel log (:mod:`resolver.facts.channel_log`); cutting decides
nothing. A chain then costs a standpoint a few facts, however long it is: two bisections here,
and the late records of its open middle.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate


@dataclass(frozen=True)
class _Chain:
    """One expectation's rejections of one role, in ``(at, event)`` order."""

    x: int
    events: tuple[int, ...]
    ats: tuple[int, ...]
    recs: tuple[int, ...]
    #: ``prefix_rec_max[i]``: the latest ``recorded`` among the first ``i + 1`` members (the
    #: prefix seen whole at ``K`` ends where it exceeds ``K``: a bisection).
    prefix_rec_max: tuple[int, ...]

    def block(self, number: int, start: int, stop: int) -> str:
        """The summary of members ``start`` to ``stop - 1`` as block ``number``."""
        recs = self.recs[start:stop]
        return (
            f"rblock({self.x},{number},{stop - start},{self.ats[start]},{self.ats[stop - 1]},"
            f"{min(recs)},{max(recs)})."
        )


class RejectionBlocks:
    """The reasons family of one prepared history, with its plain rejections in blocks.

    ``plain`` holds the ``(X, E, why, role)`` of each rejection that goes into a block,
    ``whole`` the family's other rejections ``(X, E, why)``, ``channels`` every
    ``cand_channel(X, E, C)``, ``family_events`` the ``(at, recorded, actor)`` of the events
    only the family names, and ``times_of`` every event's ``(at, recorded)``. A member's facts
    are written only when a standpoint asks for them.
    """

    def __init__(
        self,
        plain: Iterable[tuple[int, int, str, str]],
        whole: Iterable[tuple[int, int, str]],
        channels: Iterable[tuple[int, int, int]],
        family_events: Mapping[int, tuple[int, int, int]],
        times_of: Mapping[int, tuple[int, int]],
    ) -> None:
        rows: dict[tuple[int, str], list[tuple[int, int]]] = defaultdict(list)
        self._why: dict[tuple[int, int], str] = {}
        for x, e, why, role in plain:
            rows[(x, role)].append((times_of[e][0], e))
            self._why[(x, e)] = why
        self._events = family_events
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
        self._chains: list[_Chain] = []
        for (x, _role), found in sorted(rows.items()):
            found.sort()
            recs = tuple(times_of[e][1] for _, e in found)
            self._chains.append(
                _Chain(
                    x=x,
                    events=tuple(e for _, e in found),
                    ats=tuple(at for at, _ in found),
                    recs=recs,
                    prefix_rec_max=tuple(accumulate(recs, max)),
                )
            )

    def _event(self, e: int) -> str:
        at, rec, actor = self._events[e]
        return f"evt({e},{at},{rec},{actor})."

    def _member(self, number: int, x: int, e: int) -> str:
        """Block member ``e`` of ``x``: its rejection, channel and (family) event."""
        text = f"rmember({number},{e}). rejection({x},{e},{self._why[(x, e)]})."
        channel = self._channel.get((x, e))
        if channel is not None:
            text += f" cand_channel({x},{e},{channel})."
        if e in self._events:
            text += " " + self._event(e)
        return text

    def details(self, at: int, known: int) -> str:
        """The blocks of every chain, cut for the standpoint ``(at, known)``."""
        lines: list[str] = []
        number = 0
        for chain in self._chains:
            seen_at = bisect_right(chain.ats, at)  # the members with at <= T
            whole = min(seen_at, bisect_right(chain.prefix_rec_max, known))
            if whole:  # seen whole: its latest member is the latest seen of the chain
                number += 1
                lines.append(chain.block(number, 0, whole))
                lines.append(self._member(number, chain.x, chain.events[whole - 1]))
            if seen_at > whole:  # at <= T, some recorded after K: every member comes
                number += 1
                lines.append(chain.block(number, whole, seen_at))
                lines.append(f"rb_detailed({number}).")
                lines.extend(
                    self._member(number, chain.x, chain.events[i]) for i in range(whole, seen_at)
                )
            if len(chain.events) > seen_at:  # at > T: unseen
                number += 1
                lines.append(chain.block(number, seen_at, len(chain.events)))
        return "\n".join(lines) + "\n" if lines else ""
