"""Path globs for ``when touches "GLOB"`` and ``want touches "GLOB"`` (SPEC §5.1).

A glob matches a whole path, segment by segment (segments are separated by ``/``):

- ``*`` matches any characters within one segment, ``?`` exactly one character of a segment;
- ``[abc]``, ``[a-z]`` and ``[!abc]`` match one character of a segment from (or not from) a set;
- ``**`` as a whole segment spans any number of segments: ``src/**`` matches everything below
  ``src`` (but not ``src`` itself), ``**/test_*.py`` a test file in any folder (the top one
  too), ``a/**/b`` ``a/b``, ``a/x/b``, ``a/x/y/b``.

Anything else that looks like glob syntax and is not this is refused, so that a typo is an
error at the clause rather than a policy that silently never triggers: an empty glob, an empty
segment (``a//b``, a leading or trailing ``/``), ``**`` inside a segment (``a**``), an unclosed
``[``, an empty set ``[]``. Python's ``fnmatch`` lets ``*`` cross ``/`` and ``glob`` needs a file
system, so the translation to one regular expression is written here (about thirty lines).
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from resolver.language.model import Condition

__all__ = ["GlobError", "compile_glob", "glob_parts", "wildcards"]


class GlobError(ValueError):
    """A glob that cannot be parsed; the message says why."""


def _segment(segment: str, glob: str, capture: bool = False) -> str:
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            if segment[index : index + 2] == "**":
                raise GlobError(f"'**' must be a whole path segment in glob '{glob}'")
            out.append("([^/]*)" if capture else "[^/]*")
        elif char == "?":
            out.append("([^/])" if capture else "[^/]")
        elif char == "[":
            close = segment.find("]", index + 1)
            if close < 0:
                raise GlobError(f"unclosed '[' in glob '{glob}'")
            body = segment[index + 1 : close]
            negate = body.startswith("!")
            body = body[1:] if negate else body
            if not body:
                raise GlobError(f"empty character set '[]' in glob '{glob}'")
            escaped = body.replace("\\", "\\\\").replace("^", "\\^").replace("[", "\\[")
            one = f"[{'^/' if negate else ''}{escaped}]"
            out.append(f"({one})" if capture else one)
            index = close
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


@cache
def compile_glob(glob: str) -> re.Pattern[str]:
    """The regular expression matching exactly the paths ``glob`` matches; GlobError if bad."""
    return _compile(glob, False)


@cache
def glob_parts(glob: str) -> re.Pattern[str]:
    """:func:`compile_glob` with one group per wildcard, in order (``*``, ``?``, ``[...]``,
    ``**``): what ``$1``, ``$2``, ... of a policy's ``when touches`` stand for (SPEC §5.1). A
    ``**`` captures the segments it spans without their slashes (``a/**/b`` on ``a/x/y/b``:
    ``x/y``; on ``a/b``: the group is empty)."""
    return _compile(glob, True)


def wildcards(glob: str) -> int:
    """How many wildcards ``glob`` holds (the groups of :func:`glob_parts`)."""
    return glob_parts(glob).groups


def _compile(glob: str, capture: bool) -> re.Pattern[str]:
    if not glob:
        raise GlobError("empty glob")
    segments = glob.split("/")
    if any(not s for s in segments):
        raise GlobError(f"empty path segment in glob '{glob}' (a leading, trailing or double '/')")
    parts: list[str] = []
    last = len(segments) - 1
    for index, segment in enumerate(segments):
        if segment == "**":
            # Trailing: at least one segment below; elsewhere: zero or more whole segments.
            span = "[^/]+(?:/[^/]+)*"
            if capture:
                parts.append(f"({span})" if index == last else f"(?:({span})/)?")
            else:
                parts.append(span if index == last else "(?:[^/]+/)*")
            continue
        parts.append(_segment(segment, glob, capture) + ("" if index == last else "/"))
    return re.compile("".join(parts))


def touches_glob(conditions: tuple[Condition, ...]) -> int | None:
    """The positive ``when touches`` whose paths ``$path``, ``$1``, ... read: the first holding a
    wildcard, else the first."""
    positive = [i for i, c in enumerate(conditions) if c.kind == "touches" and not c.negated]
    wild = [i for i in positive if wildcards(conditions[i].operand)]
    return (wild or positive or [None])[0]
