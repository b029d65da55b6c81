"""Decoding token values: strings with their escapes, times, durations, closed word sets.

Every decoder raises :class:`~resolver.errors.InputError` at the token (or, for a bad escape, at
the character) so that a mistake is reported where the user made it. The file name for locations
comes from :data:`FILE`, set by the parser around each parse.

Strings: ``\\"`` and ``\\\\`` stand for a quote and a backslash, and ``\\n``, ``\\t``, ``\\r`` for a
newline, tab and carriage return (so that any event text, including one read from JSON lines,
can be written back as a one-line literal). Any other backslash sequence is rejected.
"""

from __future__ import annotations

import contextvars

from lark import Token

from resolver.errors import InputError, Location
from resolver.language.model import Value
from resolver.times import TimeFormatError, parse_duration, parse_time

__all__ = ["FILE", "choice", "duration", "loc", "names", "string", "time", "value"]

FILE: contextvars.ContextVar[str] = contextvars.ContextVar("openloop_file", default="<string>")

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}


def loc(token: Token) -> Location:
    """Where a token stands."""
    return Location(FILE.get(), token.line, token.column)


def string(token: Token) -> str:
    """Decode a STRING token (escapes as documented in the module docstring)."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char != "\\":
            out.append(char)
            index += 1
            continue
        escaped = body[index + 1]
        if escaped not in _ESCAPES:
            where = Location(FILE.get(), token.line, token.column + 1 + index)
            raise InputError(
                f"unknown escape '\\{escaped}' in string; "
                'use \\" for a quote, \\\\ for a backslash, \\n, \\t or \\r',
                where,
            )
        out.append(_ESCAPES[escaped])
        index += 2
    return "".join(out)


def time(token: Token) -> int:
    """A TIME token in Unix seconds."""
    try:
        return parse_time(str(token))
    except TimeFormatError as exc:
        raise InputError(str(exc), loc(token)) from None


def duration(token: Token) -> int:
    """A DURATION token in seconds."""
    try:
        return parse_duration(str(token))
    except TimeFormatError as exc:
        raise InputError(str(exc), loc(token)) from None


def value(token: Token) -> Value:
    """The value on the right of ``key = value``."""
    kind = token.type
    if kind == "STRING":
        return string(token)
    if kind == "INT":
        return int(token)
    return kind == "TRUE"


def choice(token: Token, allowed: tuple[str, ...], what: str) -> str:
    """A word from a closed set, lower case, or an error listing the set."""
    word = str(token).lower()
    if word not in allowed:
        raise InputError(
            f"unknown {what} '{token}'; expected one of: {', '.join(allowed)}", loc(token)
        )
    return word


def names(tokens: list[Token]) -> tuple[str, ...]:
    """Identifier tokens as strings."""
    return tuple(str(t) for t in tokens)
