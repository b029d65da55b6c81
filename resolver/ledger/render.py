"""The ledger's outputs: the open list and a check history, as a table or as JSON.

Times print as UTC ``YYYY-MM-DDTHH:MM:SSZ`` and ``known latest`` as ``latest``, as everywhere in
openloop; every JSON output carries ``schema_version`` and ``kind``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from resolver.ledger.model import Check, LedgerState, Refresh, RefreshSummary
from resolver.times import format_duration, format_time

SCHEMA_VERSION = 1


def _time(value: int | None) -> str | None:
    return None if value is None else format_time(value)


def standpoint_dict(refresh: Refresh) -> dict[str, str]:
    """``{"at": ..., "known": ...}`` of a refresh."""
    known = "latest" if refresh.known is None else format_time(refresh.known)
    return {"at": format_time(refresh.at), "known": known}


def refresh_dict(refresh: Refresh) -> dict[str, Any]:
    """One refresh with the log position it read through."""
    return {
        "id": refresh.id,
        "kind": refresh.kind,
        "checked_at": format_time(refresh.checked_at),
        "standpoint": standpoint_dict(refresh),
        "expectations": refresh.expectations,
        "open": refresh.open,
        "changed": refresh.changed,
        "read_through": [source.as_dict() for source in refresh.sources],
    }


def check_dict(check: Check) -> dict[str, Any]:
    """One check: the verdict as recorded, and its provenance."""
    v = check.verdict
    return {
        "id": v.id,
        "title": v.title,
        "task": v.task,
        "status": v.status,
        "confidence": v.confidence,
        "flags": list(v.flags),
        "closed_by": v.closed_by,
        "tier": v.tier,
        "closed_at": _time(v.closed_at),
        "opened_at": _time(v.opened_at),
        "bound": _time(v.bound),
        "footprint": v.footprint,
        "check": check.check_id,
        "refresh": check.refresh.id,
        "last_checked": format_time(check.refresh.checked_at),
        "standpoint": standpoint_dict(check.refresh),
    }


def list_json(
    state: LedgerState, db: str, now: int, stale_after: int | None, log_checked: bool
) -> str:
    """``ledger list --format json``."""
    fresh = sum(1 for e in state.entries if e.fresh)
    out = {
        "schema_version": SCHEMA_VERSION,
        "kind": "ledger_list",
        "db": db,
        "now": format_time(now),
        "stale_after": None if stale_after is None else format_duration(stale_after),
        "log_checked": log_checked,
        "refresh": None if state.refresh is None else refresh_dict(state.refresh),
        "counts": {
            "open": len(state.entries),
            "fresh": fresh,
            "stale": len(state.entries) - fresh,
        },
        "entries": [
            {
                **check_dict(e.check),
                "fresh": e.fresh,
                "state": "fresh" if e.fresh else "stale",
                "stale_reasons": list(e.stale_reasons),
            }
            for e in state.entries
        ],
    }
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def _standpoint_text(refresh: Refresh) -> str:
    point = standpoint_dict(refresh)
    return point["at"] if point["known"] == point["at"] else f"{point['at']} known {point['known']}"


def _columns(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    return lines


def list_table(state: LedgerState, db: str, now: int, stale_after: int | None) -> str:
    """``ledger list`` for people: one row per open entry, stale reasons beneath."""
    if state.refresh is None:
        return f"openloop ledger list: {db} holds no refresh yet\n"
    latest = state.refresh
    lines = [
        f"openloop ledger list: {db}, refresh {latest.id} at {_standpoint_text(latest)} "
        f"(checked {format_time(latest.checked_at)}; now {format_time(now)}"
        + (f", stale after {format_duration(stale_after)})" if stale_after else ")"),
        "",
    ]
    rows, notes = [], {}
    for index, entry in enumerate(state.entries):
        v = entry.verdict
        rows.append(
            (
                v.id,
                v.status,
                v.confidence or "-",
                format_time(entry.last_checked),
                _standpoint_text(entry.check.refresh),
                "fresh" if entry.fresh else "STALE",
            )
        )
        notes[index] = entry.stale_reasons
    head = ("EXPECTATION", "STATUS", "CONFIDENCE", "LAST CHECKED", "STANDPOINT", "STATE")
    table = _columns(head, rows)
    lines.append(table[0])
    for index, line in enumerate(table[1:]):
        lines.append(line)
        lines.extend(f"    {reason}" for reason in notes[index])
    fresh = sum(1 for e in state.entries if e.fresh)
    lines += ["", f"{len(state.entries)} open: {fresh} fresh, {len(state.entries) - fresh} stale"]
    return "\n".join(lines) + "\n"


def history_json(expectation: str, checks: Sequence[Check], db: str) -> str:
    """``ledger history ID --format json``."""
    out = {
        "schema_version": SCHEMA_VERSION,
        "kind": "ledger_history",
        "db": db,
        "id": expectation,
        "checks": [
            {
                **check_dict(c),
                "read_through": [s.as_dict() for s in c.refresh.sources],
            }
            for c in checks
        ],
    }
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def history_table(expectation: str, checks: Sequence[Check], db: str) -> str:
    """``ledger history ID`` for people: one row per check, oldest first."""
    rows = []
    for c in checks:
        v = c.verdict
        closed = f"{v.closed_by} ({v.tier})" if v.closed_by and v.tier else v.closed_by or "-"
        logs = [f"{s.path}:{s.lines}" for s in c.refresh.sources if s.kind == "jsonl"]
        rows.append(
            (
                str(c.refresh.id),
                format_time(c.refresh.checked_at),
                _standpoint_text(c.refresh),
                v.status,
                v.confidence or "-",
                closed,
                ", ".join(logs) or "-",
            )
        )
    head = ("REFRESH", "CHECKED", "STANDPOINT", "STATUS", "CONFIDENCE", "CLOSED BY", "READ THROUGH")
    plural = "" if len(checks) == 1 else "s"
    lines = [f"openloop ledger history {expectation}: {db}, {len(checks)} check{plural}", ""]
    lines += _columns(head, rows)
    return "\n".join(lines) + "\n"


def summary_text(summary: RefreshSummary) -> str:
    """What ``ledger refresh`` and ``ledger rebuild`` print."""
    r = summary.refresh
    verb = "rebuilt" if r.kind == "rebuild" else "refreshed"
    lines = [
        f"{verb} {summary.db}: refresh {r.id} at {_standpoint_text(r)}, "
        f"{r.expectations} expectations checked, {r.open} open, {r.changed} changed"
    ]
    logs = [f"{s.path} ({s.lines} lines)" for s in r.sources if s.kind == "jsonl"]
    if logs:
        lines.append("read through " + ", ".join(logs))
    if summary.removed_ids:
        lines.append("no longer declared: " + ", ".join(summary.removed_ids))
    return "\n".join(lines) + "\n"


def summary_json(summary: RefreshSummary) -> str:
    """``ledger refresh --format json``."""
    out = {
        "schema_version": SCHEMA_VERSION,
        "kind": f"ledger_{summary.refresh.kind}",
        "db": summary.db,
        "refresh": refresh_dict(summary.refresh),
        "changed": list(summary.changed_ids),
        "removed": list(summary.removed_ids),
    }
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"
