"""``openloop audit`` as text, Markdown, JSON (``"kind": "audit"``) or SARIF 2.1.0.

A summary first (how many closes, the share not supported when made, per closer and agents
against people), then each close with its verdict and the key reason the rules give, then the
false pendings. Every word here phrases a result of :mod:`resolver.verdicts.audit`; nothing is
judged again.
"""

from __future__ import annotations

import json
from typing import Any

from resolver import __version__
from resolver.faces.explanation.text import line
from resolver.faces.safe_text import markdown, spelled, terminal
from resolver.faces.sarif import SCHEMA_URI
from resolver.times import format_time
from resolver.verdicts.audit import VERDICTS, AuditClose, AuditResult, CloseGate
from resolver.vocabulary import AUDIT_STATES, per_word

__all__ = ["render", "render_gate"]

#: How a verdict reads.
WORDS = per_word(
    VERDICTS,
    {
        "complete_when_closed": "complete when closed",
        "landed_later": "landed later",
        "never_supported": "never supported",
        "unknown": "UNKNOWN",
    },
)
_PLURAL = {"agent": "agents", "person": "people"}
#: The verdicts SARIF reports (every one but a supported close), and the level of each.
_REPORTED = tuple(v for v in VERDICTS if v != "complete_when_closed")
_LEVEL = per_word(
    _REPORTED, {"never_supported": "error", "landed_later": "warning", "unknown": "note"}
)


def render(result: AuditResult, form: str) -> str:
    """The audit in ``form``: text, md, json or sarif."""
    if form == "json":
        return json.dumps(as_json(result), indent=2, ensure_ascii=False) + "\n"
    if form == "sarif":
        return json.dumps(as_sarif(result), indent=2, ensure_ascii=False) + "\n"
    return markdown(_markdown(result)) if form == "md" else terminal(_text(result))


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def summary_line(result: AuditResult) -> str:
    """One line: how many closes, how many of each verdict, the share unsupported."""
    total = len(result.closes)
    counts = ", ".join(f"{result.count(v)} {WORDS[v]}" for v in VERDICTS)
    return (
        f"{total} close{'s' if total != 1 else ''}: {counts}; "
        f"{_share(result.unsupported, total)} not supported when made; "
        f"{len(result.false_pending)} false pending"
    )


def _standpoint(result: AuditResult) -> str:
    since = f" since {format_time(result.since)}" if result.since is not None else ""
    return f"at {format_time(result.now.at)} (known latest){since}"


def _role_line(role: str, counts: dict[str, int]) -> str:
    total = sum(counts.values())
    bad = counts["landed_later"] + counts["never_supported"]
    return (
        f"{role}: {total} close{'s' if total != 1 else ''}, {bad} not supported when made "
        f"({_share(bad, total)}), "
        f"{counts['never_supported']} never supported, {counts['unknown']} unknown"
    )


def _close_line(close: AuditClose) -> str:
    who = close.by or "(unnamed)"
    role = " (agent)" if close.agent else ""
    return (
        f"{WORDS[close.verdict]:<21} {close.target} closed {format_time(close.at)} by {who}{role}"
        f" [{close.event}]"
    )


def _text(result: AuditResult) -> str:
    lines = [f"openloop audit {_standpoint(result)}", summary_line(result)]
    for role, counts in result.by_role().items():
        if sum(counts.values()):
            lines.append("  " + _role_line(role, counts))
    lines.append("BY CLOSER")
    for closer, counts in result.by_closer().items():
        lines.append("  " + _role_line(closer, counts))
    lines.append(f"CLOSES ({len(result.closes)})")
    for close in result.closes:
        lines.append("  " + _close_line(close))
        if close.title:
            lines.append(f"      {close.title}")
        lines.append(f"      then {close.at_close}, now {close.now}: {line(close.reason)}")
    if result.false_pending:
        lines.append(f"FALSE PENDING ({len(result.false_pending)})")
        for item in result.false_pending:
            where = f"reported pending by {item.event}" if item.event else "open on the tracker"
            lines.append(f"  {item.target} {where}: {line(item.reason)}")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _markdown(result: AuditResult) -> str:
    lines = [f"## openloop audit {_standpoint(result)}", "", f"**{summary_line(result)}**", ""]
    lines += ["| closer | closes | " + " | ".join(WORDS[v] for v in VERDICTS) + " |"]
    lines += ["|---|---:|" + "---:|" * len(VERDICTS)]
    rows = [(f"*{_PLURAL[r]}*", c) for r, c in result.by_role().items()] + list(
        result.by_closer().items()
    )
    for name, counts in rows:
        cells = " | ".join(str(counts[v]) for v in VERDICTS)
        lines.append(f"| {_cell(name)} | {sum(counts.values())} | {cells} |")
    lines += ["", "| verdict | item | closed | by | then → now | key reason |"]
    lines += ["|---|---|---|---|---|---|"]
    for close in result.closes:
        lines.append(
            f"| {WORDS[close.verdict]} | `{_cell(close.target)}` {_cell(close.title or '')} | "
            f"{format_time(close.at)} | {_cell(close.by or '(unnamed)')}"
            f"{' (agent)' if close.agent else ''} | {close.at_close} → {close.now} | "
            f"{_cell(line(close.reason))} |"
        )
    if result.false_pending:
        lines += ["", "### False pending", ""]
        for item in result.false_pending:
            where = f"reported pending by `{item.event}`" if item.event else "open on the tracker"
            lines.append(f"- `{_cell(item.target)}` {where}: {_cell(line(item.reason))}")
    return "\n".join(lines) + "\n"


