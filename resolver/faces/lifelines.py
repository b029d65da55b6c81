"""Lifelines: what was owed when, as a hand-written SVG timeline.

One row per expectation, from its opening to its close (or to the standpoint while it is still
owed), with the events that touched it as ticks: green where a transition took effect, red
where a candidate was rejected, orange for proposals. Relevant sequence gaps are hatched, the
bound is a diamond and the standpoint a dashed line across every row. Everything drawn is read
from the verdicts and from the graph built by :mod:`resolver.verdicts.graph`; nothing is
decided here. On a long history :func:`rows_shown` keeps at most N rows, chosen as the capped
graph chooses its items (:mod:`resolver.verdicts.graph.caps`: what is still owed first), and
the drawing says what it left out.

>>> from resolver import api
>>> from resolver.verdicts import graph                                    # doctest: +SKIP
>>> from resolver.faces import lifelines                                  # doctest: +SKIP
>>> history = api.prepare(["fixtures/release"])                          # doctest: +SKIP
>>> resolution = api.status(history, at="2024-08-28")                      # doctest: +SKIP
>>> drawn = graph.build(history, resolution)                               # doctest: +SKIP
>>> svg = lifelines.render(history.project, resolution, drawn)             # doctest: +SKIP
"""

from __future__ import annotations

import calendar
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html import escape

import networkx as nx

from resolver.faces import palette
from resolver.faces.safe_text import xml_document
from resolver.language.model import Project
from resolver.times import format_time
from resolver.verdicts import graph as graphs
from resolver.verdicts.graph import caps as graph_caps
from resolver.verdicts.resolution import ExpectationVerdict, Resolution

WIDTH = 1000
LEFT = 240
RIGHT = 30
TOP = 64
ROW = 40
FONT = 'font-family="Helvetica, Arial, sans-serif"'

#: Tick colours by what the event did to the expectation.
TICKS = {
    "accepted": "#2e7d32",
    "reopened": "#b71c1c",
    "rejected": "#e57373",
    "proposal": "#ef6c00",
}
_ACCEPTED = frozenset(graphs.CLOSING_EDGES)


@dataclass(frozen=True)
class Tick:
    """One event on a lifeline."""

    at: int
    event: str
    role: str
    note: str


def _parse(iso: str | None) -> int | None:
    if iso is None:
        return None
    return int(datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp())


def ticks_of(graph: nx.MultiDiGraph, ident: str) -> list[Tick]:
    """The events linked to one expectation in the graph, as ticks (candidates only)."""
    node = graphs.node_id("expectation", ident)
    found = []
    edges = list(graph.in_edges(node, data=True)) + [
        (v, u, a) for u, v, a in graph.out_edges(node, data=True)
    ]
    for other, _, attrs in edges:
        if graph.nodes[other].get("kind") != "event":
            continue
        kind = attrs["kind"]
        if kind in _ACCEPTED:
            role = "accepted"
        elif kind == "reopens":
            role = "reopened"
        elif kind == "proposal":
            role = "proposal"
        elif kind == "rejected" and attrs.get("candidate"):
            role = "rejected"
        else:
            continue
        event = graph.nodes[other]
        at = _parse(event.get("at"))
        if at is None:
            continue
        note = attrs.get("detail") or palette.edge_label(attrs)
        found.append(Tick(at, event["id"], role, f"{event['id']}: {note}"))
    return sorted(found, key=lambda t: (t.at, t.event))


def rows_shown(
    graph: nx.MultiDiGraph, max_rows: int, only: Collection[str] | None = None
) -> tuple[set[str], str | None]:
    """The expectations of ``graph`` to draw as rows and a line saying what was left out.

    At most ``max_rows`` rows (0: no limit) of the expectations in ``only`` (default: all), in
    the order :func:`graph_caps.cap` keeps items: still owed (``OPEN``, ``UNKNOWN``,
    ``NOT_OPENED``) first, then the rest, each by id.
    """
    items = [
        n
        for n, a in graph.nodes(data=True)
        if a.get("kind") == "expectation" and (only is None or a["id"] in only)
    ]
    kept, omission = graph_caps.cap(graph.subgraph(items), max_rows)
    ids = {graph.nodes[n]["id"] for n in kept}
    if omission is None:
        return ids, None
    note = (
        f"left out {omission.count:,} of {omission.total:,} expectations (rows); draw one "
        "with --focus ID, or more with --max-nodes N"
    )
    return ids, note


