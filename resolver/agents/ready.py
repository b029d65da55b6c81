"""What can be worked on now: the obligations ``rules/query/ready.lp`` derives as ready.

``ready`` is a verdict (open, not blocked, every precondition met), so the rules decide it; this
module passes the query fact, reads ``ready/1`` and ``waiting_on/2``, and orders the list by bound
(the earliest first, unbounded last, then by id), which is presentation only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from resolver.engine.prepared import Prepared, Standpoint
from resolver.faces.json_format import standpoint_dict
from resolver.faces.safe_text import terminal, visible
from resolver.times import format_time
from resolver.verdicts.resolution import ExpectationVerdict, Resolution, resolve

#: The query fact that grounds rules/query/ready.lp.
READY_QUERY = "ready_query.\n"


@dataclass(frozen=True)
class ReadyList:
    """The ready obligations at one standpoint, and the open ones still waiting."""

    resolution: Resolution
    ready: tuple[ExpectationVerdict, ...]
    waiting: dict[str, tuple[str, ...]]


def _order(verdict: ExpectationVerdict) -> tuple:
    return (verdict.bound is None, verdict.bound or 0, verdict.id)


def ready(prepared: Prepared, point: Standpoint) -> ReadyList:
    """Solve ``point`` with the ready query and read what the rules call ready."""
    resolution = resolve(prepared, point, READY_QUERY, reasons=False)
    item = prepared.facts.item_id
    ready_ids = {item(x) for (x,) in resolution.atoms.get("ready")}
    waiting: dict[str, list[str]] = {}
    for x, y in resolution.atoms.get("waiting_on"):
        waiting.setdefault(item(x), []).append(item(y))
    chosen = sorted((v for v in resolution.expectations if v.id in ready_ids), key=_order)
    return ReadyList(
        resolution,
        tuple(chosen),
        {x: tuple(sorted(ys)) for x, ys in sorted(waiting.items())},
    )


def _time(value: int | None) -> str | None:
    return None if value is None else format_time(value)


def to_dict(result: ReadyList) -> dict[str, Any]:
    """The ``ready --format json`` contract."""
    return {
        "schema_version": 1,
        "kind": "ready",
        "standpoint": standpoint_dict(result.resolution),
        "ready": [
            {
                "id": v.id,
                "title": v.title,
                "task": v.task,
                "bound": _time(v.bound),
                "opened_at": _time(v.opened_at),
                "confidence": v.confidence,
                "flags": list(v.flags),
            }
            for v in result.ready
        ],
        "waiting": [{"id": x, "on": list(ys)} for x, ys in result.waiting.items()],
    }


def render_text(result: ReadyList) -> str:
    """One line per ready obligation, earliest bound first: terminal- and CI-log-safe (a title
    is spelled on its line; the document leaves through :func:`terminal`)."""
    point = result.resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    lines = [f"openloop ready at {format_time(point.at)} (known {known})"]
    if not result.ready:
        lines.append("nothing is ready: every open obligation waits on a precondition")
        if not result.waiting:
            lines[-1] = "nothing is ready: nothing is open"
    for v in result.ready:
        bound = f"bound {format_time(v.bound)}" if v.bound is not None else "no bound"
        flags = f"; {', '.join(v.flags)}" if v.flags else ""
        title = f' "{visible(v.title)}"' if v.title else ""
        lines.append(f"{visible(v.id)}{title} ({bound}{flags})")
    if result.waiting:
        lines.append(f"{len(result.waiting)} open obligation(s) wait on a precondition:")
        for x, ys in result.waiting.items():
            lines.append(f"    {x} waits on {', '.join(ys)}")
    return terminal("\n".join(lines) + "\n")
