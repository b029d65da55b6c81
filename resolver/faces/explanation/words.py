"""Words for explanations: phrasing explanation atoms with the model's ids, times and values.

The shared phrasing of ``phrases.py`` (an expectation's steps) and
``text.py`` (tasks, key reasons): openings, markers and their authority, the text
linker's measurements, bounds and ``--why-not`` lines. The tree (what is said) is built in
``resolver/verdicts/``; nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from resolver import times
from resolver.faces.words import show_value
from resolver.language.model import Event, Expectation, Project
from resolver.verdicts.resolution import ExpectationVerdict, Standpoint
from resolver.vocabulary import MARKER_STATUSES

#: The ending marker that would close an expectation with each status (the rules'
#: ``marker_status``, read backwards).
_ENDING_BY_STATUS = {status: marker for marker, status in MARKER_STATUSES.items()}


def show_time(unix: int | None) -> str | None:
    """``YYYY-MM-DDTHH:MM:SSZ``, or None."""
    return None if unix is None else times.format_time(unix)


def standpoint_text(point: Standpoint) -> str:
    """``standpoint: at T, known K``."""
    known = "latest" if point.known is None else times.format_time(point.known)
    return f"standpoint: at {times.format_time(point.at)}, known {known}"


def event_label(event: Event) -> str:
    """``commit-118 (commits, 2024-08-27T10:00:00Z, by bob)``."""
    who = f", by {event.by}" if event.by else ""
    return f"{event.id} ({event.channel}, {times.format_time(event.at)}{who})"


def opening_text(
    project: Project, x: Expectation, source: str | None, hidden: list[str], missing: bool
) -> str:
    """The opening sentence; ``source`` (whose opening X uses: the rules' ``opened_by_source``),
    ``hidden`` and ``missing`` come from the rules."""
    if missing:
        holder = project.task(source) if source and source != x.id else None
        named = (holder or x).opened_by if source else None
        if named is not None and project.event(named) is None:
            return f"opening: opened_by {named} names no event in the log: it never opens"
        return "opening: none: neither it nor its task says when it opens"
    holder = project.task(source) if source and source != x.id else None
    owner = holder if holder is not None else x
    via = f" with its task {holder.id}" if holder is not None else ""
    if owner.opened_by is not None:
        event = project.event(owner.opened_by)
        assert event is not None
        text = (
            f"opening: opened{via} by {event_label(event)}, known from "
            f"{times.format_time(event.recorded)}"
        )
        at, recorded = event.at, event.recorded
    else:
        assert owner.opened is not None
        text = (
            f"opening: opened{via} at {times.format_time(owner.opened)} "
            "(an oracle label, known from then)"
        )
        at = recorded = owner.opened
    if "not_yet" in hidden:
        text += f"; not visible: {times.format_time(at)} is after the standpoint"
    elif "unrecorded" in hidden:
        text += (
            f"; not visible: it is recorded {times.format_time(recorded)}, after the knowledge time"
        )
    return text


def sets_text(event: Event, x: Expectation) -> str | None:
    """What the event sets that matters to ``x`` (the wanted or the superseding key)."""
    keys = {a.key for a in (x.want, x.superseded_when) if a is not None}
    shown = [f"{a.key} = {show_value(a.value, literal=True)}" for a in event.sets if a.key in keys]
    if shown:
        return "sets " + ", ".join(shown)
    if event.sets:
        return (
            "sets "
            + ", ".join(f"{a.key} = {show_value(a.value, literal=True)}" for a in event.sets)
            + " (not a key it watches)"
        )
    return "sets nothing"


_AUTHORITY = {
    "principal": "{by} is a principal of it: the marker takes effect",
    "unrestricted": "it has no principals and {by} is not an agent: the marker takes effect",
    "agent": "{by} is an agent, and agents never have authority",
    "not_principal": "{by} is not among its principals ({principals})",
    "authoritative_channel": "on an authoritative channel: explicit evidence",
    "non_agent": "{by} is not an agent: explicit evidence",
}


def authority_text(
    event: Event, x: Expectation, kind: str, basis: str, principals: Sequence[str] = ()
) -> str:
    """Who carried a marker and what authority the rules found behind it."""
    by = event.by or "an unnamed actor"
    if kind == "completes" and basis == "agent":
        text = f"{by} is an agent: its completes is a claim (textual tier at most)"
    else:
        names = ", ".join(principals) or "-"
        text = _AUTHORITY.get(basis, basis).format(by=by, principals=names)
    via = [m.target for m in event.markers if m.kind == kind and m.target != x.id]
    target = f" (names its task {via[0]})" if via and kind != "completes" else ""
    return f"`{kind}`{target}: {text}"


def agent_claim_text(event: Event, would: str) -> str:
    """Why an agent's own record counts as a claim only (the rules' ``agent_claim/3``)."""
    by = event.by or "an unnamed actor"
    if would == "superseded":
        what = "its record would supersede it; off an authoritative channel it supersedes nothing"
    else:
        what = f"its record would reach tier {would}; off an authoritative channel: textual at most"
    claim = "its own report is a claim; a system of record must observe it"
    return f"{by} is an agent: {claim} ({what})"


_SOURCES = {1: "title", 2: "opening text"}
_LINKS = {
    "phrase": "contains a `matches` phrase",
    "value": "names the wanted value",
    "id": "names its id",
    "done_cue": "makes a done-style claim",
}


def link_text(kinds: list[str], overlaps: list[tuple[int, int, int]]) -> str | None:
    """The text linker's measurements, as the rules received them."""
    parts = [
        f"shares {shared}/{total} content words of its {_SOURCES.get(src, src)}"
        for src, shared, total in overlaps
    ]
    parts += [_LINKS.get(k, k) for k in kinds]
    return ("text: " + ", ".join(parts)) if parts else None


