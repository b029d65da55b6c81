"""What the CI faces of ``check`` report, read from the gate's atoms (SPEC §8).

One :class:`CiItem` per expectation the gate reports (outstanding or UNKNOWN, at its declaration)
and per finding in scope (at the claim), with the level and reason code the rules derived
(``rules/query/ci.lp``, ``gate.lp``, ``explain.lp``) and a stable fingerprint. The GitHub and
SARIF faces (``resolver/faces/github.py``, ``sarif.py``) only format these items.

Fingerprints hash what identifies an item across runs (its kind and id, or the finding's kind,
claim event and target), never a line number or a time, so an alert stays one alert while the
files move and the standpoint advances.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from resolver.engine.prepared import Prepared
from resolver.errors import Location
from resolver.times import format_time
from resolver.verdicts.resolution import Resolution


@dataclass(frozen=True)
class CiItem:
    """One thing a CI face reports: an expectation the gate flags, or a finding in scope."""

    kind: str  # "expectation" or "finding"
    ident: str  # the expectation's id, or the finding's claim event
    level: str  # "error" or "warning" (ci.lp)
    code: str  # the rule: a key reason code (explain.lp) or a finding kind
    title: str  # a short headline
    message: str  # the whole message
    location: Location | None
    fingerprint: str


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def collect(
    prepared: Prepared, resolution: Resolution, key_reason: Callable[[str], str]
) -> list[CiItem]:
    """The items a gate resolution reports, errors first, then by file and line.

    ``key_reason`` gives the one-line key reason of an expectation, phrased by a face.
    """
    atoms = resolution.atoms
    facts = prepared.facts
    project = prepared.project
    levels = {facts.item_id(x): str(level) for x, level in atoms.get("ci_level")}
    codes = {facts.item_id(x): str(code) for x, code, _ in atoms.get("key_reason")}
    items: list[CiItem] = []
    for ident, level in levels.items():
        verdict = resolution.expectation(ident)
        declared = project.expectation(ident)
        assert verdict is not None and declared is not None
        headline = f"{ident} is {verdict.status}"
        notes = []
        if verdict.title:
            notes.append(f'"{verdict.title}"')
        if verdict.bound is not None:
            notes.append(f"bound {format_time(verdict.bound)}")
        if verdict.flags:
            notes.append("flags: " + ", ".join(verdict.flags))
        detail = key_reason(ident)
        message = f"{headline}{' (' + '; '.join(notes) + ')' if notes else ''}: {detail}"
        items.append(
            CiItem(
                kind="expectation",
                ident=ident,
                level=level,
                code=codes.get(ident, "no_candidate"),
                title=headline,
                message=message,
                location=declared.location,
                fingerprint=_fingerprint("expectation", ident),
            )
        )
    finding_levels = {str(kind): str(level) for kind, level in atoms.get("ci_finding_level")}
    for kind, e, y in atoms.get("gate_finding"):
        event_id, target = facts.event_id(e), facts.item_id(y)
        found = next(
            f
            for f in resolution.findings
            if f.event == event_id and f.target == target and f.kind == str(kind).upper()
        )
        event = project.event(event_id)
        by = f" by {found.by}" if found.by else ""
        if str(kind) == "false_completion":
            owed = ", ".join(found.outstanding) or "-"
            message = f"{event_id}{by} claims {target} complete, but outstanding: {owed}"
        else:
            message = f"{event_id}{by} reports {target} pending, but it was complete"
        items.append(
            CiItem(
                kind="finding",
                ident=event_id,
                level=finding_levels[str(kind)],
                code=str(kind),
                title=f"{found.kind} {event_id} on {target}",
                message=f"{found.kind}: {message}",
                location=event.location if event is not None else None,
                fingerprint=_fingerprint("finding", str(kind), event_id, target),
            )
        )
    items.sort(key=_order)
    return items


def _order(item: CiItem) -> tuple:
    where = item.location
    return (
        item.level != "error",
        where.file if where else "",
        where.line if where else 0,
        item.kind,
        item.ident,
    )
