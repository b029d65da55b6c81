"""``check --format sarif``: SARIF 2.1.0 for code scanning (SPEC §8).

One result per item the gate reports (an outstanding or UNKNOWN expectation, at its declaration
line) and per finding in scope (a false completion or false pending, at the claim's line), one
rule per reason code. What is reported, its level and its reason code are atoms of the rules
(``rules/query/gate.lp``, ``ci.lp``, ``explain.lp``); this module gathers them as
:class:`CiItem` (shared with the GitHub face) and writes the SARIF log.

Fingerprints hash what identifies an item across runs (its kind and id, or the finding's kind,
claim event and target), never a line number or a time, so code scanning keeps one alert per
obligation while the files move and the standpoint advances.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from resolver import __version__
from resolver.engine.prepared import Prepared
from resolver.errors import Location
from resolver.times import format_time
from resolver.verdicts.explanation import key_reason
from resolver.verdicts.resolution import Resolution

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

#: One line for each rule (reason code) a result can carry.
RULES = {
    "not_opened": "An obligation in scope has not opened: its opening event is not visible",
    "no_candidate": "An obligation is open and no event touches it",
    "nearest": "An obligation is open; its nearest candidate was rejected",
    "reopened": "An obligation was closed, then reopened",
    "gap": "An obligation is UNKNOWN: a sequence gap could hide its closure",
    "unconfirmed_effect": "An obligation is UNKNOWN: an effect that would close it is unconfirmed",
    "false_completion": "A claim of completion while obligations were still outstanding",
    "false_pending": "A report of pending work that was already complete",
}


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


def collect(prepared: Prepared, resolution: Resolution) -> list[CiItem]:
    """The items a gate resolution reports, errors first, then by file and line."""
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
        detail = key_reason(prepared, resolution, ident)
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


def artifact_uri(file: str) -> str:
    """A file name as SARIF wants it: relative to the working directory where possible."""
    path = Path(file)
    if path.is_absolute():
        try:
            path = path.relative_to(Path.cwd())
        except ValueError:
            return path.as_uri()
    return path.as_posix() if os.sep == "/" else str(path).replace(os.sep, "/")


def _result(item: CiItem, rule_index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": item.code,
        "ruleIndex": rule_index[item.code],
        "level": item.level,
        "message": {"text": item.message},
        "partialFingerprints": {"openloopItem/v1": item.fingerprint},
        "properties": {"kind": item.kind, "id": item.ident},
    }
    if item.location is not None:
        region: dict[str, int] = {"startLine": max(item.location.line, 1)}
        if item.location.column:
            region["startColumn"] = item.location.column
        result["locations"] = [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": artifact_uri(item.location.file)},
                    "region": region,
                }
            }
        ]
    return result


def to_dict(items: list[CiItem], result: str) -> dict[str, Any]:
    """The SARIF 2.1.0 log of one ``check`` run."""
    used = sorted({item.code for item in items})
    rule_index = {code: index for index, code in enumerate(used)}
    levels = {item.code: item.level for item in items}  # the level the rules gave (ci.lp)
    rules = [
        {
            "id": code,
            "name": "".join(part.capitalize() for part in code.split("_")),
            "shortDescription": {"text": RULES.get(code, code)},
            "defaultConfiguration": {"level": levels[code]},
        }
        for code in used
    ]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "openloop",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "invocations": [
                    {"executionSuccessful": True, "properties": {"gateResult": result.upper()}}
                ],
                "results": [_result(item, rule_index) for item in items],
            }
        ],
    }


def render(items: list[CiItem], result: str) -> str:
    """The SARIF log as JSON text."""
    return json.dumps(to_dict(items, result), indent=2, ensure_ascii=False) + "\n"
