"""What each event a claim cites supports (issue 28, item 5): so an agent learns what is missing.

``claims_complete X`` may name the events it rests on (JSON field ``evidence``, ``openloop record
--evidence E...``, the MCP ``record`` argument). The gate answers a refused claim with, for each
cited event, what the rules made of it for each obligation of X: a candidate that closed it (at
which tier), one below ``verify`` (the tier it reaches), one rejected (and why), or no candidate
at all. Every word of it comes from the explanation tree, which is the rules' atoms (``close``,
``below_verify``, the rejection reasons, ``rules/query/explain.lp``) arranged without phrasing;
nothing here decides whether an event supports anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from resolver.engine.prepared import Prepared
from resolver.faces.explanation.text import phrase
from resolver.verdicts.explanation import explain, walk
from resolver.verdicts.resolution import Resolution


def cited_support(
    prepared: Prepared, resolution: Resolution, target: str, evidence: Iterable[str]
) -> list[dict[str, Any]]:
    """Per cited event: ``{"event", "known", "supports": [{"obligation", "outcome", "text"}]}``.

    ``target`` is a task (its obligations are read) or an expectation (itself). ``known`` is
    False for an id the history does not hold. ``outcome`` is the candidate's code from the
    explanation (``closed``, ``below_verify``, ``unconfirmed_effect``, a rejection reason...).
    """
    project = prepared.project
    task = project.task(target)
    items = list(task.obligations) if task is not None else [target]
    trees = {item: explain(prepared, resolution, item) for item in items}
    report = []
    for event in dict.fromkeys(evidence):
        supports = []
        for item, tree in trees.items():
            for node in walk(tree):
                if node.kind == "candidate" and node.event == event:
                    supports.append(
                        {
                            "obligation": item,
                            "outcome": node.code,
                            "text": phrase(node, project).text,
                        }
                    )
        known = project.event(event) is not None
        report.append({"event": event, "known": known, "supports": supports})
    return report


def evidence_lines(
    prepared: Prepared, resolution: Resolution, target: str, evidence: Sequence[str]
) -> list[str]:
    """The refusal's section on the cited events, one line per event and obligation."""
    lines = ["Evidence cited:"]
    for entry in cited_support(prepared, resolution, target, evidence):
        event = entry["event"]
        if not entry["known"]:
            lines.append(f"- {event}: no such event in the history")
        elif not entry["supports"]:
            lines.append(f"- {event}: not a candidate for any obligation of {target}")
        for support in entry["supports"]:
            lines.append(f"- {event} for {support['obligation']}: {support['text']}")
    return lines
