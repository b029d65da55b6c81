"""``openloop ingest beads``: a beads tracker's ``.beads/issues.jsonl``, one issue a line.

The fields read are those of beads' ``types.Issue`` as ``bd export`` writes them: ``id``,
``title``, ``description``, ``status`` (``open``, ``in_progress``, ``blocked``, ``deferred``,
``closed``, ``pinned``, ``hooked``; ``tombstone`` for a deleted issue, which is skipped),
``created_at``, ``created_by``, ``owner``, ``assignee``, ``started_at``, ``closed_at``,
``close_reason``, ``closed_by_session`` and ``dependencies`` (``issue_id``, ``depends_on_id``,
``type``). Per issue (see :mod:`resolver.ingest.tracker_common` for the shape):

- ``ID-opened`` at ``created_at``, by ``created_by`` (else ``owner``);
- ``ID-started-T`` at ``started_at`` (no marker: it records the time of the change);
- a closed issue: ``ID-closed-T`` at ``closed_at`` carrying ``claims_complete ID``, by the
  closer: ``session:SESSION`` when beads recorded the agent session that closed it (declared an
  agent: ``actor "session:*" agent``), else the assignee, else unnamed;
- an issue not closed now that has a ``closed_at`` (closed, then reopened): the close as above
  and ``ID-reopened-T`` at ``updated_at`` carrying ``reports_pending ID``;
- a ``blocks`` or ``waits-for`` dependency: ``requires`` the issue it depends on; a
  ``parent-child`` one makes the child ``part_of`` its parent (the parent becomes a task).

Every line keeps its position: a bad one is reported as ``FILE:LINE: error: ...``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.ingest.gitrun import source_error
from resolver.ingest.tracker_common import (
    Item,
    TrackerImport,
    check_id,
    check_text,
    tracker_time,
)

__all__ = ["read_beads"]

_STATUSES = {"open", "in_progress", "blocked", "deferred", "closed", "pinned", "hooked"}
_REQUIRES = {"blocks", "waits-for"}
#: The actor pattern of an agent session that closed an issue (beads' ``closed_by_session``).
SESSION_PATTERN = "session:*"


def read_beads(paths: list[str], by: str | None = None) -> TrackerImport:
    """Read one or more beads JSONL exports; ``by`` is the closer when beads names none."""
    imported = TrackerImport("beads")
    for path in paths:
        for line, record in _lines(Path(path)):
            _issue(imported, record, Location(str(path), line), by)
    return imported


def _lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise source_error(name, "no such file; expected beads' .beads/issues.jsonl") from None
    except IsADirectoryError:
        raise source_error(name, "a folder; expected beads' .beads/issues.jsonl") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (at byte {exc.start})", Location(name, 1)) from None
    records = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        where = Location(name, number)
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", where) from None
        except (RecursionError, ValueError):
            raise InputError(
                "invalid JSON: nested too deeply or too long a number", where
            ) from None
        if not isinstance(record, dict):
            raise InputError("expected a JSON object (one beads issue)", where)
        check_text(record, where)
        records.append((number, record))
    return records


def _text(record: dict[str, Any], key: str, where: Location) -> str:
    value = record.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"field '{key}' must be a string, got {value!r}", where)
    return value


def _actor(value: str) -> str | None:
    return value.strip().lower() or None


def _issue(
    imported: TrackerImport, record: dict[str, Any], where: Location, by: str | None
) -> None:
    missing = [k for k in ("id", "title", "status", "created_at") if k not in record]
    if missing:
        raise InputError(f"beads issue lacks {', '.join(missing)}", where)
    ident = check_id(_text(record, "id", where), where, "issue id")
    status = _text(record, "status", where)
    if status == "tombstone":
        return  # deleted in beads: no longer an obligation
    if status not in _STATUSES:
        raise InputError(
            f"field 'status': expected one of {', '.join(sorted(_STATUSES))}, got {status!r}",
            where,
        )
    created = tracker_time(record.get("created_at"), "created_at", where)
    if created is None:
        raise InputError("field 'created_at' must be a time", where)
    title = _text(record, "title", where)
    opener = _actor(_text(record, "created_by", where)) or _actor(_text(record, "owner", where))
    opening = imported.opened(
        ident, created, opener, title, _text(record, "description", where), where
    )
    requires, parent = _dependencies(record, ident, where)
    imported.add_item(Item(ident, title or ident, opening, requires, parent), where)
    started = tracker_time(record.get("started_at"), "started_at", where)
    if started is not None:
        imported.change(ident, "started", started, None, "in_progress", where)
    closed = tracker_time(record.get("closed_at"), "closed_at", where)
    if closed is None:
        if status == "closed":
            raise InputError("a closed issue needs field 'closed_at'", where)
        return
    session = _text(record, "closed_by_session", where).strip()
    if session:
        closer: str | None = f"session:{session}"
        imported.agents.append(SESSION_PATTERN)
    else:
        closer = _actor(_text(record, "assignee", where)) or by
    reason = _text(record, "close_reason", where)
    imported.change(
        ident, "closed", closed, closer, "closed", where, "claims_complete", {"reason": reason}
    )
    if status != "closed":
        reopened = tracker_time(record.get("updated_at"), "updated_at", where) or closed
        imported.change(ident, "reopened", reopened, by, status, where, "reports_pending")


def _dependencies(
    record: dict[str, Any], ident: str, where: Location
) -> tuple[list[str], str | None]:
    dependencies = record.get("dependencies") or []
    if not isinstance(dependencies, list):
        raise InputError("field 'dependencies' must be a list", where)
    requires: list[str] = []
    parent: str | None = None
    for dependency in dependencies:
        if not isinstance(dependency, dict):
            raise InputError(f"dependencies: expected objects, got {dependency!r}", where)
        kind = dependency.get("type") or "blocks"
        target = dependency.get("depends_on_id")
        source = dependency.get("issue_id", ident)
        if not isinstance(target, str) or not target or source != ident:
            raise InputError(
                f"dependencies: expected issue_id {ident!r} and a depends_on_id, got "
                f"{dependency!r}",
                where,
            )
        check_id(target, where, "depends_on_id")
        if kind in _REQUIRES:
            requires.append(target)
        elif kind == "parent-child":
            parent = target
    return requires, parent
