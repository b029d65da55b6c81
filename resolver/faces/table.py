"""The terminal table: what a person reads first on a real history (SPEC §4).

The first screen answers "what is still owed?" before anything else: one summary line (how
many items in each status, how many outstanding), the findings, then the outstanding items,
one row each (status, id, title, bound), earliest bound first, then ids in natural order
(``issue-9`` before ``issue-10``). Closed items are counted in the summary and listed only with
``--all``. The evidence behind each listed item (its search footprint, closing event, policy
and flags) follows in a details section, so the first screen stays short however long the
history is: on a repository of a few thousand commits it is the summary and the debt, not a
thousand closed items.

Nothing here decides a status: which statuses are outstanding is the rules' class
``unsettled_status`` (``rules/vocabulary.lp``, mirrored in :mod:`resolver.vocabulary`); the
order is presentation. An id is never broken or cut (it must be copied whole into ``explain``);
a row is wider than 80 columns only when the id itself leaves no room for the title beside it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from resolver.faces.safe_text import terminal, visible
from resolver.faces.screen_order import (
    OUTSTANDING,
    OUTSTANDING_TASK,
    closed_items,
    outstanding_items,
    summary_line,
    task_bound,
)
from resolver.faces.words import show_value
from resolver.times import format_time
from resolver.verdicts.resolution import (
    ChannelFootprint,
    ExpectationVerdict,
    Finding,
    Resolution,
    TaskVerdict,
)

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


def _made_by(verdict: ExpectationVerdict | TaskVerdict) -> list[str]:
    """``from policy P, trigger E`` under a policy instance (SPEC 5.2)."""
    if verdict.policy is None:
        return []
    return [f"from policy {verdict.policy}, trigger {verdict.trigger}"]


def _evidence(verdict: ExpectationVerdict) -> str:
    if verdict.closed_by is None:
        return "-"
    return f"{verdict.closed_by} ({verdict.tier})" if verdict.tier else verdict.closed_by


# --- which items, in which order ---------------------------------------------------------------

# --- rows -------------------------------------------------------------------------------------

#: Width of the status column (the longest status word, NOT_OPENED, and a space).
STATUS_WIDTH = 11
#: An id this long or shorter keeps its title wrapped within :data:`WIDTH` beside it.
WRAP_ID = 36


def _wrap(text: str, width: int) -> list[str]:
    """Words wrapped to ``width``: never at a hyphen, never inside a word (an id stays whole)."""
    return textwrap.wrap(text, max(width, 20), break_on_hyphens=False, break_long_words=False)


def item_row(status: str, ident: str, text: str) -> list[str]:
    """``STATUS     ID  TEXT``: the text wraps under itself beside a short id; beside a long id
    it stays on the id's line (the id is never broken, the row never doubled)."""
    head = f"{status:<{STATUS_WIDTH - 1}} {ident}"
    if not text:
        return [head]
    if len(head) + 2 + len(text) <= WIDTH or len(ident) > WRAP_ID:
        return [f"{head}  {text}"]
    lead = len(head) + 2
    lines = _wrap(text, WIDTH - lead) or [""]
    return [f"{head}  {lines[0]}", *(" " * lead + more for more in lines[1:])]


def _title(item: ExpectationVerdict | TaskVerdict) -> str:
    return visible(item.title) if item.title else ""


def _row(resolution: Resolution, item: ExpectationVerdict | TaskVerdict) -> list[str]:
    """One outstanding or closed item: its title, and its bound or what closed it."""
    notes = []
    if isinstance(item, TaskVerdict):
        if item.outstanding:
            notes.append(f"{len(item.outstanding):,} outstanding")
        bound = task_bound(resolution, item)
    else:
        bound = item.bound
        if item.closed_by is not None:
            tier = f", tier {item.tier}" if item.tier else ""
            notes.append(f"by {item.closed_by}{tier}")
    if bound is not None and item.status in OUTSTANDING | OUTSTANDING_TASK:
        notes.insert(0, f"bound {short_time(bound)}")
    text = _title(item)
    if notes:
        text = f"{text} ({'; '.join(notes)})" if text else f"({'; '.join(notes)})"
    return item_row(item.status, visible(item.id), text)


def finding_lines(findings: Iterable[Finding]) -> list[str]:
    """One line per false completion or false pending (wrapped, never inside an id)."""
    out = []
    for f in findings:
        who = f" by {visible(f.by)}" if f.by else ""
        tail = f": outstanding {', '.join(f.outstanding)}" if f.outstanding else ""
        out.extend(
            textwrap.wrap(
                visible(f"{f.kind} {f.event}{who} on {f.target}{tail}"),
                WIDTH,
                initial_indent="  ",
                subsequent_indent="    ",
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return out


# --- details ----------------------------------------------------------------------------------


def _indented(note: str) -> list[str]:
    return textwrap.wrap(
        note,
        WIDTH,
        initial_indent="    ",
        subsequent_indent="      ",
        break_on_hyphens=False,
        break_long_words=False,
    )


def _details(resolution: Resolution, item: ExpectationVerdict | TaskVerdict) -> list[str]:
    """The evidence behind one listed item: the search, the closing event, the policy."""
    out = [visible(item.id)]
    if isinstance(item, TaskVerdict):
        owed = ", ".join(item.outstanding) or "-"
        notes = [f"{item.status.lower()}; outstanding: {owed}", *_made_by(item)]
        for note in notes:
            out.extend(_indented(visible(note)))
        return out
    notes = [*_made_by(item)]
    if item.closed_by is not None:
        when = f" at {short_time(item.closed_at)}" if item.closed_at is not None else ""
        notes.append(f"{item.status.lower()} by {_evidence(item)}{when}")
    if item.bound is not None:
        notes.append(f"bound {short_time(item.bound)}")
    notes.extend(_notes(item))
    for note in notes:
        out.extend(_indented(visible(note)))
    out.extend(_footprint_block(item))
    return out


def render(resolution: Resolution, every: bool = False) -> str:
    """The first screen (summary, findings, outstanding items), then ``every`` closed item
    when asked, then the details of each listed item."""
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    out = [f"openloop status at {format_time(point.at)} (known {known})"]
    if not resolution.expectations and not resolution.tasks:
        out.append("no expectations declared (openloop init writes a starter .ol for a repository)")
        return terminal("\n".join(out) + "\n")
    out.append(summary_line(resolution))
    if resolution.findings:
        out += ["", f"FINDINGS ({len(resolution.findings):,})", *finding_lines(resolution.findings)]
    owed = outstanding_items(resolution)
    out.append("")
    if owed:
        out.append(f"OUTSTANDING ({len(owed):,}), earliest bound first")
        for item in owed:
            out.extend(_row(resolution, item))
    else:
        out.append("nothing outstanding")
    listed = list(owed)
    closed = closed_items(resolution)
    if every and closed:
        out += ["", f"CLOSED ({len(closed):,})"]
        for item in closed:
            out.extend(_row(resolution, item))
        listed += closed
    elif closed:
        out.append(f"{len(closed):,} closed item(s) counted above; --all lists them")
    if listed:
        out += ["", "DETAILS"]
        for item in listed:
            out.extend(_details(resolution, item))
    return terminal("\n".join(out) + "\n")
