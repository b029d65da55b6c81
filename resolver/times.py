"""Times and durations: parsing ISO-8601 text and encoding instants as clingo integers.

clingo integers are signed 32-bit and its text parser wraps silently past that range, so an
instant is handed to the rules as seconds from an epoch in the middle of the supported span
(1970-01-01 to 2100-12-31). Every encoded value is range-checked here, in one place. Durations
(``window``) are capped so that ``opening + window`` can never overflow inside the rules.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

#: Unix seconds of the encoding epoch, 2035-07-02T12:00:00Z: the middle of 1970..2100.
EPOCH_UNIX = 2_066_990_400
#: First and last supported instants, in Unix seconds.
MIN_UNIX = 0
MAX_UNIX = 4_133_980_799  # 2100-12-31T23:59:59Z
#: The largest accepted duration: about 931 days, so that any instant plus it stays in 32 bits.
MAX_DURATION = 2**31 - 1 - (MAX_UNIX - EPOCH_UNIX) - 1
#: Encoded value that stands for ``known latest``: later than every encodable instant.
LATEST = 2**31 - 1

#: The time forms of SPEC §2.1, ASCII digits only: a date, or a date and a time to the minute or
#: second, optionally zoned (``Z`` or ``±HH:MM``). The shape is checked here; the calendar (month
#: lengths, leap years, hour and minute ranges) is left to :meth:`datetime.fromisoformat`.
_SHAPE = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2})?(Z|[+-]([0-9]{2}):([0-9]{2}))?)?"
)
_DURATION = re.compile(r"([0-9]+)([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_FORMS = "2024-08-27, 2024-08-27T10:00, 2024-08-27T10:00:00Z or 2024-08-27T10:00+02:00"


class TimeFormatError(ValueError):
    """Text that is not a supported time or duration; the message says what was expected."""


def parse_time(text: str) -> int:
    """Parse a date or date-time (UTC unless zoned) into Unix seconds within 1970..2100.

    Exactly the forms of SPEC §2.1 are accepted: no surrounding spaces, no other digits than
    ``0``-``9``, no fractions of a second, a zone offset of at most 23:59.
    """
    match = _SHAPE.fullmatch(text)
    if match is None:
        raise TimeFormatError(f"expected a time such as {_FORMS}, got {shown(text)}")
    if match.group(2) is not None and (int(match.group(2)) > 23 or int(match.group(3)) > 59):
        raise TimeFormatError(
            f"invalid zone offset {match.group(1)!r} in {text!r}: expected -23:59 to +23:59"
        )
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise TimeFormatError(f"invalid time {text!r}: {_calendar_problem(text, exc)}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    seconds = int(moment.timestamp())
    if not MIN_UNIX <= seconds <= MAX_UNIX:
        raise TimeFormatError(f"time {text!r} is outside the supported range 1970..2100")
    return seconds


def _calendar_problem(text: str, exc: ValueError) -> str:
    """What is wrong with a well-shaped time: ``datetime`` names the field (``month must be in
    1..12``, ``day is out of range for month``)."""
    numbers = [int(part) for part in re.findall(r"[0-9]+", text[:19])]
    try:
        datetime(*numbers[:6])  # type: ignore[misc]
    except ValueError as problem:
        return str(problem)
    return str(exc)


def parse_duration(text: str) -> int:
    """Parse ``90m``, ``36h``, ``2d``, ``1w`` (or ``30s``) into seconds, capped at MAX_DURATION."""
    match = _DURATION.fullmatch(text)
    if not match:
        raise TimeFormatError(f"expected a duration such as 90m, 36h, 2d or 1w, got {shown(text)}")
    digits = match.group(1).lstrip("0") or "0"
    # More digits than any accepted duration has seconds: refused before int() (which would
    # refuse past 4,300 digits with an error of its own).
    seconds = int(digits) * _UNIT_SECONDS[match.group(2)] if len(digits) <= 12 else None
    if seconds is None or seconds > MAX_DURATION:
        raise TimeFormatError(
            f"duration {shown(text)} is too long: at most {MAX_DURATION // 86400}d is supported"
        )
    return seconds


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters (a 50 MB token stays short)."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 3]) + "..."


def format_time(unix: int) -> str:
    """Render Unix seconds as ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.fromtimestamp(unix, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def format_duration(seconds: int) -> str:
    """Render seconds in the largest unit that divides them exactly."""
    for unit in ("w", "d", "h", "m"):
        size = _UNIT_SECONDS[unit]
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def encode(unix: int) -> int:
    """Encode Unix seconds for clingo; refuses anything that would not fit in 32 bits."""
    if not MIN_UNIX <= unix <= MAX_UNIX:
        raise OverflowError(f"instant {unix} is outside 1970..2100 and cannot be encoded")
    return unix - EPOCH_UNIX


def decode(value: int) -> int:
    """Turn an encoded instant back into Unix seconds."""
    return value + EPOCH_UNIX


def now() -> int:
    """The current instant in Unix seconds (the default standpoint)."""
    return int(datetime.now(tz=UTC).timestamp())
