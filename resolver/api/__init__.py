"""The Python interface: every command's work as a plain function.

>>> from resolver.api import prepare, status
>>> history = prepare(["fixtures/release"])                     # doctest: +SKIP
>>> status(history, at="2024-08-23").expectation("intent-401").status  # doctest: +SKIP
'OPEN'

One function per command, each taking plain values (paths, a prepared history, a
:class:`Standpoint`, ids, options) and returning the typed result a face renders; the CLI, the
MCP server, the hooks and the bench ask only these:

=============  =====================================================  =========================
command        function                                               returns
=============  =====================================================  =========================
(any)          :func:`prepare`, :func:`standpoint`                    ``Prepared``, ``Standpoint``
status         :func:`status`, :func:`status_of`                      ``Resolution``
check          :func:`check` (:func:`check_document`: its JSON)       ``Check``
explain        :func:`explain`                                        an explanation tree
receipt        :func:`receipt`                                        ``Receipt``
graph          :func:`graph`                                          ``Drawing``
report         :func:`report_page`                                    the HTML page
ready, brief   :func:`ready`, :func:`brief`                           ``ReadyList``, ``Brief``
audit          :func:`prepare_closes`, :func:`audit`, :func:`judge_close`  ``AuditResult``
lint, test     :func:`lint`, :func:`test`                             ``LintReport``, a report
=============  =====================================================  =========================

The modules behind them: :mod:`~resolver.api.history` (prepare, standpoints, status),
:mod:`~resolver.api.gating` (check), :mod:`~resolver.api.answers` (explain, receipt, ready,
brief, audit), :mod:`~resolver.api.pictures` (graph, report), :mod:`~resolver.api.authoring`
(lint, test) and :mod:`~resolver.api.parallel` (status solved in parts). Each name is imported
when first used, so that asking for a status from the store never imports networkx, Jinja2,
Lark or clingo.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each public name and the module it comes from (imported on first use: :func:`__getattr__`).
_HOMES = {
    # a history and its verdicts
    "prepare": "resolver.api.history",
    "standpoint": "resolver.api.history",
    "snapshot_facts": "resolver.api.history",
    "status": "resolver.api.history",
    "status_of": "resolver.api.history",
    "explained": "resolver.api.history",
    "scoped": "resolver.engine.groups",
    "Prepared": "resolver.engine.prepared",
    "Standpoint": "resolver.engine.prepared",
    "Query": "resolver.engine.query",
    "Resolution": "resolver.verdicts.resolution",
    "REASON_CAP": "resolver.verdicts.caps",
    "REASON_MODES": "resolver.verdicts.caps",
    # check
    "check": "resolver.api.gating",
    "check_document": "resolver.api.gating",
    "check_json": "resolver.api.gating",
    "key_reason": "resolver.api.gating",
    "scope_label": "resolver.api.gating",
    "Check": "resolver.api.gating",
    "GATE_EXIT": "resolver.api.gating",
    "gate_facts": "resolver.verdicts.gate",
    "read_gate": "resolver.verdicts.gate",
    "GateReading": "resolver.verdicts.gate",
    # one item's or task's answer
    "explain": "resolver.api.answers",
    "receipt": "resolver.api.answers",
    "ready": "resolver.api.answers",
    "brief": "resolver.api.answers",
    "prepare_closes": "resolver.api.answers",
    "audit": "resolver.api.answers",
    "judge_close": "resolver.api.answers",
    "WHY_NOT_STATUSES": "resolver.verdicts.explanation",
    "NEAREST_SHOWN": "resolver.verdicts.caps",
    "NOTES_SHOWN": "resolver.verdicts.receipt",
    "DEFAULT_BUDGET": "resolver.agents.brief",
    "CHARS_PER_TOKEN": "resolver.agents.brief",
    # pictures
    "graph": "resolver.api.pictures",
    "report_page": "resolver.api.pictures",
    "Drawing": "resolver.api.pictures",
    "drawable": "resolver.api.pictures",
    "scalar_copy": "resolver.api.pictures",
    "DEFAULT_MAX_NODES": "resolver.api.pictures",
    "REJECTED_CHOICES": "resolver.api.pictures",
    # what a user wrote
    "lint": "resolver.api.authoring",
    "test": "resolver.api.authoring",
    "LintReport": "resolver.api.authoring",
    "block_text": "resolver.api.authoring",
    "junit_xml": "resolver.api.authoring",
}

#: The public surface (every key of :data:`_HOMES`; ``tests/test_layout.py`` holds them equal).
__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_NODES",
    "GATE_EXIT",
    "NEAREST_SHOWN",
    "NOTES_SHOWN",
    "REASON_CAP",
    "REASON_MODES",
    "REJECTED_CHOICES",
    "WHY_NOT_STATUSES",
    "Check",
    "Drawing",
    "GateReading",
    "LintReport",
    "Prepared",
    "Query",
    "Resolution",
    "Standpoint",
    "audit",
    "block_text",
    "brief",
    "check",
    "check_document",
    "check_json",
    "drawable",
    "explain",
    "explained",
    "gate_facts",
    "graph",
    "judge_close",
    "junit_xml",
    "key_reason",
    "lint",
    "prepare",
    "prepare_closes",
    "read_gate",
    "ready",
    "receipt",
    "report_page",
    "scalar_copy",
    "scope_label",
    "scoped",
    "snapshot_facts",
    "standpoint",
    "status",
    "status_of",
    "test",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module when the name is first asked for (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # asked once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # what type checkers and editors see: the same names, imported eagerly
    from resolver.agents.brief import CHARS_PER_TOKEN, DEFAULT_BUDGET
    from resolver.api.answers import (
        audit,
        brief,
        explain,
        judge_close,
        prepare_closes,
        ready,
        receipt,
    )
    from resolver.api.authoring import LintReport, block_text, junit_xml, lint, test
    from resolver.api.gating import (
        GATE_EXIT,
        Check,
        check,
        check_document,
        check_json,
        key_reason,
        scope_label,
    )
    from resolver.api.history import (
        explained,
        prepare,
        snapshot_facts,
        standpoint,
        status,
        status_of,
    )
    from resolver.api.pictures import (
        DEFAULT_MAX_NODES,
        REJECTED_CHOICES,
        Drawing,
        drawable,
        graph,
        report_page,
        scalar_copy,
    )
    from resolver.engine.groups import scoped
    from resolver.engine.prepared import Prepared, Standpoint
    from resolver.engine.query import Query
    from resolver.verdicts.caps import NEAREST_SHOWN, REASON_CAP, REASON_MODES
    from resolver.verdicts.explanation import WHY_NOT_STATUSES
    from resolver.verdicts.gate import GateReading, gate_facts, read_gate
    from resolver.verdicts.receipt import NOTES_SHOWN
    from resolver.verdicts.resolution import Resolution
