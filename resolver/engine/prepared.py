"""Running the rules: prepare a history once, then answer any number of standpoints.

``prepare`` grounds and solves the standpoint-independent part of ``rules/*.lp`` (candidates,
tiers, authority, the transitions each event would make) once per history. Each standpoint is
then answered by a small, fresh clingo program: the ``standpoint`` part grounded over the
declarations, the prepared atoms, the channel log and two facts ``now(T)`` and ``known(K)``. A
fresh Control per standpoint keeps memory flat across many queries (measured: parts added to
one long-lived Control degrade).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property, lru_cache

from resolver import resources, times
from resolver.engine.atoms import Atoms
from resolver.engine.composed import compose
from resolver.engine.instant_chains import instant_chains
from resolver.engine.plateau import Memo, Thresholds, family
from resolver.engine.query import Query, as_query
from resolver.engine.stored_facts import NamesDiffer, StoredFacts
from resolver.facts.candidate_log import CandidateLog
from resolver.facts.interning import Interner
from resolver.facts.item_inputs import ItemInputs, candidate_chains
from resolver.facts.rejection_blocks import RejectionBlocks
from resolver.facts.standpoint_pack import StandpointFacts
from resolver.facts.writer import FactBase, build
from resolver.language.model import Project

__all__ = ["Atoms", "Kept", "Prepared", "Standpoint", "declared_atoms"]

_CLINGO_ARGS = ["--warn=none", "--models=1"]


@cache
def _rules_program() -> str:
    """The text of every rule file, read once per process."""
    return "\n".join(path.read_text(encoding="utf-8") for path in resources.rule_files())


@lru_cache(maxsize=8)
def _part_program(program: str, part: str) -> str:
    """Of the rules' text, the sections of ``base`` and ``part``: a Control grounds nothing
    else, so it need not parse the other part's files (6 ms of each standpoint's 15-20 ms of
    fixed cost). Every rule file holds one ``#program`` section."""
    sections = re.split(r"(?m)^(?=#program )", program)
    keep = ("#program base.", f"#program {part}.")
    return "".join(s for s in sections if not s.startswith("#program ") or s.startswith(keep))


def _solve(program_parts: Iterable[str], part: str, rules: str | None = None) -> Atoms:
    import clingo  # imported when a solve is needed: a lookup from the store never solves

    control = clingo.Control(_CLINGO_ARGS)
    control.add(part, [], _part_program(rules or _rules_program(), part))
    for text in program_parts:
        control.add(part, [], text)
    control.ground([("base", []), (part, [])])  # base: rules/vocabulary.lp
    shown: list[str] = []

    def on_model(model: clingo.Model) -> None:
        shown.append(str(model))

    result = control.solve(on_model=on_model)
    if result.interrupted:  # clingo catches Ctrl-C while solving: a partial answer is no answer
        raise KeyboardInterrupt
    if not result.satisfiable:
        raise RuntimeError("the rules have no answer for this history (a bug in rules/*.lp)")
    rules = int(control.statistics["problem"]["lp"]["rules"])
    return Atoms(shown[-1] if shown else "", rules)


def declared_atoms(declarations: str) -> Atoms:
    """The shown atoms of the ``prepare`` part over declarations alone (no event, no text
    link): what ``lint`` reads of roles, patterns and openings, as a full preparation derives
    them."""
    return _solve([declarations], "prepare")


