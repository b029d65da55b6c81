"""Markers read from a commit message: trailers and closing keywords (SPEC §6.1).

Trailers are found by git itself (``%(trailers:only,unfold)``: the last paragraph, git's rules), so
what counts as a trailer here is exactly what ``git interpret-trailers`` would say. Only the seven
marker keys are read, case-insensitively; a trailer whose value is not a comma-separated list of
identifiers is ill-formed and, like an unknown key, changes nothing (the whole message stays in the
event's text either way).

Closing keywords follow GitHub's list (``close``, ``closes``, ``closed``, ``fix``, ``fixes``,
``fixed``, ``resolve``, ``resolves``, ``resolved``, optionally followed by ``:``) before ``#N`` or
``OWNER/REPO#N``; each becomes ``completes ISSUE-PREFIX + N``. A keyword is an explicit marker from
the commit's author, never a state transition: the rules grade it at tier ``explicit``.
"""

from __future__ import annotations

import re

from resolver.vocabulary import MARKERS

__all__ = ["TRAILER_MARKERS", "closing_references", "trailer_markers"]

#: Trailer key (lower case) -> event marker field: ``Claims-Complete:`` for ``claims_complete``.
TRAILER_MARKERS = {marker.replace("_", "-"): marker for marker in MARKERS}

#: An identifier of the language (SPEC §2.1): a letter or ``_``, then letters, digits, ``_.:/-@+``.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.:/\-@+]*")
_CLOSING = re.compile(
    r"(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t]+"
    r"(?:[A-Za-z0-9][\w.-]*/[\w.-]+)?#(\d+)\b",
    re.IGNORECASE,
)
_MAX_ISSUE = 10**12


def trailer_markers(trailers: str) -> dict[str, list[str]]:
    """Markers from git's unfolded trailer lines, separated by U+001F; in order, unique."""
    markers: dict[str, dict[str, None]] = {}
    for line in trailers.split("\x1f"):
        key, sep, value = line.partition(":")
        field = TRAILER_MARKERS.get(key.strip().lower())
        if not sep or field is None:
            continue
        names = [part.strip() for part in value.split(",")]
        if not names or not all(_IDENTIFIER.fullmatch(name) for name in names):
            continue  # ill-formed: kept in the text, changes nothing
        markers.setdefault(field, {}).update(dict.fromkeys(names))
    return {field: list(names) for field, names in markers.items()}


def closing_references(message: str, prefix: str) -> list[str]:
    """``PREFIX + N`` for each closing keyword in ``message``, in order of appearance, unique."""
    found: dict[str, None] = {}
    for match in _CLOSING.finditer(message):
        number = int(match.group(1))
        if 0 < number < _MAX_ISSUE:
            found[f"{prefix}{number}"] = None
    return list(found)
