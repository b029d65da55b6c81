"""One item's or one task's answer: ``explain``, ``receipt``, ``ready``, ``brief``, ``audit``.

Each function solves a prepared history at one standpoint with the query its question needs
and returns the typed result a face renders (an explanation tree, a receipt, a ready list, a
brief, an audit); none phrases anything. The verdicts and every reason are the rules' atoms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from resolver.api.history import explained, snapshot_facts
from resolver.engine.groups import scoped
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.verdicts.resolution import resolve

if TYPE_CHECKING:
    from resolver.agents.brief import Brief
    from resolver.agents.ready import ReadyList
    from resolver.verdicts.audit import AuditResult, CloseGate
    from resolver.verdicts.explanation.view import Node
    from resolver.verdicts.receipt import Receipt

__all__ = [
    "audit",
    "brief",
    "explain",
    "judge_close",
    "prepare_closes",
    "ready",
    "receipt",
]


def explain(
    prepared: Prepared,
    point: Standpoint,
    ident: str,
    why_not: str | None = None,
    snapshot: str | Path | None = None,
    full: bool = False,
) -> Node:
    """The explanation tree of one expectation or task at ``point``.

    ``why_not`` (a status word) also says what keeps an expectation from it; ``snapshot`` (a
    file) adds the reasons a current-state snapshot gives. By default the tree is the concise
    one (:func:`resolver.verdicts.caps.concise`: the decisive candidates and the nearest
    rejected ones, the rest counted); ``full`` keeps every candidate. One solve, reading every
    reason of ``ident`` and only the key reasons of every other item.
    """
    from resolver.verdicts import caps
    from resolver.verdicts.explanation import explain as tree_of
    from resolver.verdicts.explanation import query_facts

    query = query_facts(prepared, [ident], why_not, every_reason=False)
    if snapshot is not None:
        query += replace(snapshot_facts(prepared, snapshot), every_reason=False)
    resolution = resolve(prepared, point, query)
    tree = tree_of(prepared, resolution, ident, why_not)
    return tree if full else caps.concise(prepared, resolution, tree)


def receipt(
    prepared: Prepared, point: Standpoint, task: str, full: bool = False, nearest: bool = True
) -> Receipt:
    """The work receipt of ``task`` at ``point``; an unknown task is an input error.

    By default each obligation still owed names the rejected candidates that came nearest
    (its obligations explained in the solve); ``nearest=False`` builds it from the verdicts
    alone, naming one nearest candidate per owed obligation (its key reason). ``full`` keeps
    every note and every rejected candidate of an owed obligation.
    """
    from resolver.verdicts import receipt as receipts

    declared = next((t for t in prepared.project.tasks if t.id == task), None)
    if not nearest:
        resolution = resolve(prepared, point, Query())
    elif declared is not None:
        # One solve: a declared task's obligations are known before solving, so the rules
        # explain them all at once.
        resolution = explained(prepared, point, declared.obligations)
    else:
        # A task a policy makes exists only where the rules say so: the verdicts alone (no
        # reasons: cheaper) say what it owes, then the rules explain just those.
        verdicts = resolve(prepared, point, Query(), reasons=False)
        resolution = resolve(prepared, point, receipts.explain_query(prepared, verdicts, task))
    return receipts.build(prepared, resolution, task, full=full)


def ready(prepared: Prepared, point: Standpoint) -> ReadyList:
    """The obligations that can be worked on at ``point`` (``rules/query/ready.lp``), the
    earliest bound first, and the open ones still waiting on a precondition."""
    from resolver.agents.ready import ready as ready_list

    return ready_list(prepared, point)


def brief(prepared: Prepared, point: Standpoint, budget: int | None = None) -> Brief:
    """What is owed at ``point``, most urgent first, within ``budget`` tokens (default:
    :data:`resolver.agents.brief.DEFAULT_BUDGET`)."""
    from resolver.agents.brief import DEFAULT_BUDGET
    from resolver.agents.brief import brief as brief_of

    return brief_of(prepared, point, DEFAULT_BUDGET if budget is None else budget)


def prepare_closes(paths: Sequence[str | Path], scope: str | None = None) -> Prepared:
    """The history of ``paths`` with each tracker close read as the closer's claim
    (:func:`resolver.verdicts.audit.closes_as_claims`), what an audit judges; with ``scope``,
    only that item's group of declarations. Prepared from the files (no store)."""
    from resolver.language.loader import load
    from resolver.verdicts.audit import closes_as_claims

    return Prepared(scoped(closes_as_claims(load(paths)), scope))


def audit(prepared: Prepared, now: Standpoint, since: int | None = None) -> AuditResult:
    """Every past close (at or after ``since``) judged at its own standpoint and at ``now``,
    and the false pendings (``rules/query/audit.lp``); ``prepared`` from :func:`prepare_closes`."""
    from resolver.verdicts.audit import audit as audit_of

    return audit_of(prepared, now, since)


def judge_close(prepared: Prepared, now: Standpoint, ident: str) -> CloseGate:
    """The gate at a tracker's close: would a close of ``ident`` made at ``now`` be
    supported? ``prepared`` from :func:`prepare_closes`."""
    from resolver.verdicts.audit import judge_close as judge

    return judge(prepared, now, ident)
