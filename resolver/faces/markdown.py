"""Markdown: the same verdicts for pull requests, issues and wikis, in the table's order.

It opens as the table does (SPEC §4): the summary line, the findings, then the outstanding items
(earliest bound first, then natural id order), closed ones only with ``--all``.

Besides the verdict table, open and unknown verdicts get a footprint table (channel by channel:
searched, through, candidates, gaps), because "not found" is only as good as the search behind
it and a reviewer should see that search without running the tool.
"""

from __future__ import annotations

from collections.abc import Iterable

from resolver.faces.safe_text import markdown, visible
from resolver.faces.screen_order import closed_items, outstanding_items, summary_line, task_bound
from resolver.faces.table import GAPS_SHOWN, search_note, snapshot_notes
from resolver.times import format_time
from resolver.verdicts.resolution import ExpectationVerdict, Resolution, TaskVerdict


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


def footprints(verdicts: Iterable[ExpectationVerdict]) -> list[str]:
    """The footprint table of every open or unknown verdict (empty when there is none)."""
    shown = [v for v in verdicts if v.open_like and v.channels]
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
                    _cell(visible(c))
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


def _row(resolution: Resolution, item: ExpectationVerdict | TaskVerdict) -> str:
    """One table row: id, title, status, bound, what closed it, and the search behind it."""
    if isinstance(item, TaskVerdict):
        bound = task_bound(resolution, item)
        owed = f"outstanding: {', '.join(item.outstanding)}" if item.outstanding else ""
        cells = (item.id, item.title or "", item.status, _time(bound), "", "", "", owed, "")
    else:
        search = search_note(item) if item.status != "NOT_OPENED" else ""
        cells = (
            item.id,
            item.title or "",
            item.status,
            _time(item.bound),
            item.closed_by or "",
            item.tier or "",
            (item.confidence or "").lower(),
            search,
            ", ".join(item.flags),
        )
    return "| " + " | ".join(_cell(visible(c)) for c in cells) + " |"


def _table(resolution: Resolution, items: list[ExpectationVerdict | TaskVerdict]) -> list[str]:
    if not items:
        return []
    return [
        "| id | title | status | bound | closed by | tier | confidence | search | flags |",
        "|---|---|---|---|---|---|---|---|---|",
        *(_row(resolution, item) for item in items),
    ]


def _time(value: int | None) -> str:
    return "" if value is None else format_time(value)


def render(resolution: Resolution, every: bool = False) -> str:
    """The first screen as the table has it (summary, findings, outstanding items by bound and
    natural id; closed ones only with ``every``), then footprints, policy instances, snapshot
    notes of the items listed."""
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    out = [f"## openloop status at {format_time(point.at)} (known {known})", ""]
    if not resolution.expectations and not resolution.tasks:
        return markdown("\n".join([*out, "No expectations declared."]) + "\n")
    out += [summary_line(resolution), ""]
    if resolution.findings:
        out += ["### Findings", ""]
        for f in resolution.findings:
            who = f" by {visible(f.by)}" if f.by else ""
            tail = f"; outstanding: {', '.join(f.outstanding)}" if f.outstanding else ""
            out.append(f"- **{f.kind}** `{f.event}`{who} on `{f.target}`{tail}")
        out.append("")
    owed = outstanding_items(resolution)
    closed = closed_items(resolution)
    listed = [*owed, *(closed if every else [])]
    out += ["### Outstanding, earliest bound first" if owed else "### Nothing outstanding", ""]
    out.extend(_table(resolution, owed))
    if every and closed:
        out += ["", "### Closed", ""]
        out.extend(_table(resolution, closed))
    if closed and not every:
        out += ["", f"{len(closed):,} closed item(s) counted above; `--all` lists them."]
    shown = [item for item in listed if isinstance(item, ExpectationVerdict)]
    out.extend(footprints(shown))
    made = [item for item in listed if item.policy]
    if made:
        out += ["", "### Policy instances", ""]
        out.extend(
            f"- `{_cell(item.id)}`: policy `{_cell(item.policy)}`, trigger `{_cell(item.trigger)}`"
            for item in made
        )
    snapshot = [(v.id, note) for v in shown for note in snapshot_notes(v)]
    if snapshot:
        out += ["", "### Snapshot", ""]
        out.extend(f"- `{ident}`: {note}" for ident, note in snapshot)
    return markdown("\n".join(out) + "\n")
