"""Times and durations: parsing ISO-8601 text and encoding instants as clingo integers.

clingo integers are signed 32-bit and its text parser wraps silently past that range, so an
instant is handed to the rules as seconds from an epoch in the middle of the supported span
(1970-01-01 to 2100-12-31). Every encoded value is range-checked here, in one place. Durations
(``window``) are capped so that ``opening + window`` can never overflow inside the rules.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

#: Unix seconds of the encoding epoch, 2035-07-02T12:00:00Z: the middle of 1970..2100.
EPOCH_UNIX = 2_066_990_400
#: First and last supported instants, in Unix seconds.
MIN_UNIX = 0
MAX_UNIX = 4_133_980_799  # 2100-12-31T23:59:59Z
#: The largest accepted duration: about 931 days, so that any instant plus it stays in 32 bits.
MAX_DURATION = 2**31 - 1 - (MAX_UNIX - EPOCH_UNIX) - 1
#: Encoded value that stands for ``known latest``: later than every encodable instant.
LATEST = 2**31 - 1

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_DATETIME = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?"
    r"(Z|[+-]\d{2}:?\d{2})?$"
)
_DURATION = re.compile(r"^(\d+)([smhdw])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


class TimeFormatError(ValueError):
    """Text that is not a supported time or duration; the message says what was expected."""


def parse_time(text: str) -> int:
    """Parse a date or date-time (UTC unless zoned) into Unix seconds within 1970..2100."""
    if len(text) == 20 and text[19] == "Z" and text[10] == "T":  # the common log form, fast
        try:
            seconds = int(datetime.fromisoformat(text).timestamp())
        except ValueError:
            seconds = None
        if seconds is not None and MIN_UNIX <= seconds <= MAX_UNIX:
            return seconds
    raw = text.strip()
    match = _DATE.match(raw)
    try:
        if match:
            year, month, day = (int(g) for g in match.groups())
            moment = datetime(year, month, day, tzinfo=UTC)
        else:
            match = _DATETIME.match(raw)
            if not match:
                raise TimeFormatError(
                    f"expected a time such as 2024-08-27, 2024-08-27T10:00 or "
                    f"2024-08-27T10:00:00Z, got {text!r}"
                )
            year, month, day, hour, minute = (int(g) for g in match.groups()[:5])
            second = int(match.group(6) or 0)
            zone = _zone(match.group(8))
            moment = datetime(year, month, day, hour, minute, second, tzinfo=zone)
    except ValueError as exc:
        if isinstance(exc, TimeFormatError):
            raise
        raise TimeFormatError(f"invalid time {text!r}: {exc}") from None
    seconds = int(moment.timestamp())
    if not MIN_UNIX <= seconds <= MAX_UNIX:
        raise TimeFormatError(f"time {text!r} is outside the supported range 1970..2100")
    return seconds


def _zone(text: str | None) -> timezone:
    if text is None or text == "Z":
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))


def parse_duration(text: str) -> int:
    """Parse ``90m``, ``36h``, ``2d``, ``1w`` (or ``30s``) into seconds, capped at MAX_DURATION."""
    match = _DURATION.match(text.strip())
    if not match:
        raise TimeFormatError(f"expected a duration such as 90m, 36h, 2d or 1w, got {text!r}")
    seconds = int(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if seconds > MAX_DURATION:
        raise TimeFormatError(
            f"duration {text!r} is too long: at most {MAX_DURATION // 86400}d is supported"
        )
    return seconds


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