def bound_text(
    project: Project,
    x: Expectation,
    bound: int | None,
    sources: list[tuple[str, str | None]],
    pending: list[str | None],
) -> str:
    """Where the bound comes from, per the ``bound_from``/``bound_pending`` atoms."""
    if bound is None and not pending:
        return "bound: none (no deadline, no before)"
    parts = []
    if bound is not None:
        whence = []
        for kind, event in sources:
            if kind == "within":  # SPEC 5.1: the opening + `within`
                whence.append("within (after the opening)")
            elif kind == "next_kind":
                whence.append(f"before next kind (event {event})")
            else:
                whence.append("the deadline" if kind == "deadline" else f"before {event}")
        parts.append(f"bound: {times.format_time(bound)}, from " + " and ".join(sorted(whence)))
    else:
        parts.append("bound: none yet")
    for event in pending:
        parts.append(f"before {event}: not visible yet, so it does not bound it here")
    return "; ".join(parts)


def why_not_text(
    project: Project,
    x: Expectation,
    verdict: ExpectationVerdict,
    status: str,
    code: str,
    event: str | None,
    principals: Sequence[str] = (),
) -> str:
    """One line of a ``--why-not`` answer; ``principals`` are X's as the rules derived them."""
    label = status.upper()
    if code == "already":
        return f"it is {label}"
    if code == "not_opened":
        return "it is not opened at this standpoint: no status but NOT_OPENED applies"
    if code in ("closed_first", "closed"):
        return (
            f"it is {verdict.status}, closed by {event} at {show_time(verdict.closed_at)}; "
            "only a reopening would return it to OPEN"
        )
    if code == "no_transition":
        return _missing_transition(x, status, verdict, principals)
    if code == "undone_by":
        return f"it was {label}, but {event} reopened it"
    if code == "unrecorded":
        ev = project.event(event or "")
        when = times.format_time(ev.recorded) if ev else "?"
        return f"{event} would make it {label} but is recorded {when}, after the knowledge time"
    if code == "later":
        ev = project.event(event or "")
        when = times.format_time(ev.at) if ev else "?"
        return f"the log holds {event} at {when}, after the standpoint, which would make it {label}"
    if code == "unknown_because":
        return "it is UNKNOWN: a relevant gap or an unconfirmed effect leaves the search open"
    if code == "no_doubt":
        return "no relevant gap and no unconfirmed effect: the absence of a close is corroborated"
    if code == "opened":
        return "its opening is visible at this standpoint"
    return code


def _missing_transition(
    x: Expectation, status: str, verdict: ExpectationVerdict, principals: Sequence[str]
) -> str:
    after = f" after {show_time(verdict.opened_at)}" if verdict.opened_at else ""
    if status == "satisfied":
        verify = verdict.verify
        if x.want is not None:
            state = f"sets {x.want.key} = {show_value(x.want.value, literal=True)}"
            if verify == "state":
                return f"no visible confirmed work event{after} {state} (verify state)"
            return (
                f"no visible confirmed work event{after} {state} or reaches tier {verify} "
                "or stronger"
            )
        return f"no visible confirmed work event{after} reaches tier {verify} or stronger"
    marker = _ENDING_BY_STATUS[status]
    who = ", ".join(principals) or "someone with authority"
    text = f"no effective `{marker}` by {who} on a work channel{after}"
    if status == "superseded" and x.superseded_when is not None:
        watched = x.superseded_when
        text += f", and no event sets {watched.key} = {show_value(watched.value, literal=True)}"
    return text
