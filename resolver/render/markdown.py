"""Markdown: the same verdicts for pull requests, issues and wikis."""

from __future__ import annotations

from resolver.render.table import search_note
from resolver.times import format_time
from resolver.verdicts import Resolution


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(resolution: Resolution) -> str:
    """A heading, a verdict table, a task table and the findings."""
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    out = [f"## openloop status at {format_time(point.at)} (known {known})", ""]
    out.append("| expectation | status | closed by | tier | confidence | search | flags |")
    out.append("|---|---|---|---|---|---|---|")
    for v in resolution.expectations:
        out.append("| " + " | ".join(_cell(c) for c in (
            v.id, v.status, v.closed_by or "", v.tier or "", (v.confidence or "").lower(),
            search_note(v), ", ".join(v.flags),
        )) + " |")
    if resolution.tasks:
        out += ["", "| task | status | outstanding |", "|---|---|---|"]
        for t in resolution.tasks:
            out.append(f"| {_cell(t.id)} | {t.status} | {_cell(', '.join(t.outstanding))} |")
    if resolution.findings:
        out += ["", "### Findings", ""]
        for f in resolution.findings:
            who = f" by {f.by}" if f.by else ""
            tail = f"; outstanding: {', '.join(f.outstanding)}" if f.outstanding else ""
            out.append(f"- **{f.kind}** `{f.event}`{who} on `{f.target}`{tail}")
    return "\n".join(out) + "\n"
