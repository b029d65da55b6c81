"""Reading events from JSON lines (``.jsonl`` files, SPEC §2.2).

Each non-blank line is one JSON object with the fields of an ``event`` block, by the same names:
``id``, ``channel`` and ``at`` are required; ``seq`` is an integer; ``at`` and ``recorded`` are
times as the language writes them (``recorded`` defaults to ``at``); ``set`` is an object of
key to string, integer or boolean; each marker (``completes``, ``cancels``, ...) is a list of
names or a single name, and so is ``files`` (the paths the event touched); ``outcome`` is
``confirmed`` (the default), ``unknown`` or ``failed``.

The reader is strict because a log is evidence: an unknown field (often a typo such as
``complete``), a value of the wrong type or a key given twice is an error, never silently
dropped. ``null`` stands for an absent optional field, as tools that export logs often write it.
Errors read ``FILE:LINE: error: ...`` (JSON lines have no useful column).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.language.model import EVENT_CLAUSES, MARKER_KINDS, OUTCOMES, Assignment, Event, Marker
from resolver.times import TimeFormatError, parse_time

__all__ = ["FIELDS", "read_jsonl", "read_jsonl_text"]

#: Every field an event object may carry, in the order of the ``event`` block.
FIELDS = ("id", *EVENT_CLAUSES)
_FIELD_SET = frozenset(FIELDS)
_REQUIRED = ("id", "channel", "at")
_MAX_SEQ = 2**31 - 2  # seq numbers reach clingo as 32-bit integers, and so does seq + 1
_MAX_INT = 2**31 - 1  # integer values: the range the snapshot and the language accept
#: ``id`` and ``channel`` follow the identifier grammar of SPEC §2.1, as in an ``event`` block.
_IDENTIFIER = re.compile(r"[^\W\d][\w.:/@+-]*")
#: Other names (``by``, ``kind``, markers, ``set`` keys) may be free text, but one line of it.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: A ``\u`` escape of a surrogate: the only way a JSON line can hold text that is not UTF-8.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def read_jsonl(path: str | Path) -> tuple[Event, ...]:
    """Read one ``.jsonl`` file (UTF-8); locations name it as ``str(path)``."""
    name = str(path)
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(name, line)
        ) from None
    return read_jsonl_text(text, name)


def read_jsonl_text(text: str, filename: str) -> tuple[Event, ...]:
    """Parse JSON-lines text into events, in file order; blank lines are skipped.

    Lines are split on ``\\n`` only: JSON strings may hold a raw U+2028, which
    :meth:`str.splitlines` would wrongly treat as a line break.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    events: list[Event] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        location = Location(filename, number)
        try:
            record = json.loads(line, object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg} at column {exc.colno}", location) from None
        except _DuplicateKeyError as exc:
            raise InputError(f"field '{exc.key}' is given twice", location) from None
        except RecursionError:
            raise InputError("invalid JSON: nested too deeply", location) from None
        except ValueError:  # Python refuses integers of more than 4,300 digits
            raise InputError("invalid JSON: an integer with too many digits", location) from None
        if "\\u" in line and _SURROGATE_ESCAPE.search(line):
            _refuse_surrogates(record, location)
        events.append(_event(record, location))
    return tuple(events)


def _refuse_surrogates(value: Any, location: Location, key: str = "") -> None:
    """A lone surrogate (``"e\\ud800"``) is not text: it cannot be printed or written as UTF-8."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            where = f" in field '{key}'" if key else ""
            raise InputError(
                f"a string{where} holds a lone surrogate escape, which is not UTF-8 text",
                location,
            ) from None
    elif isinstance(value, list):
        for item in value:
            _refuse_surrogates(item, location, key)
    elif isinstance(value, dict):
        for name, item in value.items():
            _refuse_surrogates(name, location, key)
            _refuse_surrogates(item, location, key or name)


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json`` keeps the last of two equal keys; in a log that hides a mistake."""
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise _DuplicateKeyError(key)
        record[key] = value
    return record


