"""An explanation tree in words: phrased, as indented text, and as the JSON document.

``resolver/verdicts/explanation/tree.py`` builds the tree from the rules' atoms with no words in it;
:func:`phrase` gives every node its sentence (``phrases.py`` for an expectation's
steps, this module for a task's, a policy instance's and the one-line key reason), keeping a
text a node already has. Three renderers read a phrased tree: :func:`render_text` (an indented
argument for a reviewer), :func:`to_json` and :func:`to_document` (the same tree for tools and
the HTML report); each phrases first, so it may be handed a tree as built. :func:`line` is the
one-line key reason, :func:`why_not_line` the one-line ``--why-not`` answer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from resolver import times
from resolver.faces.explanation.phrases import PHRASES, Phrase, reasons_text
from resolver.faces.explanation.words import event_label, sets_text, show_time
from resolver.faces.safe_text import visible
from resolver.faces.words import describe
from resolver.language.model import Project, Task
from resolver.verdicts.explanation.view import Node
from resolver.verdicts.resolution import Standpoint
from resolver.vocabulary import PENDING_STATUSES, upper

__all__ = ["line", "phrase", "render_text", "to_document", "to_json", "why_not_line"]


def phrase(node: Node, project: Project | None = None) -> Node:
    """The tree with every node's sentence; ``project`` defaults to the one the root names."""
    project = project if project is not None else node.say["project"]
    children = tuple(phrase(child, project) for child in node.children)
    text = node.text or _PHRASES[node.say.get("as", node.kind)](node, project)
    return replace(node, text=text, children=children)


def line(node: Node) -> str:
    """The one-line key reason of a ``key_reason`` node (``verdicts.explanation.key_reason_of``)."""
    return phrase(node).text


def why_not_line(tree: Node) -> str:
    """What keeps an expectation from the status it was asked about, nearest candidate
    included, in one line (empty when the tree holds no ``--why-not`` answer)."""
    tree = phrase(tree)
    answer = next((c for c in tree.children if c.kind == "why_not"), None)
    if answer is None:
        return ""
    return "; ".join(child.text for child in answer.children)


# --- renderers --------------------------------------------------------------------------------


def render_text(node: Node) -> str:
    """The tree as indented lines: the headline, sections, and ``-`` items under them."""
    lines: list[str] = []
    _render(phrase(node), 0, lines)
    return "\n".join(lines) + "\n"


def _render(node: Node, depth: int, lines: list[str]) -> None:
    text = visible(node.text)  # one node, one line: user text cannot start another
    if depth == 0:
        lines.append(text)
    elif depth == 1:
        lines.append("  " + text)
    else:
        lines.append("  " * depth + "- " + text)
    for child in node.children:
        _render(child, depth + 1, lines)


def to_json(node: Node) -> dict[str, Any]:
    """The tree as JSON-ready dicts: ``kind``, ``text``, ``code``, ``event``, ``data``,
    ``children``."""
    return _json(phrase(node))


def _json(node: Node) -> dict[str, Any]:
    return {
        "kind": node.kind,
        "text": node.text,
        "code": node.code,
        "event": node.event,
        "data": node.data,
        "children": [_json(child) for child in node.children],
    }


def to_document(node: Node, ident: str, point: Standpoint) -> dict[str, Any]:
    """The ``explain --format json`` document: the versioned envelope around :func:`to_json`."""
    known = "latest" if point.known is None else times.format_time(point.known)
    return {
        "schema_version": 1,
        "kind": "explain",
        "id": ident,
        "standpoint": {"at": times.format_time(point.at), "known": known},
        "tree": to_json(node),
    }


# --- a task, a policy instance, a key reason ----------------------------------------------------


def _task(node: Node, project: Project) -> str:
    task, verdict = node.say["task"], node.say["verdict"]
    return f"task {task.id}" + (f' "{task.title}"' if task.title else "") + f" is {verdict.status}"


def _task_opening(node: Node, project: Project) -> str:
    task: Task = node.say["task"]
    if task.opened_by:
        event = project.event(task.opened_by)
        if event is None:
            return f"opening: opened_by {task.opened_by}, which names no event in the log"
        return (
            f"opening: opened by {event_label(event)}, known from "
            f"{times.format_time(event.recorded)}"
        )
    if task.opened is not None:
        return f"opening: opened {times.format_time(task.opened)} (an oracle label)"
    return "opening: no opening of its own: obligations must name their own"


