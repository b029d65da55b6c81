"""How graph nodes and edges look, shared by the DOT, Mermaid and lifelines renderers.

One place for colours, shapes and labels keeps the three pictures and their legends in step.
Colours follow the status words of the rules; nothing here reads more than a node's or edge's
attributes. :func:`sentences` is the phrasing the graph builder is handed for the ``detail`` of
its ``proposal`` and ``rejected`` edges (``graph.build(prepared, resolution,
palette.sentences(project))``): the data graph holds codes, the faces their words.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping

from resolver.faces.words import describe
from resolver.language.model import Expectation, Project
from resolver.verdicts.resolution import Reason
from resolver.vocabulary import (
    CLOSE_ORDER,
    CLOSING_MARKERS,
    STATUSES,
    TASK_STATUSES,
    UNSETTLED_STATUSES,
    per_word,
    upper,
)

#: Node kinds in their left-to-right order in drawings.
KIND_ORDER = ("actor", "event", "expectation", "task")
_DONE = ("#c8e6c9", "#2e7d32")
_OWED = ("#ffe0b2", "#e65100")
_DOUBT = ("#e1bee7", "#6a1b9a")
#: Fill and stroke colours of expectation and task statuses (upper case, as nodes carry them).
STATUS_COLOURS: dict[str, tuple[str, str]] = {
    **per_word(
        STATUSES,
        {
            "SATISFIED": _DONE,
            "OPEN": _OWED,
            "UNKNOWN": _DOUBT,
            "NOT_OPENED": ("#eeeeee", "#757575"),
            "CANCELLED": ("#cfd8dc", "#455a64"),
            "SUPERSEDED": ("#bbdefb", "#1565c0"),
            "WAIVED": ("#fff9c4", "#f9a825"),
        },
    ),
    **per_word(TASK_STATUSES, {"COMPLETE": _DONE, "INCOMPLETE": _OWED, "UNKNOWN": _DOUBT}),
}
#: Statuses of expectations, in the order legends list them: the unsettled ones, then the
#: closed ones in the order their closes rank.
EXPECTATION_STATUSES = upper((*UNSETTLED_STATUSES, *CLOSE_ORDER))
#: Colours of the nodes that carry no status.
PLAIN = {
    "event": ("#ffffff", "#546e7a"),
    "actor": ("#f5f5f5", "#424242"),
    "policy": ("#e0f7fa", "#00838f"),
}

#: Edge looks: (colour, line style, pen width). Dashed edges had no effect.
EDGE_LOOKS: dict[str, tuple[str, str, float]] = {
    "part_of": ("#9e9e9e", "solid", 1.0),
    "requires": ("#212121", "solid", 2.0),
    "opened_by": ("#1565c0", "solid", 1.0),
    "closed_by": ("#2e7d32", "solid", 2.5),
    "cancels": ("#455a64", "solid", 2.5),
    "supersedes": ("#1565c0", "solid", 2.5),
    "waives": ("#f9a825", "solid", 2.5),
    "reopens": ("#c62828", "solid", 2.5),
    "proposal": ("#ef6c00", "dashed", 1.2),
    "rejected": ("#e57373", "dashed", 0.8),
    "claims": ("#6a1b9a", "dashed", 1.5),
    "by": ("#bdbdbd", "dotted", 0.8),
    "principal_of": ("#bdbdbd", "dotted", 0.8),
    "instantiates": ("#00838f", "solid", 1.2),
    "triggered_by": ("#00838f", "dotted", 1.0),
}
#: A sample of each edge look, for the legends.
LEGEND_EDGES = (
    "closed_by",
    "supersedes",
    "cancels",
    "requires",
    "opened_by",
    "proposal",
    "rejected",
    "claims",
)


def colours(attrs: Mapping) -> tuple[str, str]:
    """(fill, stroke) of a node."""
    if attrs.get("status") in STATUS_COLOURS:
        return STATUS_COLOURS[attrs["status"]]
    return PLAIN.get(attrs.get("kind", ""), ("#ffffff", "#000000"))


def _wrap(text: str, width: int = 30, lines: int = 2) -> list[str]:
    wrapped = textwrap.wrap(" ".join(text.split()), width) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: width - 1] + "…"
    return wrapped


def node_lines(attrs: Mapping) -> list[str]:
    """The lines of a node's label (plain text; each renderer escapes them)."""
    kind = attrs.get("kind")
    ident = str(attrs.get("id", ""))
    if kind == "expectation":
        lines = [ident]
        if attrs.get("title"):
            lines += _wrap(attrs["title"])
        status = attrs.get("status", "")
        extra = attrs.get("tier") or (attrs.get("confidence") or "").lower()
        lines.append(f"{status} · {extra}" if extra else status)
        if attrs.get("flags"):
            lines.append("flags: " + ", ".join(attrs["flags"]))
        return lines
    if kind == "task":
        lines = [f"task {ident}"]
        if attrs.get("title"):
            lines += _wrap(attrs["title"])
        return [*lines, attrs.get("status", "")]
    if kind == "event":
        when = (attrs.get("at") or "")[:16].replace("T", " ")
        channel = attrs.get("channel") or ""
        return [ident, f"{channel} · {when}" if channel else when]
    if kind == "actor":
        role = attrs.get("role")
        return [ident, role] if role else [ident]
    return [ident]


def tooltip(attrs: Mapping) -> str:
    """Hover text: the full title or event text, which labels shorten or leave out."""
    kind = attrs.get("kind")
    if kind == "event":
        parts = [attrs.get("id", ""), attrs.get("text") or ""]
        if attrs.get("by"):
            parts.append(f"by {attrs['by']}")
        return " — ".join(p for p in parts if p)
    parts = [attrs.get("id", ""), attrs.get("title") or "", attrs.get("status") or ""]
    return " — ".join(p for p in parts if p)


def edge_label(attrs: Mapping) -> str:
    """The short label of an edge."""
    kind = attrs.get("kind", "")
    if kind == "closed_by":
        label = f"closed_by ({attrs.get('tier')})"
        return label if attrs.get("current", True) else label + ", later reopened"
    if kind in CLOSING_MARKERS:
        label = f"{kind} (state)" if attrs.get("via") == "state" else kind
        return label if attrs.get("current", True) else label + ", later reopened"
    if kind == "reopens":
        return f"reopens ({attrs.get('how')})"
    if kind == "proposal":
        return f"proposal: {attrs.get('marker')} (no effect)"
    if kind == "rejected":
        return f"rejected: {attrs.get('reason')}"
    if kind == "claims":
        return f"claims: {str(attrs.get('finding', '')).lower()}"
    return kind


def sentences(project: Project) -> Callable[[Reason, Expectation], str]:
    """The sentence of one reason of one expectation (``words.describe``), for ``graph.build``:
    the ``detail`` of a ``proposal`` or ``rejected`` edge, shown as its tooltip or tick note."""

    def phrase(reason: Reason, expectation: Expectation) -> str:
        return describe(reason, project, expectation)

    return phrase
