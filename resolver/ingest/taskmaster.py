"""``openloop ingest taskmaster``: Task Master's ``tasks.json`` (in ``.taskmaster/tasks/``).

Two layouts, both written by Task Master: the tagged one (``{"master": {"tasks": [...],
"metadata": {...}}, "TAG": {...}}``) and the older plain one (``{"tasks": [...], "metadata":
{...}}``). A task has ``id`` (an integer), ``title``, ``description``, ``details``, ``status``
(``pending``, ``in-progress``, ``review``, ``blocked``, ``done``, ``completed``, ``deferred``,
``cancelled``), ``dependencies`` (task ids; in a subtask, sibling ids or ``"P.S"``),
``subtasks`` (the same fields), and in newer files ``createdAt``/``updatedAt``; the tag's
``metadata`` holds ``created`` and ``updated`` (or ``lastModified``).

Ids: ``tm-N`` and ``tm-N.S`` in the ``master`` tag, ``tm-TAG/N`` in another tag. A task with
subtasks becomes a task whose obligations they are; one without, an expectation. Task Master
keeps no history of status changes, only the current status, so the times are the best the file
holds: opened at the task's ``createdAt``, else the tag's ``created``; a change at the task's
``updatedAt``, else the tag's ``updated``; else ``--at`` (the time of the export); with none of
these the import stops (a time made up per run would break idempotence). ``done``/``completed``
is a claim (``claims_complete``), ``cancelled`` a ``cancels``; a ``previousStatus`` of ``done``
under another status is a reopening (``reports_pending``). Task Master names no actor: ``--by``
names who changes statuses (the agent that works the list, usually).
"""

from __future__ import annotations

import json
from functools import partial
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

__all__ = ["read_taskmaster"]

_STATUSES = {
    "pending", "in-progress", "review", "blocked", "done", "completed", "deferred", "cancelled",
}  # fmt: skip
_DONE = {"done", "completed"}


def read_taskmaster(
    paths: list[str], by: str | None = None, at: str | None = None, tag: str | None = None
) -> TrackerImport:
    """Read Task Master ``tasks.json`` files; ``at`` is the export's time for records without
    one; ``tag`` keeps one tag only."""
    imported = TrackerImport("taskmaster")
    for path in paths:
        name = str(path)
        text = _read(Path(path))
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", Location(name, exc.lineno)) from None
        except (RecursionError, ValueError):
            raise InputError(
                "invalid JSON: too deep or too long a number", Location(name, 1)
            ) from None
        check_text(data, Location(name, 1))
        for tag_name, block in _tags(data, name):
            if tag is not None and tag_name != tag:
                continue
            _Tag(imported, name, text, tag_name, block, by, at).read()
    return imported


