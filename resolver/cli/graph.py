"""``openloop graph``: the dependency and provenance graph, or the lifelines, at a standpoint."""

from __future__ import annotations

import argparse
import json
import sys

import networkx as nx

from resolver import api
from resolver.cli.common import (
    add_output,
    add_paths,
    add_standpoint,
    emit,
    prepare,
    whole_number,
)
from resolver.faces import dot, lifelines, mermaid
from resolver.faces.safe_text import terminal, xml_document

FORMATS = ("dot", "mermaid", "graphml", "json", "svg", "lifelines")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``graph`` subcommand."""
    parser = subparsers.add_parser(
        "graph",
        help="draw the dependency and provenance graph (or the lifelines) at a standpoint",
        description="Build the graph of tasks, expectations, events and actors at one "
        "standpoint (edges part_of, requires, opened_by, closed_by, cancels, "
        "supersedes, waives, reopens, proposal, rejected, claims, by, "
        "principal_of) and write it as Graphviz DOT, Mermaid, GraphML, node-link "
        "JSON or SVG (needs Graphviz's dot); --format lifelines writes the "
        "timeline of what was owed when, as SVG.",
    )
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--format", choices=FORMATS, default="dot", help="output format (default: dot)"
    )
    parser.add_argument(
        "--focus",
        metavar="ID",
        help="keep one expectation's (or task's) neighbourhood: its task, "
        "what it requires and what requires it, its events and actors",
    )
    parser.add_argument(
        "--candidates",
        action="store_true",
        help="also draw the rejected candidates (dot, mermaid, svg; ticks in lifelines); by "
        "default a picture holds expectations, tasks and the events that opened or closed them",
    )
    parser.add_argument(
        "--rejected",
        choices=api.REJECTED_CHOICES,
        default=None,
        help="which rejected candidates to draw, finer than --candidates: those of open "
        "expectations, all candidates, every touching event, or none (the default without "
        "--candidates); graphml and json always hold every one",
    )
    parser.add_argument(
        "--max-nodes",
        type=count_argument,
        default=api.DEFAULT_MAX_NODES,
        metavar="N",
        help=f"draw at most N nodes in dot, mermaid and svg, and at most N rows in lifelines "
        f"(default {api.DEFAULT_MAX_NODES}; 0: no limit): tasks first, then what is "
        f"still owed; the title and standard error say what was left out",
    )
    parser.add_argument(
        "--no-legend", action="store_true", help="leave the legend out of dot, mermaid and svg"
    )
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resolve, build the graph, and write it in the chosen format."""
    prepared = prepare(args)
    rejected = args.rejected or ("candidates" if args.candidates else "none")
    # A picture without rejected candidates draws nothing the key reasons do not name; the
    # data formats (json, graphml) and the pictures with candidates need every reason.
    every = args.format in ("json", "graphml") or rejected != "none"
    point = api.standpoint(args.at, args.known)
    drawing = api.graph(prepared, point, rejected, focus=args.focus, every_reason=every)
    if args.format == "lifelines":  # ticks: the events a picture draws (rejected ones if asked)
        rows, note = lifelines.rows_shown(drawing.graph, args.max_nodes)  # --focus: its own
        if note is not None:
            print(f"openloop graph: {note}", file=sys.stderr)
        text = lifelines.render(prepared.project, drawing.resolution, drawing.drawn, rows, note)
        emit(text, args.output)
        return 0
    drawn, omission = drawing.capped(args.max_nodes)
    if omission is not None and args.format in ("dot", "mermaid", "svg"):
        print(f"openloop graph: {omission.text()}", file=sys.stderr)
    else:
        drawn = drawing.drawn
    emit(
        render(drawing.graph, args.format, rejected, legend=not args.no_legend, drawn=drawn),
        args.output,
    )
    return 0


#: ``--max-nodes``: a whole number (0 or more).
count_argument = whole_number(0)


def render(
    graph: nx.MultiDiGraph,
    form: str,
    rejected: str = "open",
    legend: bool = True,
    drawn: nx.MultiDiGraph | None = None,
) -> str:
    """The graph as text in one of :data:`FORMATS` (except ``lifelines``); ``drawn``, when
    given, is the picture to draw instead of ``drawable(graph, rejected)``."""
    if form == "graphml":
        return xml_document("\n".join(nx.generate_graphml(api.scalar_copy(graph))) + "\n")
    if form == "json":
        data = {"schema_version": 1, "kind": "graph", **node_link(graph)}
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if drawn is None:
        drawn = api.drawable(graph, rejected)
    if form == "mermaid":
        return terminal(mermaid.render(drawn, legend=legend))
    text = terminal(dot.render(drawn, legend=legend))
    return xml_document(dot.to_svg(text)) if form == "svg" else text


def node_link(graph: nx.MultiDiGraph) -> dict:
    """networkx's node-link data with edges under ``edges`` (read back with the same key),
    nodes by id and edges by source, target and key: the order of the solver's atoms (which
    any change to the rules may shuffle) never reaches the output."""
    try:
        data = nx.node_link_data(graph, edges="edges")
    except TypeError:  # networkx before 3.4 names the keyword ``link``
        data = nx.node_link_data(graph, link="edges")
    data["nodes"] = sorted(data["nodes"], key=lambda node: str(node["id"]))
    data["edges"] = sorted(
        data["edges"],
        key=lambda edge: (str(edge["source"]), str(edge["target"]), str(edge.get("key", ""))),
    )
    return data