def _obligation(node: Node, project: Project) -> str:
    ov = node.say["verdict"]
    text = f"{ov.id} is {ov.status}"
    if ov.closed_by:
        text += f" (closed by {ov.closed_by}" + (f", tier {ov.tier}" if ov.tier else "") + ")"
    elif ov.confidence:
        text += f" ({ov.confidence.lower()})"
    if node.say["decides"]:
        text += ": this decides the task"
    return text


#: The rule that makes a task with obligations COMPLETE, in words (``rules/standpoint/tasks.lp``).
#: Its order is the one output has always printed, so it is written out;
#: ``tests/test_vocabulary_single_source.py`` holds it to the vocabulary's closed statuses.
COMPLETE_RULE = "COMPLETE: every obligation is SATISFIED, WAIVED, CANCELLED or SUPERSEDED"
#: What keeps a task INCOMPLETE: an obligation in a pending status.
_PENDING = " or ".join(upper(PENDING_STATUSES))


def _task_verdict(node: Node, project: Project) -> str:
    task, verdict, deciding = node.say["task"], node.say["verdict"], node.say["deciding"]
    if verdict.status == "COMPLETE":
        rule = (
            COMPLETE_RULE
            if task.obligations
            else "COMPLETE: a task with no obligations is complete"
        )
    elif verdict.status == "INCOMPLETE":
        rule = "INCOMPLETE: " + ", ".join(sorted(deciding)) + f" is {_PENDING}"
    else:
        rule = "UNKNOWN: nothing is OPEN, but " + ", ".join(sorted(deciding)) + " is UNKNOWN"
    return f"verdict: {rule}"


def _finding(node: Node, project: Project) -> str:
    finding, claim = node.say["finding"], node.say["claim"]
    who = f" by {finding.by}" if finding.by else ""
    when = show_time(claim.at) if claim else "?"
    text = f"{finding.kind}: {finding.event}{who} at {when} about {finding.target}"
    if finding.kind == "FALSE_COMPLETION":
        return (
            text
            + ": judged at its own time, outstanding then: "
            + (", ".join(finding.outstanding) or "-")
        )
    return text + ": it was complete at that time"


def _instance(node: Node, project: Project) -> str:
    data = node.data
    where = node.say["where"]
    return f"instance of policy {data['policy']} ({where}), triggered by {data['trigger']}"


def _condition(node: Node, project: Project) -> str:
    met = "met" if node.data["met"] else "not met"
    return f"{node.data['condition']}: {met} by {node.event}"


def _key(node: Node, project: Project) -> str:
    x, verdict, code, event = node.say["x"], node.say["verdict"], node.code, node.event
    if code is None:
        return verdict.status
    if code == "closed":
        tier = f", tier {verdict.tier}" if verdict.tier else ""
        return f"closed by {event}{tier} at {show_time(verdict.closed_at)}"
    if code == "not_opened":
        return phrase(node.say["opening"], project).text
    if code in ("gap", "unconfirmed_effect"):
        return "; ".join(describe(r, project, x) for r in node.say["reasons"]) or code
    if code == "reopened":
        ev = node.say["candidate"]
        why = (
            "an effective `reopens`"
            if node.say["marker"]
            else f"{sets_text(ev, x)}, contradicting the satisfied state before the bound"
            if ev is not None
            else "a contradicting state"
        )
        when = show_time(ev.at) if ev is not None else "?"
        return f"reopened by {event} at {when}: {why}"
    if code == "nearest":
        what = reasons_text(node.say["reasons"], project, x)
        return f"no closing evidence; nearest candidate {event}: {what}"
    unsearched = [r.channel for r in verdict.reasons if r.code == "unsearched"]
    tail = f" (never searched: {', '.join(unsearched)})" if unsearched else ""
    return "no closing evidence: no visible candidate touches it" + tail


def _task_key(node: Node, project: Project) -> str:
    task, verdict, deciding = node.say["task"], node.say["verdict"], node.say["deciding"]
    if not deciding:
        return f"every obligation is closed ({len(task.obligations)})"
    states = [f"{ident} is {status}" for ident, status in deciding]
    return "; ".join(states) + f" so {task.id} is {verdict.status}"


_PHRASES: dict[str, Phrase] = {
    **PHRASES,
    "task": _task,
    "task_opening": _task_opening,
    "obligations": lambda node, project: f"obligations: {node.say['count']}",
    "obligation": _obligation,
    "task_verdict": _task_verdict,
    "findings": lambda node, project: f"findings: {node.say['count']}",
    "finding": _finding,
    "instance": _instance,
    "condition": _condition,
    "key_reason": _key,
    "task_key": _task_key,
}
