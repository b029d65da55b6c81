"""The explanation tree's node and the atom view its builders read.

:class:`Node` is one step of an explanation with no words in it: what it is about and the
values its sentence is made of; a face phrases it (``resolver/faces/explanation/text.py``).
:class:`View` indexes the atoms of one solved standpoint by item, so that building the tree of
one item looks its atoms up instead of scanning them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from resolver.engine.prepared import Prepared
from resolver.verdicts.resolution import ExpectationVerdict, Resolution, TaskVerdict


@dataclass(frozen=True)
class Node:
    """One step of an explanation: what it is about, and the steps under it.

    ``kind`` says what the node is (``expectation``, ``opening``, ``candidate``, ``closing``,
    ``tie``, ``flag``...), ``code`` the rule that spoke (a rejection reason, a tier, a flag),
    ``event`` the event it is about, ``data`` the values a tool reads. ``say`` holds what the
    sentence is made of; ``text`` is empty until a face phrases the node
    (``resolver.faces.explanation.text.phrase``), which keeps a text already set.
    """

    kind: str
    text: str = ""
    code: str | None = None
    event: str | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    children: tuple[Node, ...] = ()
    say: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def walk(node: Node) -> Sequence[Node]:
    """Every node of the tree, depth first (handy for tests and reports)."""
    out = [node]
    for child in node.children:
        out.extend(walk(child))
    return out


# ---------------------------------------------------------------------------------------------
# Reading the atoms of one explained standpoint
# ---------------------------------------------------------------------------------------------


class View:
    """The atoms of one resolution, indexed by item and mapped back to ids."""

    def __init__(self, prepared: Prepared, resolution: Resolution) -> None:
        self.prepared = prepared
        self.project = prepared.project
        self.resolution = resolution
        self.facts = prepared.facts
        self.atoms = resolution.atoms

    def number(self, ident: str) -> int:
        number = self.facts.interner.get(("item", ident))
        assert number is not None
        return number

    def has_explanation(self, number: int, why_not: str | None) -> bool:
        if not (self.rows("explained", number) or self.rows("explained_task", number)):
            return False
        if why_not is None or self.project.task(self.facts.item_id(number)) is not None:
            return True
        return any(a[0] == why_not for a in self.rows("why_not", number))

    def rows(self, name: str, number: int) -> list[tuple]:
        """The arguments after the first of the ``name`` atoms whose first is ``number``: a
        dict lookup (an index per atom name, built once per solve), never a scan per item."""
        return self.atoms.rows(name, number)

    def event(self, number: int) -> str | None:
        return self.facts.event_id(number) if number else None

    def expectation(self, ident: str) -> ExpectationVerdict:
        verdict = self.resolution.expectation(ident)
        assert verdict is not None
        return verdict

    def task(self, ident: str) -> TaskVerdict:
        verdict = self.resolution.task(ident)
        assert verdict is not None
        return verdict

    def task_because(self, number: int) -> list[str]:
        return sorted(self.facts.item_id(x) for (x,) in self.rows("task_because", number))

    def principals(self, number: int) -> list[str]:
        """The actors the rules derived as principals of the item (``principal_of``)."""
        return sorted(
            name for (a,) in self.rows("principal_of", number) if (name := self.facts.actor(a))
        )
