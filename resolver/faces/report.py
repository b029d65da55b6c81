"""One self-contained HTML page: verdicts, the graph, the lifelines and every explanation.

The page needs no network and runs no script: styles are inline, both pictures are inline SVG.
The graph is drawn by Graphviz's ``dot`` when it is installed; otherwise the page says so and
carries the Mermaid source (for GitHub) and a plain adjacency list instead. Every piece of
user text goes through :func:`html.escape`.

>>> from resolver import api
>>> from resolver.faces import report                                         # doctest: +SKIP
>>> history = api.prepare(["fixtures/release"])                              # doctest: +SKIP
>>> page = report.render(history, api.standpoint("2024-08-28"))              # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape

import networkx as nx

from resolver.engine.prepared import Prepared, Standpoint
from resolver.errors import InputError
from resolver.faces import dot, lifelines, mermaid, palette
from resolver.faces.words import describe
from resolver.times import format_time
from resolver.verdicts import caps, graph_caps
from resolver.verdicts import graph as graphs
from resolver.verdicts.resolution import ExpectationVerdict, Resolution, resolve

try:  # the explanation tree; the page falls back to worded reasons without it
    from resolver.verdicts import explanation as explaining
except ImportError:  # pragma: no cover - only while explain.py is absent
    explaining = None  # type: ignore[assignment]

_STYLE = """
body { font: 14px/1.45 Helvetica, Arial, sans-serif; color: #212121; margin: 2em auto;
       max-width: 1200px; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid #e0e0e0; padding: 4px 6px; text-align: left;
         vertical-align: top; }