def _kind(value: Any) -> str:
    """A value for messages: short scalars as JSON, containers by their kind."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _event(record: Any, location: Location) -> Event:
    if not isinstance(record, dict):
        raise InputError(f"expected a JSON object (one event), got {_kind(record)}", location)
    for key in record:
        if key not in _FIELD_SET:
            raise InputError(
                f"unknown field '{key}'; expected one of: {', '.join(FIELDS)}", location
            )
    fields = {k: v for k, v in record.items() if v is not None}
    for key in _REQUIRED:
        if key not in fields:
            raise InputError(f"missing required field '{key}'", location)

    def name(key: str) -> str | None:
        value = fields.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise InputError(
                f"field '{key}' must be a non-empty string, got {_kind(value)}", location
            )
        if key in ("id", "channel") and not _IDENTIFIER.fullmatch(value):
            raise InputError(
                f"field '{key}' must be an identifier (a letter or '_', then letters, digits "
                f"and _ . : / - @ +), got {_kind(value)}",
                location,
            )
        _one_line(value, f"field '{key}'", location)
        return value

    def time(key: str) -> int | None:
        value = fields.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise InputError(f"field '{key}' must be a time string, got {_kind(value)}", location)
        try:
            return parse_time(value)
        except TimeFormatError as exc:
            raise InputError(f"field '{key}': {exc}", location) from None

    seq = fields.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise InputError(f"field 'seq' must be an integer, got {_kind(seq)}", location)
    if seq is not None and not 0 <= seq <= _MAX_SEQ:
        raise InputError(f"field 'seq' must be between 0 and {_MAX_SEQ}, got {seq}", location)

    text = fields.get("text")
    if text is not None and not isinstance(text, str):
        raise InputError(f"field 'text' must be a string, got {_kind(text)}", location)

    outcome = fields.get("outcome", "confirmed")
    if not isinstance(outcome, str) or outcome.lower() not in OUTCOMES:
        raise InputError(
            f"field 'outcome' must be one of {', '.join(OUTCOMES)}, got {_kind(outcome)}", location
        )

    at = time("at")
    assert at is not None  # required above
    recorded = time("recorded")
    return Event(
        id=name("id") or "",
        channel=name("channel") or "",
        at=at,
        recorded=at if recorded is None else recorded,
        location=location,
        seq=seq,
        by=name("by"),
        kind=name("kind"),
        text=text,
        sets=_sets(fields.get("set"), location),
        markers=_markers(fields, location),
        outcome=outcome.lower(),
        files=_files(fields.get("files"), location),
    )


def _files(value: Any, location: Location) -> tuple[str, ...]:
    """``files``: a path or a list of paths (non-empty strings); duplicates kept once."""
    if value is None:
        return ()
    paths = [value] if isinstance(value, str) else value
    if not isinstance(paths, list):
        raise InputError(
            f"field 'files' must be a path or a list of paths, got {_kind(value)}", location
        )
    for path in paths:
        if not isinstance(path, str) or not path:
            raise InputError(
                f"field 'files' must hold non-empty paths, got {_kind(path)}", location
            )
    return tuple(dict.fromkeys(paths))


def _one_line(name: str, what: str, location: Location) -> None:
    """Names are printed inside lines of human output: a control character (an ESC sequence,
    a newline) in one could forge or overwrite what is printed around it."""
    found = None if name.isprintable() else _CONTROL.search(name)  # the fast test first
    if found is not None:
        raise InputError(
            f"{what} must not hold control characters, got {_kind(name)} "
            f"(holding {found.group()!r})",
            location,
        )


def _sets(value: Any, location: Location) -> tuple[Assignment, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise InputError(
            f"field 'set' must be an object of key to value, got {_kind(value)}", location
        )
    assignments = []
    for key, item in value.items():
        if not key:
            raise InputError("field 'set' has an empty key", location)
        _one_line(key, "field 'set': a key", location)
        if not isinstance(item, str | int):  # bool is an int
            raise InputError(
                f"field 'set': the value of '{key}' must be a string, an integer or a boolean, "
                f"got {_kind(item)}",
                location,
            )
        if not isinstance(item, bool | str) and not -_MAX_INT - 1 <= item <= _MAX_INT:
            raise InputError(
                f"field 'set': the value of '{key}' must be between {-_MAX_INT - 1} and "
                f"{_MAX_INT}, got {_kind(item)}",
                location,
            )
        assignments.append(Assignment(key, item))
    return tuple(assignments)


def _markers(fields: dict[str, Any], location: Location) -> tuple[Marker, ...]:
    markers: dict[Marker, None] = {}
    for kind in MARKER_KINDS:
        value = fields.get(kind)
        if value is None:
            continue
        targets = [value] if isinstance(value, str) else value
        if not isinstance(targets, list):
            raise InputError(
                f"field '{kind}' must be a name or a list of names, got {_kind(value)}", location
            )
        for target in targets:
            if not isinstance(target, str) or not target:
                raise InputError(
                    f"field '{kind}' must hold non-empty names, got {_kind(target)}", location
                )
            _one_line(target, f"field '{kind}'", location)
        markers.update(dict.fromkeys(Marker(kind, target) for target in targets))
    return tuple(markers)
