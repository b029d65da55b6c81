"""Graphviz DOT text for a resolution graph, and SVG through Graphviz's ``dot`` when installed.

The DOT text is written here rather than through pydot, which is not a runtime dependency.
Layout runs left to right: actors, events, expectations, tasks. Edges whose sentence runs the
other way (``X closed_by event``, ``event by actor``) are written reversed with ``dir=back``,
so their arrows still point from subject to object while the ranks stay in that order.

>>> from resolver.faces import dot                          # doctest: +SKIP
>>> print(dot.render(graph))                                 # doctest: +SKIP
digraph openloop { ...
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Mapping

import networkx as nx

from resolver.errors import InputError
from resolver.faces import palette

#: Node shapes by kind.
SHAPES = {
    "task": "folder",
    "expectation": "box",
    "event": "note",
    "actor": "ellipse",
    "policy": "hexagon",
}
#: Edges drawn against their sentence's direction so that the left-to-right ranks hold.
_REVERSED = frozenset({"opened_by", "closed_by", "by"})
#: Edges drawn thin and unlabelled, without a say in the layout.
_QUIET = frozenset({"principal_of", "rejected"})
#: How to install Graphviz, for the message when ``dot`` is missing.
INSTALL_HINT = (
    "--format svg needs the `dot` program of Graphviz; install the graphviz package "
    "(e.g. `apt-get install graphviz`, `brew install graphviz`), or use --format dot"
)


def quote(text: object) -> str:
    """A DOT double-quoted string; backslashes and quotes escaped, line breaks as ``\\n``."""
    raw = "".join(ch if ch >= " " or ch == "\n" else " " for ch in str(text))
    escaped = raw.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _attrs(values: Mapping[str, object]) -> str:
    parts = [f"{name}={quote(value)}" for name, value in values.items() if value is not None]
    return "[" + ", ".join(parts) + "]"


def _node(node: str, attrs: Mapping, href: Callable[[Mapping], str | None] | None) -> str:
    kind = attrs.get("kind", "")
    fill, stroke = palette.colours(attrs)
    style = "rounded,filled" if kind == "expectation" else "filled"
    return f"  {quote(node)} " + _attrs(
        {
            "label": "\n".join(palette.node_lines(attrs)),
            "shape": SHAPES.get(kind, "box"),
            "style": style,
            "fillcolor": fill,
            "color": stroke,
            "penwidth": 2 if kind in ("expectation", "task") else 1,
            "tooltip": palette.tooltip(attrs),
            "href": href(attrs) if href else None,
        }
    )


def _edge(source: str, target: str, attrs: Mapping) -> str:
    kind = attrs.get("kind", "")
    colour, line, width = palette.EDGE_LOOKS.get(kind, ("#000000", "solid", 1.0))
    values: dict[str, object] = {
        "label": palette.edge_label(attrs),
        "color": colour,
        "fontcolor": colour,
        "style": line,
        "penwidth": width,
        "tooltip": attrs.get("detail") or palette.edge_label(attrs),
    }
    if kind in _QUIET:
        # Many: small or no label (the tooltip keeps it), no pull on the layout.
        values["label"] = values["label"] if kind == "rejected" else None
        values["fontsize"] = 8
        values["constraint"] = "false"
        values["arrowsize"] = 0.5
    if kind == "by":
        values["label"] = None
    if kind in _REVERSED:
        source, target = target, source
        values["dir"] = "back"
    return f"  {quote(source)} -> {quote(target)} " + _attrs(values)


def _heading(title: str, legend: bool) -> str:
    """The graph label: the title and, below it, a one-table legend (fixed words only).

    An HTML-like graph label sits above the drawing without taking part in the layout, unlike a
    legend cluster, which claims a rank of its own.
    """
    rows = [f'<TR><TD><FONT POINT-SIZE="14">{_html(title)}</FONT></TD></TR>']
    if legend:
        cells = "".join(
            f'<TD BGCOLOR="{palette.STATUS_COLOURS[s][0]}" BORDER="1" '
            f'COLOR="{palette.STATUS_COLOURS[s][1]}">{s}</TD>'
            for s in palette.EXPECTATION_STATUSES
        )
        shapes = "".join(
            f"<TD>{kind}: {shape}</TD>"
            for kind, shape in (
                ("task", "folder"),
                ("expectation", "rounded box"),
                ("event", "note"),
                ("actor", "ellipse"),
            )
        )
        edges = "".join(
            f'<TD><FONT COLOR="{palette.EDGE_LOOKS[k][0]}">'
            f"{'- - ' if palette.EDGE_LOOKS[k][1] == 'dashed' else '—— '}{k}</FONT></TD>"
            for k in palette.LEGEND_EDGES
        )
        inner = '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2"><TR>'
        rows += [f"<TR><TD>{inner}{row}</TR></TABLE></TD></TR>" for row in (cells, shapes, edges)]
    return (
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">'
        + "".join(rows)
        + "</TABLE>"
    )


def _html(text: str) -> str:
    """Text for an HTML-like label."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render(
    graph: nx.MultiDiGraph,
    legend: bool = True,
    href: Callable[[Mapping], str | None] | None = None,
) -> str:
    """The graph as DOT text; ``href`` may link nodes (e.g. to anchors in the HTML report)."""
    title = f"openloop at {graph.graph.get('at', '')} (known {graph.graph.get('known', '')})"
    if graph.graph.get("note"):  # what a capped picture left out (verdicts/graph/caps.py)
        title += f"; {graph.graph['note']}"
    out = [
        "digraph openloop {",
        "  graph "
        + _attrs(
            {
                "rankdir": "LR",
                "labelloc": "t",
                "fontsize": 9,
                "fontname": "Helvetica",
                "nodesep": 0.25,
                "ranksep": 0.9,
                "newrank": "true",
            }
        )[:-1]
        + f", label=<{_heading(title, legend)}>];",
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];',
    ]
    order = {kind: i for i, kind in enumerate(palette.KIND_ORDER)}
    nodes = sorted(graph.nodes(data=True), key=lambda n: (order.get(n[1].get("kind"), 9), n[0]))
    for kind in palette.KIND_ORDER:
        members = [n for n, a in nodes if a.get("kind") == kind]
        if members and kind in ("actor", "task"):
            out.append("  { rank=same; " + " ".join(quote(m) for m in members) + " }")
    out += [_node(node, attrs, href) for node, attrs in nodes]
    edges = sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))
    out += [_edge(u, v, attrs) for u, v, _, attrs in edges]
    out.append("}")
    return "\n".join(out) + "\n"


def have_dot() -> bool:
    """True when Graphviz's ``dot`` is on the PATH."""
    return shutil.which("dot") is not None


def to_svg(dot_text: str) -> str:
    """Lay out DOT text with ``dot -Tsvg``; ``InputError`` (exit 2) when dot is missing or fails."""
    program = shutil.which("dot")
    if program is None:
        raise InputError(INSTALL_HINT)
    try:
        done = subprocess.run(
            [program, "-Tsvg"],
            input=dot_text.encode("utf-8"),
            capture_output=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"Graphviz dot failed: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
        raise InputError(f"Graphviz dot failed: {message}")
    return done.stdout.decode("utf-8")


def strip_prolog(svg: str) -> str:
    """The ``<svg>`` element alone, without XML declaration, DOCTYPE or comments, for HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg
