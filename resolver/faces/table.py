"""The terminal table: what a person reads first, kept within 80 columns."""

from __future__ import annotations

import textwrap

from resolver.faces.safe_text import terminal
from resolver.faces.words import show_value
from resolver.times import format_time
from resolver.verdicts.resolution import ChannelFootprint, ExpectationVerdict, Resolution

WIDTH = 80
#: A footprint lists a channel's gaps one by one up to this many, else counts them.
GAPS_SHOWN = 8
#: The search note names at most this many relevant gaps per channel.
NOTED = 3


def search_note(verdict: ExpectationVerdict) -> str:
    """ "searched 4/4 channels", then which channel was never searched and which gaps matter."""
    done, total = verdict.searched_count
    parts = [f"searched {done}/{total} channels"]
    missing = [name for name, fp in verdict.channels.items() if not fp.searched]
    if missing:
        parts.append("not searched: " + ", ".join(missing))
    for name, fp in verdict.channels.items():
        parts.extend(_relevant_note(name, fp))
    return "; ".join(parts)


def _relevant_note(name: str, fp: ChannelFootprint) -> list[str]:
    """``gap in commits: seq 203`` for each relevant gap listed, at most :data:`NOTED`; beyond
    that one note: the first few and how many later gaps follow (none are multiplied)."""
    listed = fp.relevant_gaps
    if len(listed) <= NOTED and not fp.gaps_after:
        return [f"gap in {name}: seq {_span(lo, hi)}" for lo, hi in listed]
    later = max(len(listed) - NOTED, 0) + fp.gaps_after
    spans = ", ".join(_span(lo, hi) for lo, hi in listed[:NOTED])
    return [f"gaps in {name} after the opening: seq {spans}, then {later:,} later gaps"]


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}..{hi}"


def short_time(unix: int) -> str:
    """``2024-08-20 16:20`` (UTC), or the date alone at midnight: footprints need no seconds."""
    text = format_time(unix)
    day, clock = text[:10], text[11:16]
    return day if clock == "00:00" and text[17:19] == "00" else f"{day} {clock}"


def footprint_lines(verdict: ExpectationVerdict) -> list[tuple[str, str]]:
    """``(channel, what its search found)``: through when, how many candidates, every gap.

    Gaps that cannot hide a closing transition (they lie before the opening) are listed too,
    marked, because the spec lists all gaps and only the relevant ones change a status.
    """
    out = []
    for name, fp in verdict.channels.items():
        if not fp.searched or fp.through is None:
            out.append((name, "never searched"))
            continue
        noun = "candidate" if fp.candidates == 1 else "candidates"
        phrase = f"through {short_time(fp.through)}, {fp.candidates} {noun}"
        if fp.gaps and len(fp.gaps) <= GAPS_SHOWN:
            relevant = set(fp.relevant_gaps)
            spans = [
                _span(lo, hi) + ("" if (lo, hi) in relevant else " (before opening)")
                for lo, hi in fp.gaps
            ]
            phrase += ", missing seq " + ", ".join(spans)
        elif fp.gaps:  # a count and the span they cover; the search note names the relevant
            first, last = fp.gaps[0][0], fp.gaps[-1][1]
            phrase += f", {len(fp.gaps):,} gaps in seq {_span(first, last)}"
        out.append((name, phrase))
    return out


def _why_unknown(verdict: ExpectationVerdict) -> list[str]:
    effects = sorted(
        {r.event for r in verdict.reasons if r.code == "unconfirmed_effect" and r.event}
    )
    return [f"unconfirmed effect: {', '.join(effects)}"] if effects else []


def _notes(verdict: ExpectationVerdict) -> list[str]:
    """The line under a verdict: confidence, why it is unknown, the search, the flags."""
    if verdict.status == "NOT_OPENED":
        head = ["flags: " + ", ".join(verdict.flags)] if verdict.flags else []
        return ["; ".join(head)] if head else []
    parts = []
    if verdict.confidence:
        parts.append(verdict.confidence.lower())
    if "unconfirmed_effect" in verdict.doubts:
        parts.extend(_why_unknown(verdict))
    parts.append(search_note(verdict))
    if verdict.flags:
        parts.append("flags: " + ", ".join(verdict.flags))
    return ["; ".join(parts), *snapshot_notes(verdict)]


_SNAPSHOT = {
    "suggests_done": "snapshot shows the wanted value: possibly completed silently",
    "suggests_superseded": "snapshot shows the superseding state: possibly superseded silently",
    "agrees_open": "snapshot shows {value}: corroborates the open verdict",
}


def snapshot_notes(verdict: ExpectationVerdict) -> list[str]:
    """What a ``--snapshot`` said about this verdict (it never changes the status)."""
    notes = []
    for reason in verdict.reasons:
        if reason.code == "snapshot" and reason.detail in _SNAPSHOT:
            value = "another value" if reason.value is None else show_value(reason.value)
            notes.append(_SNAPSHOT[reason.detail].format(value=value))
    return notes


def _footprint_block(verdict: ExpectationVerdict) -> list[str]:
    """One aligned line per search channel, shown under open and unknown verdicts only."""
    if not verdict.open_like:
        return []
    entries = footprint_lines(verdict)
    pad = min(max((len(name) for name, _ in entries), default=0), 16)
    lines = []
    for name, phrase in entries:
        lead = "      " + name.ljust(pad) + "  "
        lines.extend(
            textwrap.wrap(
                phrase,
                WIDTH,
                initial_indent=lead,
                subsequent_indent=" " * len(lead),
                break_on_hyphens=False,
            )
        )
    return lines


def _made_by(verdict: ExpectationVerdict) -> list[str]:
    """``from policy P, trigger E`` under a policy instance (SPEC 5.2)."""
    if verdict.policy is None:
        return []
    return [f"from policy {verdict.policy}, trigger {verdict.trigger}"]


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
            ident = verdict.id
            if len(ident) > widths[0]:  # long ids (policy instances) get a line of their own
                out.append(ident)
                ident = ""
            out.append(rows((ident, verdict.status, _evidence(verdict)), [], widths))
            for note in [*_made_by(verdict), *_notes(verdict)]:
                out.extend(
                    textwrap.wrap(
                        note,
                        WIDTH,
                        initial_indent="    ",
                        subsequent_indent="      ",
                        break_on_hyphens=False,
                    )
                )
            out.extend(_footprint_block(verdict))
    else:
        out.append("no expectations declared")
    if resolution.tasks:
        out.append("")
        out.append(rows(("TASK", "STATUS", "OUTSTANDING"), [], (26, 12)))
        for t in resolution.tasks:
            ident = t.id
            if len(ident) > 26:
                out.append(ident)
                ident = ""
            out.append(rows((ident, t.status, ", ".join(t.outstanding) or "-"), [], (26, 12)))
            if t.policy is not None:
                out.append(f"    from policy {t.policy}, trigger {t.trigger}")
    if resolution.findings:
        out.append("")
        out.append("FINDINGS")
        for f in resolution.findings:
            who = f" by {f.by}" if f.by else ""
            tail = f": outstanding {', '.join(f.outstanding)}" if f.outstanding else ""
            out.extend(
                textwrap.wrap(
                    f"{f.kind} {f.event}{who} on {f.target}{tail}", WIDTH, subsequent_indent="  "
                )
            )
    return terminal("\n".join(out) + "\n")