def _digest(parts: Iterable[str]) -> str:
    """SHA-256 of a program's fact texts: what a stored prepare answer must have been read
    from (a stored answer is used for exactly the facts it was derived from, whatever code
    path built them)."""
    digest = hashlib.sha256()
    for text in parts:
        digest.update(text.encode("ascii", errors="backslashreplace"))
        digest.update(b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class Standpoint:
    """``(at T, known K)`` in Unix seconds; ``known`` None means ``known latest``."""

    at: int
    known: int | None

    @property
    def latest(self) -> bool:
        """True for ``known latest``: every record is seen."""
        return self.known is None


@dataclass(frozen=True)
class Kept:
    """What the store kept of a prepared history, under the key of its files and code: the
    prepare part's shown atoms and ground rules, the names they intern and the thresholds."""

    text: str
    ground_rules: int
    names: Interner
    thresholds: Sequence[int]
    #: The facts a standpoint reads beside the atoms, as the store packed them
    #: (:mod:`resolver.facts.standpoint_pack`), if kept.
    standpoint: bytes | StandpointFacts | None = None


#: The family of prepared atoms that only reasons and explanations read (rules/prepare/
#: interface.lp wraps them): the rejected candidates, their channels, the events only they name.
_REASONS_FAMILY = "for_reasons("
#: The plain rejections with the chain each belongs to (interface.lp): unwrapped into the
#: family above, and cut into blocks for a standpoint that shows only the key reasons.
_BLOCKS_FAMILY = "for_blocks("
#: The times a standpoint's answer can turn on (rules/prepare/thresholds.lp): read by the
#: plateau memo, never handed to a standpoint.
_THRESHOLD = "threshold("


class Prepared:
    """A history whose standpoint-independent derivations are done; answers standpoints.

    ``reduce`` and ``block_size`` choose the optimised path (the default) or the plain one
    (``reduce=False``: every event in the prepare part, one event per block); both give the same
    verdicts (``tests/properties/test_reduction.py``).
    """

    def __init__(
        self,
        project: Project,
        reduce: bool = True,
        block_size: int | None = None,
        stored: tuple[str, int, str] | None = None,
        on_solved: Callable[[str, int, str], None] | None = None,
        kept: Kept | None = None,
    ) -> None:
        """``stored``: the prepare part's shown atoms, ground-rule count and the digest of the
        facts they were derived from, kept by :mod:`resolver.store`: used only when these facts
        have that digest (then the prepare solve is skipped). ``on_solved`` is handed the same
        three when the prepare part is solved here. ``kept``: what the store kept under the key
        of these very files and code (:class:`Kept`): the facts are then not rebuilt unless a
        standpoint must be solved (:mod:`resolver.engine.stored_facts`)."""
        self.project = project
        self._options = (reduce, block_size)
        #: Standpoints of a default family answered once per plateau (resolver/engine/
        #: plateau.py); None solves every standpoint afresh.
        self.memo: Memo | None = Memo()
        if kept is not None and reduce and block_size is None:
            self.facts: FactBase | StoredFacts = StoredFacts(
                kept.names,
                lambda: build(project, reduce=reduce, block_size=block_size),
                kept.standpoint,
            )
            self.from_store = True
            self.__dict__["thresholds"] = Thresholds(kept.thresholds)
            self._read_prepared(Atoms(kept.text, kept.ground_rules))
            return
        self.facts = build(project, reduce=reduce, block_size=block_size)
        parts = [self.facts.declarations, self.facts.links, self.facts.events]
        digest = _digest(parts) if stored is not None or on_solved is not None else ""
        #: True when the prepare atoms came from the store (the solve was skipped).
        self.from_store = stored is not None and stored[2] == digest
        if self.from_store:
            solved = Atoms(stored[0], stored[1])
        else:
            solved = _solve(parts, "prepare")
            if on_solved is not None:
                on_solved(solved.text, solved.ground_rules, digest)
        self._read_prepared(solved)

    def _read_prepared(self, solved: Atoms) -> None:
        """Keep the prepare part's atoms, split into the families a standpoint reads on first
        use: a standpoint answered from the store reads none (0.08 s at 100k events)."""
        self._solved = solved
        self.__dict__.pop("_families", None)

    @cached_property
    def _families(self) -> tuple[Atoms, Atoms, list, list, list[int]]:
        # The reasons family reaches a standpoint unwrapped: rejection/3, cand_channel/3, evt/4.
        verdict_atoms, reason_atoms, plain, whole = [], [], [], []
        rule_thresholds: list[int] = []
        for atom in self._solved.text.split():
            if atom.startswith(_THRESHOLD):
                rule_thresholds.append(int(atom[len(_THRESHOLD) : -1]))
            elif atom.startswith(_REASONS_FAMILY):
                inner = atom[len(_REASONS_FAMILY) : -1]
                reason_atoms.append(inner)
                if inner.startswith("rejection("):  # one that stays whole (interface.lp)
                    x, e, why = inner[len("rejection(") : -1].split(",")
                    whole.append((int(x), int(e), why))
            elif atom.startswith(_BLOCKS_FAMILY):  # for_blocks(X,E,W,Role)
                x, e, why, role = atom[len(_BLOCKS_FAMILY) : -1].split(",")
                plain.append((int(x), int(e), why, role))
                reason_atoms.append(f"rejection({x},{e},{why})")
            else:
                verdict_atoms.append(atom)
        core = Atoms(" ".join(verdict_atoms), self._solved.ground_rules)
        return core, Atoms(" ".join(reason_atoms)), plain, whole, rule_thresholds

    #: The prepared atoms every standpoint reads (the reasons family apart), the reasons family,
    #: the plain and the whole rejections, and the rules' thresholds.
    core = property(lambda self: self._families[0])
    reason_inputs = property(lambda self: self._families[1])
    _plain = property(lambda self: self._families[2])
    _whole = property(lambda self: self._families[3])
    _rule_thresholds = property(lambda self: self._families[4])

    @cached_property
    def event_times(self) -> dict[int, tuple[int, int]]:
        """``(at, recorded)`` of every event a prepared atom names, by interned event."""
        times_of = {e: (at, rec) for e, at, rec, _ in self.core.get("evt")}
        times_of.update({e: (at, rec) for e, at, rec, _ in self.reason_inputs.get("evt")})
        return times_of

    @cached_property
    def same_instant_ranks(self) -> dict[int, int]:
        """The rank of each event's id among the events of its instant (``same_instant_rank/2``,
        for the events that share one): the spec's tie order, which the event numbers do not
        follow, for the chains cut in ``(at, id)`` order."""
        return dict(self.core.get("same_instant_rank"))

    @cached_property
    def _core_text(self) -> str:
        return self.core.facts() + instant_chains(self.core, self.event_times)

    @cached_property
    def candidates(self) -> CandidateLog:
        """Each item's rejected candidates by channel, in blocks, for its footprint."""
        times_of = self.event_times
        return CandidateLog(
            ((x, c, e, *times_of[e]) for x, e, c in self.reason_inputs.get("cand_channel")),
            self.facts.channel_log.block_size,
        )

    @cached_property
    def below_verify(self) -> CandidateLog:
        """Each item's touches rejected below `verify`, for its claimed_unverified flag at
        every standpoint (rules/standpoint/reasons.lp); their below_verify/3 atoms are of the
        reasons family (rules/prepare/interface.lp)."""
        times_of = self.event_times
        return CandidateLog(
            ((x, 0, e, *times_of[e]) for x, e, _, role in self._plain if role == "bv"),
            self.facts.channel_log.block_size,
            names=("bvblock", "bvdetail"),
        )

    @cached_property
    def thresholds(self) -> Thresholds:
        """Every time a standpoint's answer can turn on: the rules' ``threshold/1`` and the
        times of the channel log's events, whose blocks the engine cuts at the standpoint."""
        values = set(self._rule_thresholds)
        for _, at, rec in self.facts.channel_log.events():
            values.add(at)
            values.add(rec)
        return Thresholds(values)

    @cached_property
    def rejections(self) -> RejectionBlocks:
        """The reasons family for a standpoint that shows only the key reasons: the plain
        rejections in blocks (rules/standpoint/rejection_blocks.lp), built on first use."""
        return RejectionBlocks(
            self._plain,
            self._whole,
            self.reason_inputs.get("cand_channel"),
            {e: (at, rec, a) for e, at, rec, a in self.reason_inputs.get("evt")},
            self.event_times,
            {(x, e): tier for x, e, tier in self.reason_inputs.get("below_verify")},
            self.same_instant_ranks,
        )

    @cached_property
    def _reason_text(self) -> str:
        """The whole reasons family as facts, for a standpoint that reads every reason or
        explains; written on first use (a key-reasons standpoint reads :attr:`rejections`)."""
        return self.reason_inputs.facts()

    @cached_property
    def _item_inputs(self) -> ItemInputs:
        """The candidate chains and links, by item: read only by explanations (``nearer/3``
        and ``link/3``, rules/query/explain.lp), so left out of a standpoint that explains
        nothing, and built on first use."""
        rows = self.reason_inputs.rows
        return ItemInputs(
            lambda x: rows("cand_channel", x),
            self.event_times,
            self.facts.links,
            self.same_instant_ranks,
        )

    @cached_property
    def _chain_text(self) -> str:
        """Every item's candidate chain: a fifth of the text the whole reasons would parse."""
        return candidate_chains(
            self.reason_inputs.get("cand_channel"), self.event_times, self.same_instant_ranks
        )

    def solve(
        self, standpoint: Standpoint, query: Query | str | None = None, reasons: bool | None = None
    ) -> Atoms:
        """Derive every verdict at ``standpoint``, and what ``query`` asks; the shown atoms.

        ``reasons`` (default: the query's) False leaves out the rejected candidates, which only
        reasons and explanations read; the verdicts are the same. A query that explains (or
        gates) also gets the text linker's measurements; a gate explains what it reports in the
        same solve (rules/query/gate.lp).
        """
        asked = as_query(query)
        if reasons is not None:
            asked = replace(asked, reasons=reasons)
        return self._solve_at(standpoint, asked, asked.explaining)

    def memo_key(self, standpoint: Standpoint, query: Query) -> tuple[str, int, str] | None:
        """The plateau memo's key of ``query`` at ``standpoint``: equal keys derive the same
        atoms (:mod:`resolver.engine.plateau`); None when the standpoint is of no default
        family or nothing is memoised."""
        kind = family(standpoint.at, standpoint.known)
        if self.memo is None or kind is None:
            return None
        plateau = self.thresholds.plateau(times.encode(standpoint.at))
        return (kind, plateau, f"{int(query.reasons)}\n{query.facts()}")

    def _solve_at(self, standpoint: Standpoint, query: Query, explaining: bool) -> Atoms:
        at = times.encode(standpoint.at)
        known = times.LATEST if standpoint.known is None else times.encode(standpoint.known)
        memo, key = self.memo, self.memo_key(standpoint, query)
        if memo is None or key is None:
            return self._solve_parts(at, known, query, explaining)
        found = memo.get(key)
        if found is not None:
            return Atoms(*found)
        atoms = compose(self, standpoint, query, key) or self._solve_parts(
            at, known, query, explaining
        )
        memo.put(key, atoms.text, atoms.ground_rules)
        return atoms

    def _solve_parts(self, at: int, known: int, query: Query, explaining: bool) -> Atoms:
        if isinstance(self.facts, StoredFacts) and not self.facts.ready:
            try:
                self.facts.full()
            except NamesDiffer:  # the entry is not of these facts: prepare them afresh
                memo = self.memo
                self.__init__(self.project, *self._options)  # type: ignore[misc]
                self.memo = None if memo is None else Memo()
        log = self.facts.channel_log
        parts = [
            self.facts.declarations,
            self._core_text,
            log.static_text,
            log.details(at, known),
            self.candidates.static_text,
            self.candidates.details(at, known),
            self.below_verify.static_text,
            self.below_verify.details(at, known),
            f"now({at}).\nknown({known}).\n",
            query.facts(),
        ]
        if query.key_reasons_only and not query.explain_all:
            # Every reason only for the items explained (whole_reasons/1, key_reasons.lp); the
            # others' plain rejections in blocks. A task explained has no rejections of its own.
            items = frozenset(query.explain) if explaining else frozenset()
            parts.append(self.rejections.static_text)
            parts.append(self.rejections.details(at, known, items))
            if explaining:
                parts.append(self._item_inputs.chain_text(items))
                parts.append(self._item_inputs.links_text(items))
        else:
            if explaining or query.reasons:
                parts.append(self._reason_text)
            if explaining:
                parts.append(self._chain_text)
                parts.append(self.facts.links)
        return _solve(parts, "standpoint")
