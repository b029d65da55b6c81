"""One self-contained HTML page: verdicts, the graph, the lifelines and every explanation.

The page needs no network and runs no script: styles are inline, both pictures are inline SVG.
The graph is drawn by Graphviz's ``dot`` when it is installed; otherwise the page says so and
carries the Mermaid source (for GitHub) and a plain adjacency list instead.

A face draws what it is given: the command (``resolver/cli/report.py``) solves the standpoint,
builds the graph and the explanation trees and hands them over as a :class:`Page`; this module
phrases the trees and fills in the Jinja2 template ``templates/report.html.j2``, with
autoescaping on, so every piece of user text is escaped where it is written into the page.

>>> from resolver import api
>>> from resolver.cli import report as command                                # doctest: +SKIP
>>> history = api.prepare(["fixtures/release"])                              # doctest: +SKIP
>>> page = command.page(history, api.standpoint("2024-08-28"))               # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import jinja2
import networkx as nx
from markupsafe import Markup

from resolver.errors import InputError
from resolver.faces import dot, lifelines, mermaid, palette
from resolver.faces.explanation.text import phrase
from resolver.language.model import Project
from resolver.times import format_time
from resolver.verdicts.explanation.view import Node
from resolver.verdicts.resolution import Resolution

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
td { overflow-wrap: anywhere; }  /* long ids wrap on screen (a copy keeps them whole) */
td time { white-space: nowrap; }
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


@dataclass(frozen=True)
class Page:
    """Everything the page shows, solved and built by the caller.

    ``graph`` is the drawable graph (the lifelines tick its events), ``picture`` the graph as
    drawn (capped), ``omission`` what the cap left out (its sentence), ``explanations`` the tree
    of every expectation and task by id (as built, or phrased).
    """

    project: Project
    resolution: Resolution
    graph: nx.MultiDiGraph
    picture: nx.MultiDiGraph
    omission: str | None
    explanations: Mapping[str, Node]
    use_graphviz: bool = True


def anchors(resolution: Resolution) -> dict[str, str]:
    """A safe, unique HTML id for each expectation's and task's explanation."""
    table = {}
    idents = [v.id for v in resolution.expectations] + [t.id for t in resolution.tasks]
    for number, ident in enumerate(idents):
        table[ident] = f"explain-{number}-" + re.sub(r"[^A-Za-z0-9_-]", "_", ident)
    return table


@cache
def _template() -> jinja2.Template:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("resolver.faces", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    environment.filters["iso"] = format_time
    return environment.get_template("report.html.j2")


def render(page: Page) -> str:
    """The HTML page."""
    resolution, project = page.resolution, page.project
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    ids = anchors(resolution)
    svg, no_graphviz = _picture(page.picture, ids, page.use_graphviz)
    explanations = {ident: phrase(tree, project) for ident, tree in page.explanations.items()}
    return _template().render(
        title=f"openloop report at {format_time(point.at)} (known {known})",
        style=_STYLE,
        project=project,
        resolution=resolution,
        ids=ids,
        colours=lambda status: palette.STATUS_COLOURS.get(status, ("#ffffff", "#757575")),
        shown=_shown(resolution),
        count=lambda number, word: f"{number} {word}" + ("" if number == 1 else "s"),
        omission=page.omission,
        svg=svg,
        no_graphviz=no_graphviz,
        mermaid=None if svg else mermaid.render(page.picture),
        adjacency=[] if svg else _adjacency(page.picture),
        lifelines=Markup(lifelines.render(project, resolution, page.graph)),  # our own SVG
        explanations=explanations,
    )


@dataclass(frozen=True)
class _Shown:
    """What the page lists, for its header: the items of the resolution, policy instances
    included (a history whose items all come from policies declares none itself)."""

    expectations: int
    tasks: int
    expectation_instances: int
    task_instances: int


def _shown(resolution: Resolution) -> _Shown:
    return _Shown(
        expectations=len(resolution.expectations),
        tasks=len(resolution.tasks),
        expectation_instances=sum(v.policy is not None for v in resolution.expectations),
        task_instances=sum(t.policy is not None for t in resolution.tasks),
    )


def _picture(
    graph: nx.MultiDiGraph, ids: Mapping[str, str], use_graphviz: bool
) -> tuple[Markup | None, str]:
    """The graph as inline SVG drawn by dot, or why it is not drawn."""

    def href(attrs: Mapping) -> str | None:
        ident = attrs.get("id")
        if attrs.get("kind") in ("expectation", "task") and ident in ids:
            return "#" + ids[ident]
        return None

    why = "Graphviz was not used for this report (--no-graphviz)."
    if use_graphviz and dot.have_dot():
        try:
            # dot's SVG escapes every label itself (it is XML); the prolog is stripped.
            return Markup(dot.strip_prolog(dot.to_svg(dot.render(graph, href=href)))), ""
        except InputError as exc:
            why = f"Graphviz failed ({exc.detail}), so the graph is not drawn here."
    elif use_graphviz:
        why = (
            "Graphviz's dot program was not found when this report was written "
            "(install the graphviz package to draw the graph here)."
        )
    return None, why


def _adjacency(graph: nx.MultiDiGraph) -> list[tuple[str, str, str]]:
    return [
        (u, palette.edge_label(attrs), v)
        for u, v, _, attrs in sorted(graph.edges(keys=True, data=True), key=lambda e: e[:3])
        if attrs["kind"] not in ("by", "principal_of")
    ]
