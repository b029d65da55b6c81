"""Parsed ``.ol`` files kept as data, so that a warm command need not load the grammar's parser.

Parsing is cheap once the parser exists, but building it (importing Lark, reading its tables) is
a large share of a hook's or ``ready``'s start-up. A file's parse is kept in the cache folder
as JSON, keyed by the SHA-256 of its bytes, its name (locations carry it) and the code
(:func:`resolver.store.keys.code_stamp`). The JSON names only the model's own classes
(:mod:`resolver.language.model` and :class:`~resolver.errors.Location`), decoded from a fixed
table: nothing in it is ever executed. An entry is written only when it decodes back to a project
equal to the parse; a file that does not parse is never kept (its error is raised each time);
a missing, torn or foreign entry is parsed again. Kept parses are read and written only while
a command reads its history through the store (:func:`keeping`): a library call or a test that
loads files parses them, and leaves nothing in the cache folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from resolver import resources
from resolver.errors import Location
from resolver.language import model
from resolver.store.keys import code_stamp

#: The classes an entry may name: the model's own, nothing else.
_CLASSES = {
    cls.__name__: cls
    for cls in (
        Location,
        model.Assignment,
        model.Marker,
        model.Channel,
        model.Actor,
        model.Alias,
        model.Expectation,
        model.Task,
        model.Event,
        model.Condition,
        model.Policy,
        model.Template,
        model.StandpointClause,
        model.Assertion,
        model.TestBlock,
    )
}
#: The fields of a parsed file's project that an entry holds (its events as a tuple).
_FIELDS = ("channels", "actors", "aliases", "tasks", "expectations", "events", "tests")
_FIELDS += ("templates", "policies", "sources")


#: Whether this context reads and keeps parses (set by :func:`keeping`).
_KEEPING: ContextVar[bool] = ContextVar("keeping_parses", default=False)


@contextmanager
def keeping() -> Iterator[None]:
    """Within this block, ``.ol`` files are read from and kept in the cache folder."""
    token = _KEEPING.set(True)
    try:
        yield
    finally:
        _KEEPING.reset(token)


class _Uncacheable(Exception):
    """A value outside what an entry can hold exactly."""


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        return {"(": [_encode(v) for v in value]}
    name = type(value).__name__
    if dataclasses.is_dataclass(value) and _CLASSES.get(name) is type(value):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$": name, **fields}
    raise _Uncacheable(name)


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "(" in value:
            return tuple(_decode(v) for v in value["("])
        cls = _CLASSES[value["$"]]  # a KeyError for any other name: the entry is a miss
        return cls(**{k: _decode(v) for k, v in value.items() if k != "$"})
    if isinstance(value, list):
        raise ValueError("a list where the model holds tuples")
    return value


def _field(project: model.Project, name: str) -> Any:
    """A field of the project as the model's values (the events as a tuple of events)."""
    value = getattr(project, name)
    return tuple(value) if name == "events" else value


def _named(name: str) -> str:
    """The part of an entry's file name that names the parsed file (its resolved path)."""
    path = str(Path(name).resolve()).encode("utf-8", errors="surrogateescape")
    return hashlib.sha256(path).hexdigest()[:16]


def _entry(name: str, data: bytes) -> Path:
    digest = hashlib.sha256(code_stamp().encode())
    digest.update(name.encode("utf-8", errors="surrogateescape") + b"\0")
    digest.update(data)
    return resources.cache_dir() / f"parsed-{_named(name)}-{digest.hexdigest()[:32]}.json"


def parse_file(name: str) -> model.Project:
    """The project of one ``.ol`` file: from its kept parse when there is one, else parsed
    (and kept), within :func:`keeping`; else parsed. Errors are the parser's."""
    data = None
    if _KEEPING.get():
        with suppress(OSError):
            data = Path(name).read_bytes()
    if data is not None:
        entry = _entry(name, data)
        try:
            document = json.loads(entry.read_text(encoding="utf-8"))
            return model.Project(**{k: _decode(document[k]) for k in _FIELDS})
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            pass
    from resolver.language.parser import parse_file as parse  # the grammar's parser

    project = parse(name)
    if data is not None:
        _keep(entry, project)
    return project


def _keep(entry: Path, project: model.Project) -> None:
    """Write the entry if it holds the parse exactly (best effort: a cache never fails a call)."""
    try:
        document = {k: _encode(_field(project, k)) for k in _FIELDS}
        again = model.Project(**{k: _decode(v) for k, v in document.items()})
        if again != project:
            return
        text = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".parsed-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.replace(temporary, entry)
        finally:
            Path(temporary).unlink(missing_ok=True)
        prefix = entry.name[: len("parsed-") + 16]
        for older in entry.parent.glob(f"{prefix}-*.json"):  # the file's earlier contents
            if older != entry:
                older.unlink(missing_ok=True)
    except (_Uncacheable, OSError, ValueError, TypeError, RecursionError):
        pass


def encode_items(items: dict[str, Any]) -> str | None:
    """Derived declarations (a policy's instances, by id) as JSON of the model's classes, or
    None when they do not read back exactly."""
    try:
        document = {ident: _encode(item) for ident, item in items.items()}
        if {ident: _decode(value) for ident, value in document.items()} != items:
            return None
        return json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    except (_Uncacheable, ValueError, TypeError, KeyError, RecursionError):
        return None


def decode_items(text: str) -> dict[str, model.Expectation | model.Task] | None:
    """The derived declarations of :func:`encode_items`' text, or None for any other text."""
    try:
        items = {ident: _decode(value) for ident, value in json.loads(text).items()}
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    if not all(isinstance(item, model.Expectation | model.Task) for item in items.values()):
        return None
    return items
