"""Facts in, atoms out: solve ``rules/*.lp`` over a few integer facts and read what they derive.

The rules tests hand a part of the program (``prepare`` or ``standpoint``) a handful of facts
and assert the atoms derived, so each test names one rule's meaning and runs in milliseconds.
The rule text comes from the engine (``resolver.engine.prepared._rules_program``), so the
mutation check (``tests/mutation/run.py``) can hand every test a program with one rule deleted.
"""

from __future__ import annotations

from dataclasses import dataclass

import clingo

from resolver.engine import prepared as engine


@dataclass(frozen=True)
class Answer:
    """The atoms of one solve: ``every`` (all true atoms) and ``shown`` (the #show output)."""

    every: frozenset[str]
    shown: frozenset[str]

    def has(self, atom: str) -> bool:
        """Whether the atom (written as clingo prints it, no spaces) is derived."""
        return atom in self.every

    def named(self, name: str) -> set[str]:
        """Every derived atom of one predicate name."""
        return {a for a in self.every if a == name or a.startswith(name + "(")}

    def shows(self, atom: str) -> bool:
        """Whether the atom is in the shown output."""
        return atom in self.shown


def solve(part: str, facts: str) -> Answer:
    """Ground ``base`` and ``part`` over the rules and ``facts``; the one answer."""
    control = clingo.Control(["--warn=none", "--models=1"])
    control.add(part, [], engine._rules_program())
    control.add(part, [], facts)
    control.ground([("base", []), (part, [])])
    found: list[Answer] = []

    def on_model(model: clingo.Model) -> None:
        every = frozenset(str(s) for s in model.symbols(atoms=True))
        shown = frozenset(str(s) for s in model.symbols(shown=True))
        found.append(Answer(every, shown))

    result = control.solve(on_model=on_model)
    assert result.satisfiable, "the rules have no answer for these facts"
    return found[-1]


def prepare(facts: str) -> Answer:
    """The prepare part over ``facts``."""
    return solve("prepare", facts)


def standpoint(facts: str, now: int = 1000, known: int | None = None) -> Answer:
    """The standpoint part over ``facts`` at ``now(T)``, ``known(K)`` (default K = T)."""
    return solve("standpoint", f"now({now}). known({now if known is None else known}).\n{facts}")


def unseen_block(answer: Answer, kind: str, block: int) -> bool:
    """Whether block ``block`` of ``kind`` is judged none at the standpoint
    (rules/standpoint/blocks.lp): a span that is neither full, later nor partial."""
    spanned = any(atom.startswith(f"span({kind},{block},") for atom in answer.every)
    judged = {f"block_{word}({kind},{block})" for word in ("full", "later", "partial")}
    return spanned and not judged & answer.every
