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
import re

from lark import Token

from resolver.errors import InputError, Location
from resolver.language.model import Value
from resolver.times import TimeFormatError, parse_duration, parse_time

__all__ = ["FILE", "choice", "duration", "integer", "loc", "names", "string", "time", "value"]

FILE: contextvars.ContextVar[str] = contextvars.ContextVar("openloop_file", default="<string>")

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
_ESCAPE = re.compile(r"\\(.)", re.S)
#: Integers reach clingo (or sit beside what does) as signed 32-bit numbers.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def loc(token: Token) -> Location:
    """Where a token stands."""
    return Location(FILE.get(), token.line, token.column)


def string(token: Token) -> str:
    """Decode a STRING token (escapes as documented in the module docstring)."""
    body = token[1:-1]
    if "\\" not in body:
        return body

    def unescape(match: re.Match[str]) -> str:  # one regex pass: linear on a 50 MB literal
        escaped = match.group(1)
        if escaped not in _ESCAPES:
            where = Location(FILE.get(), token.line, token.column + 1 + match.start())
            raise InputError(
                f"unknown escape '\\{escaped}' in string; "
                'use \\" for a quote, \\\\ for a backslash, \\n, \\t or \\r',
                where,
            )
        return _ESCAPES[escaped]

    return _ESCAPE.sub(unescape, body)


def integer(token: Token, low: int = INT_MIN, high: int = INT_MAX, what: str = "integer") -> int:
    """An INT token within ``low..high``, checked before conversion: digits 0-9 only (the
    lexer's ``\\d`` also matches other scripts' digits), and no 5,000-digit number reaches
    ``int`` (which refuses past 4,300 digits with an error of its own)."""
    text = str(token)
    digits = text.lstrip("-")
    if not (digits.isascii() and digits.isdigit()):
        raise InputError(f"{what} must be written with the digits 0-9, got {text!r}", loc(token))
    number = int(text) if len(digits.lstrip("0")) <= 12 else None
    if number is None or not low <= number <= high:
        shown = text if len(text) <= 20 else f"{text[:17]}... ({len(digits)} digits)"
        raise InputError(f"{what} must be between {low} and {high}, got {shown}", loc(token))
    return number


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


class BareValue(str):
    """``$value`` written bare on the right of ``want KEY =`` (SPEC §5.1): the same as the quoted
    ``"$value"``, but known to be a substitution, so that where nothing can stand for it (an
    expectation) it is an error rather than the text ``$value``."""


def value(token: Token) -> Value:
    """The value on the right of ``key = value``."""
    kind = token.type
    if kind == "STRING":
        return string(token)
    if kind == "KEY_TEMPLATE":
        if str(token) != "$value":
            raise InputError(
                f"a bare value may only be $value, got '{token}' (quote text: \"{token}\")",
                loc(token),
            )
        return BareValue("$value")
    if kind == "INT":
        return integer(token)
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
