"""Errors that point back into the user's files.

Every problem with input is raised as an :class:`InputError` carrying the file, line and (for the
language) column, so the command line can print ``FILE:LINE:COL: error: ...`` and exit 2 before
anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """Where a declaration or event came from, for messages and explanations."""

    file: str
    line: int
    column: int | None = None

    def __str__(self) -> str:
        if self.column is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


class InputError(Exception):
    """Bad input or usage: the message is already in ``FILE:LINE[:COL]: error: ...`` form."""

    exit_code = 2

    def __init__(self, message: str, location: Location | None = None) -> None:
        self.location = location
        self.detail = message
        text = f"{location}: error: {message}" if location else f"error: {message}"
        super().__init__(text)
