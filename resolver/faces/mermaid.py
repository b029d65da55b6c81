"""Mermaid ``flowchart LR`` text for a resolution graph, for GitHub to render.

We only emit the text; GitHub (or any Mermaid renderer) draws it. Put it in a Markdown file
inside a ```` ```mermaid ```` fence, or save it as ``graph.mmd``. Node ids are generated
(``n0``, ``n1``, ...) because user ids may hold characters Mermaid reads as syntax; every label
is quoted and its special characters written as Mermaid entity codes (``#quot;``).
"""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx

from resolver.faces import palette

#: Mermaid node shapes by kind: (opening, closing) around the quoted label.
SHAPES = {
    "task": ("[[", "]]"),
    "expectation": ("(", ")"),
    "event": ("[/", "/]"),
    "actor": ("([", "])"),
    "policy": ("{{", "}}"),
}
#: Edge arrows: dashed for what had no effect, thick for closings.
_ARROWS = {
    "proposal": "-.->",
    "rejected": "-.->",
    "claims": "-.->",
    "by": "-.-",
    "principal_of": "-.-",
    "closed_by": "==>",
    "cancels": "==>",
    "supersedes": "==>",
    "waives": "==>",
    "reopens": "==>",
}
_ENTITIES = {
    "#": "#35;",
    '"': "#quot;",
    "<": "#lt;",
    ">": "#gt;",
    "&": "#amp;",
    "`": "#96;",
    "|": "#124;",
    "[": "#91;",
    "]": "#93;",
    "{": "#123;",
    "}": "#125;",
}


def escape(text: object) -> str:
    """Text safe inside a quoted Mermaid label: specials as entity codes, one line."""
    return "".join(_ENTITIES.get(ch, ch if ch >= " " else " ") for ch in str(text))


def _label(lines: list[str]) -> str:
    return '"' + "<br/>".join(escape(line) for line in lines) + '"'


def _class_name(attrs: Mapping) -> str:
    status = attrs.get("status")
    name = status.lower() if status in palette.STATUS_COLOURS else str(attrs.get("kind", "node"))
    return f"is_{name}"  # a prefix keeps class names clear of Mermaid keywords (``end``)


def render(graph: nx.MultiDiGraph, legend: bool = True) -> str:
    """The graph as Mermaid flowchart text."""
    title = f"openloop at {graph.graph.get('at', '')} (known {graph.graph.get('known', '')})"
    if graph.graph.get("note"):  # what a capped picture left out (verdicts/graph/caps.py)
        title += f"; {graph.graph['note']}"
    out = ["---", f'title: "{escape(title)}"', "---", "flowchart LR"]
    order = {kind: i for i, kind in enumerate(palette.KIND_ORDER)}
    nodes = sorted(graph.nodes(data=True), key=lambda n: (order.get(n[1].get("kind"), 9), n[0]))
    ids = {node: f"n{i}" for i, (node, _) in enumerate(nodes)}
    classes: dict[str, list[str]] = {}
    for node, attrs in nodes:
        opening, closing = SHAPES.get(attrs.get("kind", ""), ("[", "]"))
        out.append(f"  {ids[node]}{opening}{_label(palette.node_lines(attrs))}{closing}")
        classes.setdefault(_class_name(attrs), []).append(ids[node])
    styles = []
    edges = sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))
    for number, (u, v, _, attrs) in enumerate(edges):
        kind = attrs.get("kind", "")
        arrow = _ARROWS.get(kind, "-->")
        label = "" if kind in ("by", "principal_of") else f"|{_label([palette.edge_label(attrs)])}|"
        out.append(f"  {ids[u]} {arrow}{label} {ids[v]}")
        colour, _, width = palette.EDGE_LOOKS.get(kind, ("#000000", "solid", 1.0))
        styles.append(f"  linkStyle {number} stroke:{colour},stroke-width:{width}px")
    if legend:
        out += _legend(classes)
        out += ["  end"]
    out += styles
    for name, (fill, stroke) in sorted(_class_colours().items()):
        out.append(f"  classDef is_{name} fill:{fill},stroke:{stroke},color:#000")
    for name, members in sorted(classes.items()):
        out.append(f"  class {','.join(members)} {name}")
    return "\n".join(out) + "\n"


def _class_colours() -> dict[str, tuple[str, str]]:
    table = {status.lower(): colour for status, colour in palette.STATUS_COLOURS.items()}
    table.update(palette.PLAIN)
    table["task"] = table["expectation"] = ("#ffffff", "#000000")
    return table


def _legend(classes: dict[str, list[str]]) -> list[str]:
    """A subgraph with one sample node per kind and per status (no edges: link indexes stay)."""
    out = ['  subgraph legend ["legend"]', "    direction TB"]
    for kind in ("task", "expectation", "event", "actor"):
        opening, closing = SHAPES[kind]
        name = f"legend_{kind}"
        out.append(f'    {name}{opening}"{kind}"{closing}')
        classes.setdefault(f"is_{kind}", []).append(name)
    for status in palette.EXPECTATION_STATUSES:
        name = f"legend_{status.lower()}"
        out.append(f'    {name}("{status}")')
        classes.setdefault(f"is_{status.lower()}", []).append(name)
    notes = [
        "==> closing: closed_by, supersedes, cancels, waives, reopens",
        "--> part_of, requires, opened_by",
        "-.-> no effect: proposal, rejected; claims",
    ]
    out.append(f"    legend_edges[{_label(notes)}]")
    return out
