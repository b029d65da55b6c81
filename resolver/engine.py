"""Running the rules: prepare a history once, then answer any number of standpoints.

``prepare`` grounds and solves the standpoint-independent part of ``rules/*.lp`` (candidates,
tiers, authority, the transitions each event would make) once per history. Each standpoint is
then answered by a small, fresh clingo program: the ``standpoint`` part grounded over the
declarations, the prepared atoms, the channel log and two facts ``now(T)`` and ``known(K)``. A
fresh Control per standpoint keeps memory flat across many queries (CLINGO-NOTES: parts added to
one long-lived Control degrade).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import clingo

from resolver import resources, times
from resolver.facts import FactBase, build
from resolver.model import Project

_CLINGO_ARGS = ["--warn=none", "--models=1"]


@dataclass(frozen=True)
class Atoms:
    """The shown atoms of one solve, grouped by predicate name (arguments as Python values)."""

    by_name: dict[str, list[tuple]]

    def get(self, name: str) -> list[tuple]:
        """All argument tuples of the shown atoms named ``name``."""
        return self.by_name.get(name, [])


def _value(symbol: clingo.Symbol):
    kind = symbol.type
    if kind == clingo.SymbolType.Number:
        return symbol.number
    if kind == clingo.SymbolType.Function:
        if not symbol.arguments:
            return symbol.name
        return (symbol.name, *(_value(a) for a in symbol.arguments))
    return str(symbol)


def _rules_program() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in resources.rule_files())


def _solve(program_parts: Iterable[str], part: str) -> tuple[Atoms, list[str]]:
    control = clingo.Control(_CLINGO_ARGS)
    control.add(part, [], _rules_program())
    for text in program_parts:
        control.add(part, [], text)
    control.ground([(part, [])])
    symbols: list[clingo.Symbol] = []

    def on_model(model: clingo.Model) -> None:
        symbols.extend(model.symbols(shown=True))

    result = control.solve(on_model=on_model)
    if not result.satisfiable:
        raise RuntimeError("the rules have no answer for this history (a bug in rules/*.lp)")
    grouped: dict[str, list[tuple]] = {}
    for symbol in symbols:
        grouped.setdefault(symbol.name, []).append(tuple(_value(a) for a in symbol.arguments))
    return Atoms(grouped), [f"{s}." for s in symbols]


@dataclass(frozen=True)
class Standpoint:
    """``(at T, known K)`` in Unix seconds; ``known`` None means ``known latest``."""

    at: int
    known: int | None

    @property
    def latest(self) -> bool:
        """True for ``known latest``: every record is seen."""
        return self.known is None


class Prepared:
    """A history whose standpoint-independent derivations are done; answers standpoints."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.facts: FactBase = build(project)
        self.core, core_lines = _solve([self.facts.declarations, self.facts.events], "prepare")
        self._core_text = "\n".join(core_lines) + "\n"

    def solve(self, standpoint: Standpoint, snapshot_facts: str = "") -> Atoms:
        """Derive every verdict at ``standpoint``; returns the shown atoms."""
        at = times.encode(standpoint.at)
        known = times.LATEST if standpoint.known is None else times.encode(standpoint.known)
        query = f"now({at}).\nknown({known}).\n{snapshot_facts}"
        atoms, _ = _solve(
            [self.facts.declarations, self._core_text, self.facts.channel_log, query],
            "standpoint",
        )
        return atoms
