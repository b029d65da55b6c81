"""The terminal table: what a person reads first, kept within 80 columns."""

from __future__ import annotations

import textwrap

from resolver.times import format_time
from resolver.verdicts import ExpectationVerdict, Resolution

WIDTH = 80


def search_note(verdict: ExpectationVerdict) -> str:
    """"searched 4/4 channels", or which channel is missing or gapped."""
    done, total = verdict.searched_count
    parts = [f"searched {done}/{total} channels"]
    missing = [name for name, fp in verdict.channels.items() if not fp.searched]
    if missing:
        parts.append("not searched: " + ", ".join(missing))
    for name, fp in verdict.channels.items():
        for lo, hi in fp.relevant_gaps:
            parts.append(f"gap in {name}: seq {lo}" + (f"..{hi}" if hi != lo else ""))
    return "; ".join(parts)


def _notes(verdict: ExpectationVerdict) -> str:
    parts = []
    if verdict.confidence:
        parts.append(verdict.confidence.lower())
    if verdict.status not in ("NOT_OPENED",):
        parts.append(search_note(verdict))
    if verdict.flags:
        parts.append("flags: " + ", ".join(verdict.flags))
    return "; ".join(parts)


def _evidence(verdict: ExpectationVerdict) -> str:
    if verdict.closed_by is None:
        return "-"
    return f"{verdict.closed_by} ({verdict.tier})" if verdict.tier else verdict.closed_by


def rows(header: tuple[str, ...], body: list[tuple[str, ...]], widths: tuple[int, ...]) -> str:
    """Fixed-width columns; the last column wraps under itself."""
    lead = sum(widths) + len(widths)
    last = max(WIDTH - lead, 20)
    lines = []
    for row in [header, *body]:
        cells = [c if len(c) <= w else c[: w - 1] + "…" for c, w in zip(row, widths, strict=False)]
        prefix = " ".join(c.ljust(w) for c, w in zip(cells, widths, strict=False)) + " "
        wrapped = textwrap.wrap(row[-1], last) or [""]
        lines.append((prefix + wrapped[0]).rstrip())
        lines.extend((" " * lead + more).rstrip() for more in wrapped[1:])
    return "\n".join(lines)


def render(resolution: Resolution) -> str:
    """The verdict table, the task table and the findings."""
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    out = [f"openloop status at {format_time(point.at)} (known {known})", ""]
    if resolution.expectations:
        widths = (26, 12)
        out.append(rows(("EXPECTATION", "STATUS", "CLOSED BY (TIER)"), [], widths))
        for verdict in resolution.expectations:
            out.append(rows((verdict.id, verdict.status, _evidence(verdict)), [], widths))
            notes = _notes(verdict)
            if notes:
                out.extend(textwrap.wrap(notes, WIDTH - 4, initial_indent="    ",
                                         subsequent_indent="    "))
    else:
        out.append("no expectations declared")
    if resolution.tasks:
        out.append("")
        body = [(t.id, t.status, ", ".join(t.outstanding) or "-") for t in resolution.tasks]
        out.append(rows(("TASK", "STATUS", "OUTSTANDING"), body, (26, 12)))
    if resolution.findings:
        out.append("")
        out.append("FINDINGS")
        for f in resolution.findings:
            who = f" by {f.by}" if f.by else ""
            tail = f": outstanding {', '.join(f.outstanding)}" if f.outstanding else ""
            out.extend(textwrap.wrap(f"{f.kind} {f.event}{who} on {f.target}{tail}", WIDTH,
                                     subsequent_indent="  "))
    return "\n".join(out) + "\n"
