"""``openloop ingest backlog``: Backlog.md's task files (``backlog/tasks/*.md`` and friends).

Each task is a Markdown file whose front matter (between ``---`` lines) holds ``id``, ``title``,
``status``, ``assignee``, ``reporter``, ``created_date``, ``updated_date``, ``labels``,
``dependencies`` and ``parent_task_id``. Given a ``backlog`` folder, the importer reads
``tasks/``, ``completed/`` and ``archive/tasks/`` (drafts are not obligations yet); given files,
those files.

The front matter is read by a small reader of the subset Backlog.md writes (``key: value``,
``key: [a, b]``, ``key:`` then ``- item`` lines, quoted or bare scalars, indented continuation
lines), not by a YAML library:
Backlog.md writes ``assignee: @alice``, which YAML refuses (``@`` is reserved), and a tracker's
real files must be read as they are.

Ids are lower case with numbers unpadded (``BACK-12.01`` is ``back-12.1``), and a reference
(a dependency, a parent) takes the referring task's prefix (``task-12`` or ``12`` written in a
``back-`` project is ``back-12``): Backlog.md compares ids so, and projects that changed their
prefix keep the old one in references. A task whose status
is the done status (``--done-status``, default ``Done``) or whose file lies in ``completed/`` is
claimed complete at ``updated_date`` (else ``--at``) by its first assignee (else ``--by``): a
claim, judged by the rules. A task in ``archive/tasks/`` is cancelled (``cancels``), which takes
effect only where the actor has authority. ``dependencies`` become ``requires``, and a
``parent_task_id`` makes the task an obligation of its parent.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.ingest.gitrun import source_error
from resolver.ingest.tracker_common import Item, TrackerImport, check_id, tracker_time

__all__ = ["front_matter", "read_backlog"]

_FOLDERS = ("tasks", "completed", "archive/tasks")
_NUMBERED = re.compile(r"^(?P<prefix>[a-z][a-z0-9_]*)-(?P<number>\d+(?:\.\d+)*)$")
_BARE = re.compile(r"^(?P<number>\d+(?:\.\d+)*)$")


def read_backlog(
    paths: list[str], by: str | None = None, at: str | None = None, done: str = "Done"
) -> TrackerImport:
    """Read Backlog.md task files or ``backlog`` folders."""
    imported = TrackerImport("backlog")
    files = _files(paths)
    files.sort(key=_archived)  # live tasks first: an archived copy yields to them
    holders: dict[str, Path] = {}
    for path in files:
        _task(imported, path, by, at, done, holders)
    return imported


def _archived(path: Path) -> bool:
    return path.parent.as_posix().endswith("archive/tasks")


def _files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            folders = [path / f for f in _FOLDERS if (path / f).is_dir()]
            if not folders and (path / "backlog").is_dir():
                folders = [
                    path / "backlog" / f for f in _FOLDERS if (path / "backlog" / f).is_dir()
                ]
            if not folders:
                raise source_error(given, "no tasks/, completed/ or archive/tasks/ folder here")
            for folder in folders:  # Backlog.md keeps a readme.md in its folders: no task
                found.extend(
                    f for f in sorted(folder.glob("*.md")) if f.name.lower() != "readme.md"
                )
        elif path.is_file():
            found.append(path)
        else:
            raise source_error(given, "no such file or folder; expected Backlog.md task files")
    return found


def _strip(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def front_matter(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """The front matter's fields (strings or lists of strings) and the line of each field."""
    name = str(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (at byte {exc.start})", Location(name, 1)) from None
    except OSError as exc:
        raise source_error(name, exc.strerror or "cannot read") from None
    if not lines or lines[0].strip() != "---":
        raise InputError("expected front matter: a first line '---'", Location(name, 1))
    fields: dict[str, Any] = {}
    where: dict[str, int] = {}
    current: str | None = None
    for number, raw in enumerate(lines[1:], start=2):
        if raw.strip() == "---":
            return fields, where
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw.lstrip().startswith("- ") or raw.strip() == "-":
            if current is None or not isinstance(fields.get(current), list):
                raise InputError("a list item outside a list field", Location(name, number))
            fields[current].append(_strip(raw.lstrip()[1:]))
            continue
        if raw[0] in " \t" and current is not None:
            _continue(fields, current, raw.strip())  # a folded or block line of the last value
            continue
        key, colon, value = raw.partition(":")
        if not colon or not key.strip() or key != key.strip():
            raise InputError(f"expected 'key: value' in front matter, got {raw.strip()!r}",
                             Location(name, number))  # fmt: skip
        current = key.strip()
        where[current] = number
        value = value.strip()
        if not value:
            fields[current] = []
        elif value.startswith("[") and value.endswith("]"):
            inner = value[1:-1].strip()
            fields[current] = [_strip(v) for v in inner.split(",")] if inner else []
        else:
            fields[current] = _strip(value)
    raise InputError("front matter not closed by a line '---'", Location(name, len(lines)))


def _continue(fields: dict[str, Any], key: str, text: str) -> None:
    """Append a continuation line to the field's value (or its last list item); a block
    scalar's indicator (``>-``, ``|``) gives way to the text it introduces."""
    value = fields[key]
    if isinstance(value, list):
        if not value:
            value.append("")
        value[-1] = _joined(value[-1], text)
    else:
        fields[key] = _joined(value, text)


def _joined(value: str, text: str) -> str:
    if value in (">", ">-", ">+", "|", "|-", "|+"):
        return text
    return f"{value} {text}".strip()


def _canonical(reference: str, prefix: str | None) -> str:
    """A task id as Backlog.md compares ids: lower case, numbers without leading zeros, and,
    for a reference, the referring task's prefix (a project that changed its prefix from
    ``task`` to ``back`` still writes ``task-12`` or ``12`` for ``BACK-12``)."""
    text = reference.strip().lower()
    found = _NUMBERED.match(text) or _BARE.match(text)
    if found is None:
        return text
    number = ".".join(str(int(part)) for part in found.group("number").split("."))
    own = found.groupdict().get("prefix")
    return f"{prefix or own}-{number}" if (prefix or own) else number


def _string(fields: dict[str, Any], key: str, location: Location) -> str:
    value = fields.get(key, "")
    if isinstance(value, list):
        if not value:
            return ""
        raise InputError(f"field '{key}' must be one value, got a list", location)
    return value


def _names(fields: dict[str, Any], key: str) -> list[str]:
    value = fields.get(key, [])
    values = value if isinstance(value, list) else [v for v in value.split(",")]
    return [v.strip().lstrip("@").lower() for v in values if v.strip()]


def _task(
    imported: TrackerImport,
    path: Path,
    by: str | None,
    at: str | None,
    done: str,
    holders: dict[str, Path],
) -> None:
    fields, lines = front_matter(path)
    name = str(path)

    def here(key: str) -> Location:
        return Location(name, lines.get(key, 1))

    for key in ("id", "title", "status"):
        if key not in fields:
            raise InputError(f"Backlog.md task lacks '{key}'", Location(name, 1))
    ident = check_id(_canonical(_string(fields, "id", here("id")), None), here("id"), "task id")
    prefix = ident.rsplit("-", 1)[0] if _NUMBERED.match(ident) else None
    holder = holders.get(ident)
    if holder is not None:
        if _archived(path) and not _archived(holder):
            imported.warnings.append(
                f"{name}:{lines.get('id', 1)}: warning: task {ident} is archived here and live "
                f"in {holder}: the live task is imported"
            )
            return
        raise InputError(f"task {ident} is also given in {holder}", here("id"))
    holders[ident] = path
    title = _string(fields, "title", here("title"))
    status = _string(fields, "status", here("status"))
    created = tracker_time(_string(fields, "created_date", here("created_date")) or None,
                           "created_date", here("created_date"))  # fmt: skip
    export = tracker_time(at, "--at", Location(name, 1)) if at else None
    opened = created or export
    if opened is None:
        raise InputError("no created_date: give --at, the time of the export", here("id"))
    body = path.read_text(encoding="utf-8").split("---", 2)[-1]
    reporter = (_names(fields, "reporter") or [None])[0]
    opening = imported.opened(ident, opened, reporter, title, body, here("id"))
    requires = [check_id(_canonical(d, prefix), here("dependencies"), "dependency")
                for d in _names(fields, "dependencies")]  # fmt: skip
    parent_given = _string(fields, "parent_task_id", here("parent_task_id")).strip()
    parent_text = _canonical(parent_given, prefix) if parent_given else ""
    parent = (
        check_id(parent_text, here("parent_task_id"), "parent_task_id") if parent_text else None
    )
    imported.add_item(Item(ident, title or ident, opening, requires, parent), here("id"))
    folder = path.parent.as_posix()
    archived = folder.endswith("archive/tasks")
    finished = status.strip().lower() == done.strip().lower() or folder.endswith("completed")
    if not (finished or archived):
        return
    updated = tracker_time(_string(fields, "updated_date", here("updated_date")) or None,
                           "updated_date", here("updated_date"))  # fmt: skip
    changed = updated or export
    if changed is None:
        raise InputError(
            "a finished or archived task needs updated_date: give --at, the time of the export",
            here("status"),
        )
    changed = max(changed, opened)
    closer = (_names(fields, "assignee") or [by])[0]
    if archived and not finished:
        imported.change(ident, "cancelled", changed, closer, status, here("status"), "cancels")
    else:
        imported.change(ident, "closed", changed, closer, status, here("status"), "claims_complete")
