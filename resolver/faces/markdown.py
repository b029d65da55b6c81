"""Markdown: the same verdicts for pull requests, issues and wikis.

Besides the verdict table, open and unknown verdicts get a footprint table (channel by channel:
searched, through, candidates, gaps), because "not found" is only as good as the search behind
it and a reviewer should see that search without running the tool.
"""

from __future__ import annotations

from resolver.faces.safe_text import markdown
from resolver.faces.table import GAPS_SHOWN, search_note, snapshot_notes
from resolver.times import format_time
from resolver.verdicts.resolution import ExpectationVerdict, Resolution


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def _gaps(verdict: ExpectationVerdict, channel: str) -> str:
    """Every gap as ``lo..hi``, the relevant ones (after the opening) in bold; past
    :data:`GAPS_SHOWN` gaps, their count and span, then the relevant ones the rules listed."""
    fp = verdict.channels[channel]
    relevant = set(fp.relevant_gaps)
    if len(fp.gaps) <= GAPS_SHOWN:
        spans = [f"**{_span(*g)}**" if g in relevant else _span(*g) for g in fp.gaps]
        return ", ".join(spans)
    text = f"{len(fp.gaps):,} gaps in {_span(fp.gaps[0][0], fp.gaps[-1][1])}"
    if fp.relevant_gaps:
        text += "; after the opening: " + ", ".join(f"**{_span(*g)}**" for g in fp.relevant_gaps)
    if fp.gaps_after:
        text += f" and {fp.gaps_after:,} later"
    return text


def footprints(resolution: Resolution) -> list[str]:
    """The footprint table of every open or unknown verdict (empty when there is none)."""
    shown = [v for v in resolution.expectations if v.open_like and v.channels]
    if not shown:
        return []
    out = [
        "",
        "### Footprints",
        "",
        "Relevant gaps (after the opening, where a closure could hide) are in bold.",
        "",
        "| expectation | confidence | channel | searched | through | candidates | gaps |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in shown:
        for name, fp in v.channels.items():
            through = format_time(fp.through) if fp.through is not None else ""
            out.append(
                "| "
                + " | ".join(
                    _cell(c)
                    for c in (
                        v.id,
                        (v.confidence or "").lower(),
                        name,
                        "yes" if fp.searched else "**no**",
                        through,
                        str(fp.candidates),
                        _gaps(v, name),
                    )
                )
                + " |"
            )
    return out


def render(resolution: Resolution) -> str:
    """A heading, a verdict table, the footprints, a task table and the findings."""
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    out = [f"## openloop status at {format_time(point.at)} (known {known})", ""]
    out.append("| expectation | status | closed by | tier | confidence | search | flags |")
    out.append("|---|---|---|---|---|---|---|")
    for v in resolution.expectations:
        search = search_note(v) if v.status != "NOT_OPENED" else ""
        out.append(
            "| "
            + " | ".join(
                _cell(c)
                for c in (
                    v.id,
                    v.status,
                    v.closed_by or "",
                    v.tier or "",
                    (v.confidence or "").lower(),
                    search,
                    ", ".join(v.flags),
                )
            )
            + " |"
        )
    out.extend(footprints(resolution))
    made = [item for item in (*resolution.expectations, *resolution.tasks) if item.policy]
    if made:
        out += ["", "### Policy instances", ""]
        out.extend(
            f"- `{_cell(item.id)}`: policy `{_cell(item.policy)}`, trigger `{_cell(item.trigger)}`"
            for item in made
        )
    snapshot = [(v.id, note) for v in resolution.expectations for note in snapshot_notes(v)]
    if snapshot:
        out += ["", "### Snapshot", ""]
        out.extend(f"- `{ident}`: {note}" for ident, note in snapshot)
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
    return markdown("\n".join(out) + "\n")