th { background: #f5f5f5; }
td:first-child, td time, td:nth-child(5) { white-space: nowrap; }
.status { display: inline-block; padding: 1px 6px; border-radius: 4px; border: 1px solid;
          font-size: 12px; font-weight: bold; }
.figure { overflow-x: auto; border: 1px solid #eee; padding: 4px; }
.figure svg { max-width: 100%; height: auto; }
.note { background: #fff8e1; border-left: 4px solid #f9a825; padding: 6px 10px; }
pre { background: #f5f5f5; padding: 8px; overflow-x: auto; font-size: 12px; }
details { margin: 0.6em 0; } summary { cursor: pointer; font-weight: bold; }
.tree ul { margin: 0.1em 0; padding-left: 1.4em; } .tree li { margin: 0.1em 0; }
.muted { color: #757575; }
"""


def anchors(resolution: Resolution) -> dict[str, str]:
    """A safe, unique HTML id for each expectation's and task's explanation."""
    table = {}
    idents = [v.id for v in resolution.expectations] + [t.id for t in resolution.tasks]
    for number, ident in enumerate(idents):
        table[ident] = f"explain-{number}-" + re.sub(r"[^A-Za-z0-9_-]", "_", ident)
    return table


def render(
    prepared: Prepared,
    standpoint: Standpoint,
    rejected: str = "none",
    use_graphviz: bool = True,
    snapshot_facts: str = "",
    max_nodes: int = graph_caps.DEFAULT_MAX_NODES,
) -> str:
    """The HTML page for one standpoint (``snapshot_facts`` from ``api.snapshot_facts``).

    The page stays small on a long history: the graph is capped at ``max_nodes`` nodes (0: no
    limit) and draws ``rejected`` candidates only when asked; each explanation is the concise
    one (:func:`resolver.verdicts.caps.concise`), collapsed until opened.
    """
    facts = explaining.query_facts(prepared, everything=True) if explaining else ""
    facts += snapshot_facts
    resolution = resolve(prepared, standpoint, facts)
    graph = graphs.build(prepared, resolution)
    drawn = graphs.drawable(graph, rejected)  # lifelines tick the same rejected candidates
    ids = anchors(resolution)
    known = "latest" if standpoint.known is None else format_time(standpoint.known)
    title = f"openloop report at {format_time(standpoint.at)} (known {known})"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        '<p class="muted">Derived by the clingo rules of openloop from '
        f"{_count(len(prepared.project.expectations), 'expectation')}, "
        f"{_count(len(prepared.project.tasks), 'task')} and "
        f"{_count(len(prepared.project.events), 'event')}. Only events that occurred by the "
        "standpoint and were recorded by its knowledge time are seen. Times are UTC.</p>",
        '<nav><a href="#verdicts">Verdicts</a><a href="#graph">Graph</a>'
        '<a href="#lifelines">Lifelines</a><a href="#explanations">Explanations</a></nav>',
        _verdicts(resolution, ids),
        _graph_section(drawn, ids, use_graphviz, max_nodes),
        '<section id="lifelines"><h2>Lifelines</h2><p>What was owed when: each bar runs from '
        "the opening to the close, or to the standpoint while still owed; ticks mark the "
        "events drawn in the graph. Hover for details."
        f'</p><div class="figure">{lifelines.render(prepared.project, resolution, drawn)}</div>'
        "</section>",
        _explanations(prepared, resolution, ids),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _badge(status: str) -> str:
    fill, stroke = palette.STATUS_COLOURS.get(status, ("#ffffff", "#757575"))
    return (
        f'<span class="status" style="background:{fill};border-color:{stroke};'
        f'color:#212121">{escape(status)}</span>'
    )


def _time(unix: int | None) -> str:
    if unix is None:
        return ""
    full = format_time(unix)
    return f'<time datetime="{full}" title="{full}">{full[:16].replace("T", " ")}</time>'


def _count(number: int, word: str) -> str:
    return f"{number} {word}" + ("" if number == 1 else "s")


def _verdicts(resolution: Resolution, ids: Mapping[str, str]) -> str:
    rows = []
    for v in resolution.expectations:
        rows.append(
            "<tr>"
            + "".join(
                f"<td>{cell}</td>"
                for cell in (
                    f'<a href="#{ids[v.id]}">{escape(v.id)}</a>',
                    escape(v.title or ""),
                    escape(v.task or ""),
                    _badge(v.status),
                    escape(v.closed_by or ""),
                    escape(v.tier or ""),
                    _time(v.closed_at),
                    escape((v.confidence or "").lower()),
                    escape(", ".join(v.flags)),
                    _time(v.opened_at),
                    _time(v.bound),
                )
            )
            + "</tr>"
        )
    out = [
        '<section id="verdicts"><h2>Verdicts</h2>',
        '<table class="verdicts"><thead><tr><th>expectation</th><th>title</th><th>task</th>'
        "<th>status</th><th>closed by</th><th>tier</th><th>closed at</th><th>confidence</th>"
        "<th>flags</th><th>opened</th><th>bound</th></tr></thead><tbody>",
        *rows,
        "</tbody></table>",
    ]
    if resolution.tasks:
        out.append(
            '<h3>Tasks</h3><table class="tasks"><thead><tr><th>task</th><th>title</th>'
            "<th>status</th><th>outstanding</th><th>findings</th></tr></thead><tbody>"
        )
        for t in resolution.tasks:
            findings = ", ".join(f"{f.kind} {f.event}" for f in t.findings)
            out.append(
                "<tr>"
                + "".join(
                    f"<td>{cell}</td>"
                    for cell in (
                        f'<a href="#{ids[t.id]}">{escape(t.id)}</a>',
                        escape(t.title or ""),
                        _badge(t.status),
                        escape(", ".join(t.outstanding)),
                        escape(findings),
                    )
                )
                + "</tr>"
            )
        out.append("</tbody></table>")
    if resolution.findings:
        out.append("<h3>Findings</h3><ul>")
        for f in resolution.findings:
            outstanding = ", ".join(f.outstanding) or "nothing"
            out.append(
                f"<li><b>{escape(f.kind)}</b>: {escape(f.event)} by "
                f"{escape(f.by or 'an unnamed actor')} about {escape(f.target)}; "
                f"outstanding then: {escape(outstanding)}</li>"
            )
        out.append("</ul>")
    out.append("</section>")
    return "\n".join(out)


def _graph_section(
    graph: nx.MultiDiGraph, ids: Mapping[str, str], use_graphviz: bool, max_nodes: int = 0
) -> str:
    graph, omission = graph_caps.cap(graph, max_nodes)
    head = (
        '<section id="graph"><h2>Dependency and provenance graph</h2>'
        "<p>Expectations and tasks coloured by status, the events that opened or closed "
        "them (and rejected candidates when asked for), and who acted. Dashed edges had no "
        "effect; each explanation names the nearest rejected candidates.</p>"
    )
    if omission is not None:
        head += f'<p class="note">This picture {escape(omission.text())}.</p>'

    def href(attrs: Mapping) -> str | None:
        ident = attrs.get("id")
        if attrs.get("kind") in ("expectation", "task") and ident in ids:
            return "#" + ids[ident]
        return None

    why = "Graphviz was not used for this report (--no-graphviz)."
    if use_graphviz and dot.have_dot():
        try:
            svg = dot.strip_prolog(dot.to_svg(dot.render(graph, href=href)))
            return head + f'<div class="figure">{svg}</div></section>'
        except InputError as exc:
            why = f"Graphviz failed ({exc.detail}), so the graph is not drawn here."
    elif use_graphviz:
        why = (
            "Graphviz's dot program was not found when this report was written "
            "(install the graphviz package to draw the graph here)."
        )
    return head + "".join(
        [
            f'<p class="note">{escape(why)} Below: the graph as Mermaid source (paste it into a '
            "```mermaid block on GitHub to see it drawn) and as a plain adjacency list.</p>",
            f'<details><summary>Mermaid source</summary><pre class="mermaid-source">'
            f"{escape(mermaid.render(graph))}</pre></details>",
            _adjacency(graph),
            "</section>",
        ]
    )


def _adjacency(graph: nx.MultiDiGraph) -> str:
    out = [
        '<table class="adjacency"><thead><tr><th>from</th><th>edge</th><th>to</th>'
        "</tr></thead><tbody>"
    ]
    for u, v, _, attrs in sorted(graph.edges(keys=True, data=True), key=lambda e: e[:3]):
        if attrs["kind"] in ("by", "principal_of"):
            continue
        out.append(
            f"<tr><td>{escape(u)}</td><td>{escape(palette.edge_label(attrs))}</td>"
            f"<td>{escape(v)}</td></tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


def _explanations(prepared: Prepared, resolution: Resolution, ids: Mapping[str, str]) -> str:
    out = [
        '<section id="explanations"><h2>Explanations</h2>',
        '<p class="muted">Open one to read its decisive argument and its nearest rejected '
        "candidates; <code>openloop explain ID --full</code> lists every candidate.</p>",
    ]
    if explaining is None:
        out.append('<p class="muted">Each verdict with the reasons the rules gave.</p>')
    for v in resolution.expectations:
        out.append(
            f'<details id="{ids[v.id]}"><summary>{escape(v.id)} {_badge(v.status)}</summary>'
        )
        out.append(_explanation(prepared, resolution, v))
        out.append("</details>")
    if explaining is not None:
        for t in resolution.tasks:
            out.append(
                f'<details id="{ids[t.id]}"><summary>task {escape(t.id)} '
                f"{_badge(t.status)}</summary>"
            )
            out.append(_tree(explaining.explain(prepared, resolution, t.id)))
            out.append("</details>")
    else:
        for t in resolution.tasks:
            out.append(f'<p id="{ids[t.id]}">task {escape(t.id)} {_badge(t.status)}</p>')
    out.append("</section>")
    return "\n".join(out)


def _explanation(prepared: Prepared, resolution: Resolution, v: ExpectationVerdict) -> str:
    if explaining is not None:
        tree = explaining.explain(prepared, resolution, v.id)
        return _tree(caps.concise(prepared, resolution, tree))
    declared = prepared.project.expectation(v.id)
    shown, _ = caps.reasons_shown(v)
    items = [f"<li>{escape(describe(r, prepared.project, declared))}</li>" for r in shown]
    return '<ul class="reasons">' + "".join(items) + "</ul>"


def _tree(node) -> str:
    """An explanation tree as nested lists (headline first)."""

    def items(children) -> str:
        if not children:
            return ""
        return (
            "<ul>"
            + "".join(f"<li>{escape(child.text)}{items(child.children)}</li>" for child in children)
            + "</ul>"
        )

    return f'<div class="tree"><p>{escape(node.text)}</p>{items(node.children)}</div>'
