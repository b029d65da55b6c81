"""Receipts for people and tools: the Markdown page and the JSON document of a work receipt.

``resolver.verdicts.receipt.build`` arranges the rules' atoms into a typed :class:`Receipt`;
this module only phrases it (reasons through ``words.describe``) and lays it out. What the
receipt left out (notes and rejected candidates past the caps) is counted in one line each,
with the command that lists every one.
"""

from __future__ import annotations

import json
from typing import Any

from resolver.faces.safe_text import markdown, visible
from resolver.faces.words import describe
from resolver.times import format_time
from resolver.verdicts.receipt import Note, ObligationLine, Receipt


def _time(value: int | None) -> str | None:
    return None if value is None else format_time(value)


def to_dict(receipt: Receipt) -> dict[str, Any]:
    """The receipt as plain data (the ``--format json`` output)."""
    return {
        "schema_version": 1,
        "kind": "receipt",
        "standpoint": {
            "at": format_time(receipt.at),
            "known": "latest" if receipt.known is None else format_time(receipt.known),
        },
        "task": {
            "id": receipt.task,
            "title": receipt.title,
            "status": receipt.status,
            "principals": list(receipt.principals),
        },
        "obligations": [
            {
                "id": o.id,
                "title": o.title,
                "status": o.status,
                "tier": o.tier,
                "closed_at": _time(o.closed_at),
                "evidence": None
                if o.evidence is None
                else {
                    "event": o.evidence.event,
                    "at": format_time(o.evidence.at),
                    "by": o.evidence.by,
                    "channel": o.evidence.channel,
                    "kind": o.evidence.kind,
                    "text": o.evidence.text,
                },
                "flags": list(o.flags),
                "requires": [{"id": p.id, "status": p.status} for p in o.preconditions],
                "awaiting_until": _time(o.awaiting_until),
                "notes": [_note_dict(receipt, o, n) for n in o.notes],
                "notes_omitted": o.notes_omitted,
                "nearest": [_note_dict(receipt, o, n) for n in o.nearest],
                "rejected_omitted": o.rejected_omitted,
            }
            for o in receipt.obligations
        ],
        "endings": [
            {
                "event": e.event,
                "at": format_time(e.at),
                "by": e.by,
                "kind": e.kind,
                "obligation": e.obligation,
                "effective": e.effective,
                "outcome": e.outcome,
            }
            for e in receipt.endings
        ],
        "findings": [
            {
                "kind": f.kind,
                "event": f.event,
                "at": _time(f.at),
                "by": f.by,
                "target": f.target,
                "outstanding": list(f.outstanding),
            }
            for f in receipt.findings
        ],
        "remaining": list(receipt.remaining),
    }


def _note_dict(receipt: Receipt, o: ObligationLine, note: Note) -> dict[str, Any]:
    return {"code": note.code, "event": note.event, "detail": _note(receipt, o, note)}


def render_json(receipt: Receipt) -> str:
    """Pretty-printed JSON text."""
    return json.dumps(to_dict(receipt), indent=2, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _evidence_cell(o: ObligationLine) -> str:
    if o.evidence is None:
        return ""
    e = o.evidence
    who = f" by {visible(e.by)}" if e.by else ""
    text = f': "{visible(e.text)}"' if e.text else ""
    return f"`{e.event}` ({e.channel}{who}){text}"


_OUTCOME_WORDS = {
    "closed": "took effect",
    "reopened": "took effect: reopened it",
    "none": "had authority but changed nothing (already settled)",
    "proposal": "a proposal without authority: no effect",
}


def _note(receipt: Receipt, o: ObligationLine, note: Note) -> str:
    declared = receipt.project.expectation(o.id)
    assert declared is not None
    return describe(note.reason, receipt.project, declared)


def _remaining_line(receipt: Receipt, o: ObligationLine) -> str:
    parts = [o.status]
    if o.awaiting_until is not None:
        parts.append(f"awaiting evidence until {format_time(o.awaiting_until)}")
    if o.blocked_by:
        named = (f"`{p.id}` ({p.status})" for p in o.blocked_by)
        parts.append("blocked by " + ", ".join(named))
    parts += [f for f in o.flags if f in ("deadline_passed", "reopened")]
    line = f"- `{o.id}`: " + "; ".join(parts)
    near = {note.reason for note in o.nearest}
    for note in o.nearest:  # nearest first: why it is not closed yet
        line += f"\n  - {_note(receipt, o, note)}"
    for note in o.notes:
        if note.code != "reopened" and note.reason not in near:
            line += f"\n  - {_note(receipt, o, note)}"
    if o.rejected_omitted:
        line += (
            f"\n  - ... and {_count(o.rejected_omitted, 'more rejected candidate')} "
            f"(`openloop receipt {receipt.task} --full` lists every one)"
        )
    return line


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'s' if number != 1 else ''}"