def as_json(result: AuditResult) -> dict[str, Any]:
    """The ``--format json`` document (``"kind": "audit"``)."""
    return {
        "schema_version": 1,
        "kind": "audit",
        "standpoint": {"at": format_time(result.now.at), "known": "latest"},
        "since": format_time(result.since) if result.since is not None else None,
        "summary": {
            "closes": len(result.closes),
            "verdicts": {v: result.count(v) for v in VERDICTS},
            "unsupported": result.unsupported,
            "unsupported_share": round(result.unsupported / len(result.closes), 4)
            if result.closes
            else 0.0,
            "by_role": result.by_role(),
            "by_closer": result.by_closer(),
            "false_pending": len(result.false_pending),
        },
        "closes": [
            {
                "event": c.event,
                "target": c.target,
                "title": c.title,
                "by": c.by,
                "agent": c.agent,
                "at": format_time(c.at),
                "recorded": format_time(c.recorded),
                "at_close": c.at_close.upper(),
                "now": c.now.upper(),
                "verdict": c.verdict,
                "status_now": c.status_now.upper() if c.status_now else None,
                "reason": line(c.reason),
            }
            for c in result.closes
        ],
        "false_pending": [
            {
                "target": p.target,
                "title": p.title,
                "event": p.event,
                "by": p.by,
                "reason": line(p.reason),
            }
            for p in result.false_pending
        ],
    }


def as_sarif(result: AuditResult) -> dict[str, Any]:
    """SARIF 2.1.0: one result per close that was not complete when made, and per false pending."""
    rules = [
        {"id": v, "shortDescription": {"text": f"A close that was {WORDS[v]}"},
         "defaultConfiguration": {"level": _LEVEL[v]}}
        for v in _REPORTED
    ] + [{"id": "false_pending", "shortDescription": {"text": "Open, yet complete"},
          "defaultConfiguration": {"level": "warning"}}]  # fmt: skip
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for close in result.closes:
        if close.verdict == "complete_when_closed":
            continue
        results.append({
            "ruleId": close.verdict, "ruleIndex": index[close.verdict],
            "level": _LEVEL[close.verdict],
            "message": {"text": f"{close.target} closed {format_time(close.at)} by "
                                f"{close.by or '(unnamed)'}: {WORDS[close.verdict]}; "
                                f"{line(close.reason)}"},
            "partialFingerprints": {"openloopClose/v1": f"{close.event}:{close.target}"},
            "properties": {"event": close.event, "id": close.target, "by": close.by},
        })  # fmt: skip
    for item in result.false_pending:
        results.append({
            "ruleId": "false_pending", "ruleIndex": index["false_pending"], "level": "warning",
            "message": {"text": f"{item.target} is complete yet pending: {line(item.reason)}"},
            "partialFingerprints": {"openloopPending/v1": f"{item.event or ''}:{item.target}"},
            "properties": {"event": item.event, "id": item.target},
        })  # fmt: skip
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "openloop", "version": __version__,
                                      "rules": rules}},
                  "results": results}],
    }  # fmt: skip


#: A host shows at most this many characters of a refusal (issue 30: one line first).
REFUSAL_LIMIT = 10_000
_GATE_WORDS = per_word(
    AUDIT_STATES, {"complete": "supported", "incomplete": "REFUSED", "unknown": "UNKNOWN"}
)


def render_gate(gate: CloseGate, form: str) -> str:
    """The judgement of a close about to be made: one line first (what and why), then the key
    reason; at most :data:`REFUSAL_LIMIT` characters. ``github`` prints an Actions annotation."""
    title = f" ({gate.title})" if gate.title else ""
    first = f"{_GATE_WORDS[gate.state]}: closing {gate.target}{title}: it is {gate.status}"
    if form == "json":
        document = {
            "schema_version": 1, "kind": "audit_close", "close": gate.target, "title": gate.title,
            "state": gate.state.upper(), "status": gate.status, "reason": line(gate.reason),
            "exit": gate.exit_code,
        }  # fmt: skip
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if form == "github":
        level = "notice" if gate.state == "complete" else "error"
        title = _property(f"openloop audit --close {gate.target}")
        text = f"::{level} title={title}::" + _data(f"{first}. {line(gate.reason)}")
        return spelled(_cut(text)) + "\n"
    return terminal(_cut(f"{first}\n  {line(gate.reason)}")) + "\n"


def _data(text: str) -> str:
    """A workflow command's message, escaped as the runner reads it (one line)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: ``:`` and ``,`` escaped too."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _cut(text: str) -> str:
    if len(text) <= REFUSAL_LIMIT:
        return text
    return text[: REFUSAL_LIMIT - 2] + " …"