def _seq_index(project: Project) -> dict[tuple[str, int], list[int]]:
    """(channel, seq) -> the ``at`` of the events carrying it: built once per drawing."""
    by_seq: dict[tuple[str, int], list[int]] = {}
    for event in project.events:
        if event.seq is not None:
            by_seq.setdefault((event.channel, event.seq), []).append(event.at)
    return by_seq


def _gap_spans(
    by_seq: dict[tuple[str, int], list[int]], verdict: ExpectationVerdict
) -> list[tuple[int, int, str]]:
    """(from, to, note) for each relevant gap: between the at of its two visible neighbours."""
    spans = []
    for channel, footprint in verdict.channels.items():
        for lo, hi in footprint.relevant_gaps:
            before = by_seq.get((channel, lo - 1))
            after = by_seq.get((channel, hi + 1))
            if not before or not after:
                continue
            span = f"seq {lo}" if lo == hi else f"seq {lo}..{hi}"
            spans.append((min(before), min(after), f"{channel}: {span} missing"))
    return spans


def _ticks_axis(t0: int, t1: int) -> list[tuple[int, str]]:
    """Calendar-aligned axis ticks between t0 and t1, at most about ten."""
    start = datetime.fromtimestamp(t0, tz=UTC)
    span = t1 - t0
    day = 86400
    for hours in (6, 12):
        if span / (hours * 3600) <= 10:
            moment = start.replace(minute=0, second=0) + timedelta(hours=1)
            moment = moment.replace(hour=moment.hour - moment.hour % hours)
            return _walk(moment, t0, t1, timedelta(hours=hours), "%m-%d %Hh")
    for days in (1, 2, 7, 14):
        if span / (days * day) <= 10:
            moment = (start + timedelta(days=1)).replace(hour=0, minute=0, second=0)
            if days >= 7:
                moment += timedelta(days=(7 - moment.weekday()) % 7)
            return _walk(moment, t0, t1, timedelta(days=days), "%Y-%m-%d")
    for months in (1, 2, 3, 6, 12, 24, 60, 120):
        if span / (months * 30.4 * day) <= 10:
            out = []
            year, month = start.year, start.month
            while True:
                month += 1
                if month > 12:
                    year, month = year + 1, 1
                if (month - 1) % months and months < 12:
                    continue
                if months >= 12 and (month != 1 or year % (months // 12)):
                    continue
                moment = datetime(year, month, 1, tzinfo=UTC)
                if moment.timestamp() > t1:
                    return out
                label = str(year) if months >= 12 else f"{calendar.month_abbr[month]} {year}"
                out.append((int(moment.timestamp()), label))
    return []


def _walk(
    moment: datetime, t0: int, t1: int, step: timedelta, pattern: str
) -> list[tuple[int, str]]:
    out = []
    while moment.timestamp() <= t1:
        if moment.timestamp() >= t0:
            out.append((int(moment.timestamp()), moment.strftime(pattern)))
        moment += step
    return out


def render(
    project: Project,
    resolution: Resolution,
    graph: nx.MultiDiGraph,
    only: Collection[str] | None = None,
    note: str | None = None,
) -> str:
    """The lifelines SVG of ``resolution`` and its graph; ``only`` keeps those expectations' rows,
    and ``note`` (what :func:`rows_shown` left out) is written under the title.

    A face draws what it is given: the caller builds the graph (``resolver.verdicts.graph``).
    """
    verdicts = [v for v in resolution.expectations if only is None or v.id in only]
    verdicts.sort(key=lambda v: (v.opened_at is None, v.opened_at or 0, v.id))
    at = resolution.standpoint.at
    by_seq = _seq_index(project)
    rows = [(v, ticks_of(graph, v.id), _gap_spans(by_seq, v)) for v in verdicts]

    moments = [at]
    for v, ticks, gaps in rows:
        moments += [m for m in (v.opened_at, v.closed_at, v.bound) if m is not None]
        moments += [t.at for t in ticks]
        moments += [g[0] for g in gaps] + [g[1] for g in gaps]
    t0, t1 = min(moments), max(moments)
    pad = max((t1 - t0) // 30, 3600)
    t0, t1 = t0 - pad, t1 + pad
    usable = WIDTH - LEFT - RIGHT

    def x(moment: int) -> float:
        return round(LEFT + (moment - t0) / (t1 - t0) * usable, 1)

    top = TOP + (16 if note else 0)
    height = top + ROW * max(len(rows), 1) + 70
    known = resolution.standpoint.known
    standpoint = f"at {format_time(at)}, known " + (
        "latest" if known is None else format_time(known)
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="lifelines" {FONT} '
        f'font-size="11">',
        "<title>openloop lifelines: what was owed when</title>",
        '<defs><pattern id="ol-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#f3e5f5"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#8e24aa" stroke-width="2"/></pattern></defs>',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="12" y="22" font-size="15" font-weight="bold">Lifelines: what was owed when'
        f'</text><text x="{WIDTH - RIGHT}" y="22" text-anchor="end" fill="#555">'
        f"{escape(standpoint)}</text>",
    ]
    if note:
        out.append(f'<text x="12" y="40" fill="#6a1b9a" class="omitted">{escape(note)}</text>')
    bottom = top + ROW * max(len(rows), 1)
    for moment, label in _ticks_axis(t0, t1):
        out.append(
            f'<line x1="{x(moment)}" y1="{top - 8}" x2="{x(moment)}" y2="{bottom}" '
            f'stroke="#eeeeee"/>'
        )
        out.append(
            f'<text x="{x(moment)}" y="{top - 12}" text-anchor="middle" fill="#757575" '
            f'font-size="10">{escape(label)}</text>'
        )
    for index, (verdict, ticks, gaps) in enumerate(rows):
        out += _row(verdict, ticks, gaps, top + ROW * index, x, at, index)
    out.append(
        f'<line x1="{x(at)}" y1="{top - 8}" x2="{x(at)}" y2="{bottom + 6}" '
        f'stroke="#212121" stroke-width="1.5" stroke-dasharray="5,3"/>'
    )
    anchor = "end" if x(at) > WIDTH - RIGHT - 80 else "middle"  # keep the label inside
    out.append(
        f'<text x="{x(at)}" y="{bottom + 18}" text-anchor="{anchor}" font-weight="bold">'
        f"standpoint {escape(format_time(at)[:16].replace('T', ' '))}</text>"
    )
    out += _legend(bottom + 40)
    out.append("</svg>")
    return xml_document("\n".join(out) + "\n")


def _row(verdict, ticks, gaps, top, x, at, index) -> list[str]:
    middle = top + ROW // 2
    fill, stroke = palette.STATUS_COLOURS.get(verdict.status, ("#eeeeee", "#757575"))
    detail = verdict.tier or (verdict.confidence or "").lower()
    status = f"{verdict.status} · {detail}" if detail else verdict.status
    title = verdict.title or ""
    out = [f'<g class="lifeline" data-id="{escape(verdict.id)}">']
    if index % 2:
        out.append(f'<rect x="0" y="{top}" width="{WIDTH}" height="{ROW}" fill="#fafafa"/>')
    out.append(f"<title>{escape(' — '.join(p for p in (verdict.id, title, status) if p))}</title>")
    out.append(f'<text x="12" y="{middle - 2}" font-weight="bold">{escape(verdict.id)}</text>')
    out.append(
        f'<text x="12" y="{middle + 11}" fill="{stroke}" font-size="10">{escape(status)}</text>'
    )
    if verdict.opened_at is None:
        out.append(
            f'<text x="{LEFT}" y="{middle + 4}" fill="#9e9e9e" font-style="italic">'
            "not opened at this standpoint</text>"
        )
        out.append("</g>")
        return out
    for start, end, note in gaps:
        out.append(
            f'<rect x="{x(start)}" y="{middle - 9}" width="{max(x(end) - x(start), 4)}" '
            f'height="18" fill="url(#ol-hatch)" opacity="0.8"><title>gap: '
            f"{escape(note)}</title></rect>"
        )
    end = verdict.closed_at if verdict.closed_at is not None else at
    out.append(
        f'<rect x="{x(verdict.opened_at)}" y="{middle - 4}" '
        f'width="{max(x(end) - x(verdict.opened_at), 1)}" height="8" rx="4" fill="{fill}" '
        f'stroke="{stroke}"><title>owed from {format_time(verdict.opened_at)}'
        f"{' to ' + format_time(verdict.closed_at) if verdict.closed_at else ''}"
        "</title></rect>"
    )
    out.append(
        f'<line x1="{x(verdict.opened_at)}" y1="{middle - 10}" '
        f'x2="{x(verdict.opened_at)}" y2="{middle + 10}" stroke="#1565c0" '
        f'stroke-width="2"><title>opened {format_time(verdict.opened_at)}</title></line>'
    )
    for tick in ticks:
        colour = TICKS[tick.role]
        width = 3 if tick.role in ("accepted", "reopened") else 2
        dash = ' stroke-dasharray="2,2"' if tick.role in ("rejected", "proposal") else ""
        out.append(
            f'<line x1="{x(tick.at)}" y1="{middle - 12}" x2="{x(tick.at)}" '
            f'y2="{middle + 12}" stroke="{colour}" stroke-width="{width}"{dash}>'
            f"<title>{escape(tick.note)}</title></line>"
        )
    if verdict.closed_at is not None:
        out.append(
            f'<circle cx="{x(verdict.closed_at)}" cy="{middle}" r="5" fill="{stroke}">'
            f"<title>{escape(status)} by {escape(verdict.closed_by or '')} at "
            f"{format_time(verdict.closed_at)}</title></circle>"
        )
        out.append(
            f'<text x="{x(verdict.closed_at) + 7}" y="{middle - 8}" font-size="9" '
            f'fill="{stroke}">{escape(verdict.closed_by or "")}</text>'
        )
    if verdict.bound is not None:
        bx = x(verdict.bound)
        passed = "deadline_passed" in verdict.flags
        colour = "#c62828" if passed or "late" in verdict.flags else "#6d4c41"
        out.append(
            f'<path d="M {bx} {middle - 8} L {bx + 6} {middle} L {bx} {middle + 8} '
            f'L {bx - 6} {middle} Z" fill="none" stroke="{colour}" stroke-width="1.5">'
            f"<title>bound {format_time(verdict.bound)}"
            f"{' (deadline passed)' if passed else ''}</title></path>"
        )
    out.append("</g>")
    return out


def _legend(y: int) -> list[str]:
    items = [
        ("bar", "#ffe0b2", "#e65100", "owed (opening → close or standpoint)"),
        ("tick", TICKS["accepted"], "", "transition took effect"),
        ("tick", TICKS["rejected"], "", "rejected candidate"),
        ("tick", TICKS["proposal"], "", "proposal (no effect)"),
        ("tick", TICKS["reopened"], "", "reopened"),
        ("gap", "url(#ol-hatch)", "", "sequence gap"),
        ("bound", "#6d4c41", "", "bound"),
    ]
    out = []
    cursor = 12
    for shape, colour, stroke, text in items:
        if shape == "bar":
            out.append(
                f'<rect x="{cursor}" y="{y - 4}" width="22" height="8" rx="4" '
                f'fill="{colour}" stroke="{stroke}"/>'
            )
        elif shape == "tick":
            out.append(
                f'<line x1="{cursor + 11}" y1="{y - 8}" x2="{cursor + 11}" y2="{y + 8}" '
                f'stroke="{colour}" stroke-width="3"/>'
            )
        elif shape == "gap":
            out.append(f'<rect x="{cursor}" y="{y - 7}" width="22" height="14" fill="{colour}"/>')
        else:
            out.append(
                f'<path d="M {cursor + 11} {y - 7} L {cursor + 17} {y} L {cursor + 11} '
                f'{y + 7} L {cursor + 5} {y} Z" fill="none" stroke="{colour}"/>'
            )
        out.append(f'<text x="{cursor + 28}" y="{y + 4}" fill="#424242">{escape(text)}</text>')
        cursor += 34 + 6 * len(text)
    return out