def _omitted_notes(receipt: Receipt, o: ObligationLine) -> str:
    return (
        f"- `{o.id}`: ... and {_count(o.notes_omitted, 'more note')} "
        f"(`openloop receipt {receipt.task} --full` lists every one)"
    )


def render_markdown(receipt: Receipt) -> str:
    """The receipt for people: obligations and evidence, authority, findings, what remains."""
    known = "latest" if receipt.known is None else format_time(receipt.known)
    out = [f"# Work receipt: {receipt.task}", ""]
    if receipt.title:
        out += [visible(receipt.title), ""]
    headline = f"**{receipt.status}** at {format_time(receipt.at)} (known {known})."
    if receipt.obligations:
        principals = ", ".join(receipt.principals) or "any actor who is not an agent"
        headline += f" Authority over endings: {principals}."
    out += [
        headline,
        "",
        "## Obligations",
        "",
    ]
    if not receipt.obligations:
        out.append("No obligations: the task is complete by definition.")
    else:
        out += [
            "| obligation | status | settled by | tier | settled at | flags |",
            "|---|---|---|---|---|---|",
        ]
        for o in receipt.obligations:
            out.append(
                "| "
                + " | ".join(
                    _cell(c)
                    for c in (
                        f"`{o.id}`" + (f" {visible(o.title)}" if o.title else ""),
                        o.status,
                        _evidence_cell(o),
                        o.tier or "",
                        _time(o.closed_at) or "",
                        ", ".join(o.flags),
                    )
                )
                + " |"
            )
        notes = [(o, n) for o in receipt.obligations for n in o.notes]
        unmet = [o for o in receipt.obligations if "precondition_unmet" in o.flags]
        if notes or unmet:  # (an obligation with notes left out has notes shown too)
            out += ["", "Notes:", ""]
            for o in unmet:
                required = ", ".join(f"`{p.id}`" for p in o.preconditions)
                out.append(
                    f"- `{o.id}` was satisfied while its preconditions ({required}) "
                    f"were not all closed: precondition_unmet"
                )
            for o in receipt.obligations:
                out += [f"- `{o.id}`: {_note(receipt, o, n)}" for n in o.notes]
                if o.notes_omitted:
                    out.append(_omitted_notes(receipt, o))
    out += ["", "## Waivers and other endings", ""]
    if not receipt.endings:
        out.append("None.")
    for e in receipt.endings:
        who = visible(e.by) if e.by else "an unnamed actor"
        out.append(
            f"- `{e.event}` ({format_time(e.at)}): {who} {e.kind} `{e.obligation}`: "
            f"{_OUTCOME_WORDS[e.outcome]}"
        )
    out += ["", "## Findings", ""]
    if not receipt.findings:
        out.append("None: no claim about this task disagrees with its computed state.")
    for f in receipt.findings:
        who = f" by {visible(f.by)}" if f.by else ""
        when = f" ({format_time(f.at)})" if f.at is not None else ""
        line = f"- **{f.kind}** `{f.event}`{when}{who} about `{f.target}`"
        if f.outstanding:
            line += "; outstanding when claimed: " + ", ".join(f"`{x}`" for x in f.outstanding)
        out.append(line)
    out += ["", "## What remains", ""]
    if not receipt.remaining:
        out.append("Nothing: every obligation is satisfied, waived, cancelled or superseded.")
    else:
        out += [
            _remaining_line(receipt, o) for o in receipt.obligations if o.id in receipt.remaining
        ]
    return markdown("\n".join(out) + "\n")
