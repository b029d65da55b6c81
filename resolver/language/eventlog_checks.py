"""The complete checks of one JSON line of an event log (SPEC §2.2), and their messages.

``eventlog.py`` reads most lines on a fast path; every line it does not accept outright comes
here, where each problem gets its own one-line message (``FILE:LINE: error: ...``). These checks
are the definition of a valid line: the fast path only ever accepts a subset of what they accept,
with the same result.
"""

from __future__ import annotations

import json
import re
from typing import Any

from resolver.errors import InputError, Location
from resolver.language.model import EVENT_CLAUSES, MARKER_KINDS, OUTCOMES, Assignment, Event, Marker
from resolver.times import TimeFormatError, parse_time

__all__ = ["FIELDS", "checked_line", "is_one_line"]

#: Every field an event object may carry, in the order of the ``event`` block; then
#: ``evidence``, the ids of the events a claim rests on (JSON only: read by the agent gate,
#: ``resolver/agents/evidence.py``, to say what each supports; no rule reads it).
FIELDS = ("id", *EVENT_CLAUSES, "evidence")
FIELD_SET = frozenset(FIELDS)
_REQUIRED = ("id", "channel", "at")
MAX_SEQ = 2**31 - 2  # seq numbers reach clingo as 32-bit integers, and so does seq + 1
MAX_INT = 2**31 - 1  # integer values: the range the snapshot and the language accept
#: ``id`` and ``channel`` follow the identifier grammar of SPEC §2.1, as in an ``event`` block.
IDENTIFIER = re.compile(r"[^\W\d][\w.:/@+-]*")
#: Other names (``by``, ``kind``, markers, ``set`` keys) may be free text, but one line of it.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: A ``\u`` escape of a surrogate: the only way a JSON line can hold text that is not UTF-8.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def is_one_line(value: str) -> bool:
    """The name holds no control character (what :func:`_one_line` accepts)."""
    return value.isprintable() or CONTROL.search(value) is None


def checked_line(line: str, location: Location) -> Event:
    """One line through the complete checks: its event, or the error that describes it."""
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
    if "\\u" in line and SURROGATE_ESCAPE.search(line):
        _refuse_surrogates(record, location)
    return _event(record, location)


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
        if key not in FIELD_SET:
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
        if key in ("id", "channel") and not IDENTIFIER.fullmatch(value):
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
    if seq is not None and not 0 <= seq <= MAX_SEQ:
        raise InputError(f"field 'seq' must be between 0 and {MAX_SEQ}, got {seq}", location)

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
    for cited in _name_list(fields.get("evidence", []), "evidence", "event id", location):
        if not IDENTIFIER.fullmatch(cited):
            raise InputError(f"field 'evidence': '{cited}' is not an event id", location)
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
        notes=_notes(fields.get("notes"), location),
    )


def _files(value: Any, location: Location) -> tuple[str, ...]:
    """``files``: a path or a list of paths (non-empty strings); duplicates kept once."""
    if value is None:
        return ()
    return tuple(dict.fromkeys(_name_list(value, "files", "path", location)))


def _notes(value: Any, location: Location) -> tuple[tuple[str, str], ...]:
    """``notes``: an object of key to text, each one line (a title prints it inside a line)."""
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise InputError(
            f"field 'notes' must be an object of key to text, got {_kind(value)}", location
        )
    notes = []
    for key, text in value.items():
        if not key:
            raise InputError("field 'notes' has an empty key", location)
        _one_line(key, "field 'notes': a key", location)
        if not isinstance(text, str):
            raise InputError(
                f"field 'notes': the note of '{key}' must be a string, got {_kind(text)}",
                location,
            )
        _one_line(text, f"field 'notes': the note of '{key}'", location)
        notes.append((key, text))
    return tuple(notes)


def _name_list(value: Any, field: str, noun: str, location: Location) -> list[str]:
    """A field holding one ``noun`` (a non-empty string) or a list of them, as a list."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list):
        raise InputError(
            f"field '{field}' must be a {noun} or a list of {noun}s, got {_kind(value)}", location
        )
    for name in names:
        if not isinstance(name, str) or not name:
            raise InputError(
                f"field '{field}' must hold non-empty {noun}s, got {_kind(name)}", location
            )
    return names


def _one_line(name: str, what: str, location: Location) -> None:
    """Names are printed inside lines of human output: a control character (an ESC sequence,
    a newline) in one could forge or overwrite what is printed around it."""
    found = None if name.isprintable() else CONTROL.search(name)  # the fast test first
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
        if not isinstance(item, bool | str) and not -MAX_INT - 1 <= item <= MAX_INT:
            raise InputError(
                f"field 'set': the value of '{key}' must be between {-MAX_INT - 1} and "
                f"{MAX_INT}, got {_kind(item)}",
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
        targets = _name_list(value, kind, "name", location)
        for target in targets:
            _one_line(target, f"field '{kind}'", location)
        markers.update(dict.fromkeys(Marker(kind, target) for target in targets))
    return tuple(markers)
