"""Explanations: the derivation behind one verdict, as a typed tree read from the rules' atoms.

The rules decide and say why (``rules/standpoint/reasons.lp``, ``rules/query/explain.lp``);
these modules only arrange their atoms into a tree of :class:`Node` steps, each holding what
it is about (``kind``, ``code``, ``event``, ``data``) and the values its sentence is made of
(``say``: model objects, ids, times), with no words. The words are the faces' job:
``resolver/faces/explanation/text.py`` phrases a tree, renders it as indented text and as the
JSON document. This module holds the query, the entry points and the atom view; the sections
of an expectation's tree are built in ``expectation.py`` and
``sections.py``, a task's in ``task.py``.

>>> from resolver import api
>>> from resolver.faces.explanation.text import render_text
>>> from resolver.verdicts.explanation import explain_at
>>> history = api.prepare(["fixtures/release"])                          # doctest: +SKIP
>>> print(render_text(explain_at(history, api.standpoint("2024-08-23"), "intent-401")))
... # doctest: +SKIP
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from resolver import times
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.errors import InputError
from resolver.language.model import Project
from resolver.verdicts.explanation.expectation import expectation_tree, key_node
from resolver.verdicts.explanation.task import task_key_node, task_tree
from resolver.verdicts.explanation.view import Node, View, walk
from resolver.verdicts.resolution import Resolution, resolve
from resolver.vocabulary import CLOSED_STATUSES, UNSETTLED_STATUSES

__all__ = [
    "WHY_NOT_STATUSES",
    "Node",
    "View",
    "explain",
    "explain_at",
    "explained",
    "item_number",
    "key_reason_of",
    "query_facts",
    "walk",
    "why_not_word",
]

#: Statuses ``--why-not`` accepts (lower case, as the rules name them): every status, the
#: closed ones first.
WHY_NOT_STATUSES = (*CLOSED_STATUSES, *UNSETTLED_STATUSES)


# ---------------------------------------------------------------------------------------------
# The query
# ---------------------------------------------------------------------------------------------


def query_facts(
    prepared: Prepared,
    idents: Iterable[str] = (),
    why_not: str | None = None,
    everything: bool = False,
    every_reason: bool = True,
) -> Query:
    """The query asking the rules to explain ``idents`` (or ``everything``).

    ``why_not`` (one of :data:`WHY_NOT_STATUSES`) also asks what keeps them from that status.
    ``every_reason`` False reads every reason of the items explained only, and the key reasons
    and a count of every other item (``whole_reasons/1``, rules/standpoint/key_reasons.lp):
    what a face that prints the explained items' trees needs, at a fraction of the cost.
    Unknown ids raise :class:`InputError`.
    """
    return Query(
        explain=tuple(item_number(prepared, ident) for ident in idents),
        explain_all=everything,
        why_not=None if why_not is None else why_not_word(why_not),
        every_reason=every_reason,
    )


def item_number(prepared: Prepared, ident: str) -> int:
    """The integer of a declared expectation or task; unknown ids are input errors."""
    project = prepared.project
    number = prepared.facts.interner.get(("item", ident))
    if number is None or (project.expectation(ident) is None and project.task(ident) is None):
        raise InputError(f"no expectation or task named '{ident}'{_suggest(project, ident)}")
    return number


def why_not_word(status: str) -> str:
    """A ``--why-not`` status as the rules' constant; anything else is an input error."""
    word = status.strip().lower()
    if word not in WHY_NOT_STATUSES:
        raise InputError(
            f"--why-not: unknown status '{status}'; expected one of "
            + ", ".join(s.upper() for s in WHY_NOT_STATUSES)
        )
    return word


def _suggest(project: Project, ident: str) -> str:
    names = [x.id for x in project.expectations] + [t.id for t in project.tasks]
    close = difflib.get_close_matches(ident, names, n=3)
    return f" (did you mean {', '.join(close)}?)" if close else ""


# ---------------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------------


def explain_at(
    prepared: Prepared,
    standpoint: Standpoint,
    ident: str,
    why_not: str | None = None,
    extra_facts: Query | str = "",
) -> Node:
    """Solve one standpoint with ``ident`` explained and build its tree."""
    facts = query_facts(prepared, [ident], why_not, every_reason=False) + extra_facts
    return explain(prepared, resolve(prepared, standpoint, facts), ident, why_not)


def explained(
    prepared: Prepared, resolution: Resolution, ident: str, why_not: str | None = None
) -> View:
    """The atom view of ``resolution`` with ``ident`` explained (and asked ``why_not``).

    When the resolution was solved without asking the rules to explain ``ident`` (a plain
    status query), the standpoint is solved again with the question added. To explain many
    items, solve once with ``query_facts(prepared, everything=True)`` and pass that resolution.
    """
    number = item_number(prepared, ident)
    view = View(prepared, resolution)
    if not view.has_explanation(number, why_not):
        facts = query_facts(prepared, [ident], why_not, every_reason=False)
        view = View(prepared, resolve(prepared, resolution.standpoint, facts))
    return view


def explain(
    prepared: Prepared, resolution: Resolution, ident: str, why_not: str | None = None
) -> Node:
    """The explanation tree of one expectation or task at the resolution's standpoint
    (solved again with the question added when ``resolution`` did not ask it: :func:`explained`).
    """
    item_number(prepared, ident)  # an unknown id is the first error, before a bad status
    wanted = why_not_word(why_not) if why_not else None
    _check_listed(prepared, resolution, ident)
    view = explained(prepared, resolution, ident, wanted)
    expectation = prepared.project.expectation(ident)
    if expectation is not None:
        return expectation_tree(view, expectation, wanted)
    task = prepared.project.task(ident)
    assert task is not None
    return task_tree(view, task)


def _check_listed(prepared: Prepared, resolution: Resolution, ident: str) -> None:
    """A policy instance exists only where the rules list it (its trigger visible: SPEC 5.2);
    explaining it anywhere else is an input error, not a tree of nothing."""
    if resolution.expectation(ident) is not None or resolution.task(ident) is not None:
        return
    if ident not in prepared.project.derived:  # a declaration is always listed
        return
    standpoint = resolution.standpoint
    known = "latest" if standpoint.known is None else times.format_time(standpoint.known)
    raise InputError(
        f"'{ident}' is a policy instance that does not exist at {times.format_time(standpoint.at)}"
        f" (known {known}): its trigger is not visible there"
    )


def key_reason_of(prepared: Prepared, resolution: Resolution, ident: str) -> Node:
    """The one step saying why an item has its status (``key_reason`` atom, ``explain.lp``),
    a ``key_reason`` node to phrase (``resolver.faces.explanation.text.line``)."""
    expectation = prepared.project.expectation(ident)
    view = View(prepared, resolution)
    if expectation is None or not view.rows("key_reason", item_number(prepared, ident)):
        view = explained(prepared, resolution, ident)  # not keyed by this solve (no gate)
    if expectation is not None:
        return key_node(view, expectation)
    task = prepared.project.task(ident)
    assert task is not None
    return task_key_node(view, task)