def _read(path: Path) -> str:
    name = str(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise source_error(name, "no such file; expected Task Master's tasks.json") from None
    except IsADirectoryError:
        raise source_error(name, "a folder; expected Task Master's tasks.json") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (at byte {exc.start})", Location(name, 1)) from None


def _tags(data: Any, name: str) -> list[tuple[str, dict[str, Any]]]:
    where = Location(name, 1)
    if not isinstance(data, dict):
        raise InputError(
            'expected a JSON object ({"master": {"tasks": [...]}} or {"tasks": [...]})', where
        )
    if isinstance(data.get("tasks"), list):
        return [("master", data)]
    tags = []
    for tag_name, block in data.items():
        if not isinstance(block, dict) or not isinstance(block.get("tasks"), list):
            raise InputError(f'tag {tag_name!r}: expected an object with a "tasks" list', where)
        tags.append((tag_name, block))
    return tags


class _Tag:
    """One tag's tasks, with the line each task's id sits on for messages."""

    def __init__(
        self,
        imported: TrackerImport,
        name: str,
        text: str,
        tag: str,
        block: dict[str, Any],
        by: str | None,
        at: str | None,
    ) -> None:
        self.imported, self.name, self.text, self.by = imported, name, text, by
        self.prefix = "tm-" if tag == "master" else f"tm-{tag}/"
        meta = block.get("metadata") if isinstance(block.get("metadata"), dict) else {}
        where = Location(name, 1)
        self.created = tracker_time(meta.get("created"), f"{tag}.metadata.created", where)
        self.updated = tracker_time(
            meta.get("updated") or meta.get("lastModified"), f"{tag}.metadata.updated", where
        )
        self.at = tracker_time(at, "--at", where) if at else None
        self.tasks = block["tasks"]
        self.search_from = 0

    def where(self, number: Any) -> Location:
        """The line of the next ``"id": number`` in the file (tasks are read in file order)."""
        needle = f'"id": {json.dumps(number)}'
        found = self.text.find(needle, self.search_from)
        if found < 0:
            return Location(self.name, 1)
        self.search_from = found + len(needle)
        return Location(self.name, self.text.count("\n", 0, found) + 1)

    def read(self) -> None:
        for task in self.tasks:
            if not isinstance(task, dict):
                raise InputError(f"expected a task object, got {task!r}", Location(self.name, 1))
            where = self.where(task.get("id"))
            ident = self.ident(task.get("id"), where)
            subtasks = task.get("subtasks") or []
            if not isinstance(subtasks, list):
                raise InputError("field 'subtasks' must be a list", where)
            self.item(task, ident, None, where, partial(self.ident, where=where))
            seen: set[str] = set()
            for sub in subtasks:
                if not isinstance(sub, dict):
                    raise InputError(f"expected a subtask object, got {sub!r}", where)
                sub_where = self.where(sub.get("id"))
                sub_ident = f"{ident}.{self.number(sub.get('id'), sub_where)}"
                if sub_ident in seen:
                    raise InputError(
                        f"task {ident}: subtask id {sub.get('id')!r} is given twice (a subtask "
                        "id must be unique in its task: dependencies name subtasks by it)",
                        sub_where,
                    )
                seen.add(sub_ident)
                self.item(
                    sub, sub_ident, ident, sub_where, partial(self.sibling, ident, where=sub_where)
                )

    def number(self, value: Any, where: Location) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).isdigit():
            raise InputError(f"field 'id' must be a positive integer, got {value!r}", where)
        return int(value)

    def ident(self, value: Any, where: Location) -> str:
        """A task id (``3``, or ``"3.1"`` for a subtask named from elsewhere)."""
        if isinstance(value, str) and "." in value:
            head, _, tail = value.partition(".")
            return check_id(
                f"{self.prefix}{self.number(head, where)}.{self.number(tail, where)}", where
            )
        return check_id(f"{self.prefix}{self.number(value, where)}", where)

    def sibling(self, parent: str, value: Any, where: Location) -> str:
        if isinstance(value, str) and "." in value:
            return self.ident(value, where)
        return f"{parent}.{self.number(value, where)}"

    def item(self, task: dict[str, Any], ident: str, parent: str | None, where, depends) -> None:
        for key in ("title", "status"):
            if not isinstance(task.get(key), str):
                raise InputError(f"task {ident}: field '{key}' must be a string", where)
        status = task["status"].lower()
        if status not in _STATUSES:
            raise InputError(
                f"task {ident}: field 'status': expected one of {', '.join(sorted(_STATUSES))}, "
                f"got {task['status']!r}",
                where,
            )
        dependencies = task.get("dependencies") or []
        if not isinstance(dependencies, list):
            raise InputError(f"task {ident}: field 'dependencies' must be a list", where)
        opened = tracker_time(task.get("createdAt"), "createdAt", where) or self.created or self.at
        if opened is None:
            raise InputError(
                f"task {ident}: no time to open it at (no createdAt, no tag metadata.created): "
                "give --at, the time of the export",
                where,
            )
        body = "\n\n".join(
            str(task[k]).strip() for k in ("description", "details") if isinstance(task.get(k), str)
        )
        title = task["title"]
        opening = self.imported.opened(ident, opened, None, title, body, where)
        requires = [depends(d) for d in dependencies]
        self.imported.add_item(Item(ident, title or ident, opening, requires, parent), where)
        changed = tracker_time(task.get("updatedAt"), "updatedAt", where) or self.updated or self.at
        previous = str(task.get("previousStatus") or "").lower()
        if status in _DONE or status == "cancelled" or previous in _DONE:
            if changed is None:
                raise InputError(
                    f"task {ident}: no time for its status change (no updatedAt, no tag "
                    "metadata.updated): give --at, the time of the export",
                    where,
                )
            changed = max(changed, opened)
        if status in _DONE:
            self.imported.change(
                ident, "closed", changed, self.by, status, where, "claims_complete"
            )
        elif status == "cancelled":
            self.imported.change(ident, "cancelled", changed, self.by, status, where, "cancels")
        elif previous in _DONE:
            self.imported.change(
                ident, "reopened", changed, self.by, status, where, "reports_pending"
            )
