"""Markers read from a commit message: trailers, closing keywords and reverts (SPEC §6.1).

Trailers are found by git itself (``%(trailers:only,unfold)``: the last paragraph, git's rules), so
what counts as a trailer here is exactly what ``git interpret-trailers`` would say. Only the seven
marker keys are read, case-insensitively; a trailer whose value is not a comma-separated list of
identifiers is ill-formed and, like an unknown key, changes nothing (the whole message stays in the
event's text either way).

Closing keywords follow GitHub's documentation ("Linking a pull request to an issue using a
keyword"): ``close``, ``closes``, ``closed``, ``fix``, ``fixes``, ``fixed``, ``resolve``,
``resolves``, ``resolved``, any case, optionally followed by ``:``, then one reference to an issue
in a form GitHub autolinks ("Autolinked references and URLs"): ``#N``, ``GH-N``,
``OWNER/REPO#N`` or ``https://github.com/OWNER/REPO/issues/N``. A ``/pull/N`` URL names a pull
request, which is no issue expectation, so it closes nothing here. Each reference becomes
``completes ISSUE-PREFIX + N``: an explicit marker from the commit's author, never a state
transition (the rules grade it at tier ``explicit``).

A revert's subject quotes the reverted commit's subject (``Revert "Fix #3013"``): the words inside
the quotes are what the reverted commit said, not what the revert does, so they close nothing,
also where a merge or a squash repeats that subject at the start of a line of its body.
What a revert does to the reverted commit's closings is decided in :mod:`resolver.ingest.git`
from the ``This reverts commit HASH.`` line (:func:`reverted_commits`).
"""

from __future__ import annotations

import re

from resolver.vocabulary import MARKERS

__all__ = ["TRAILER_MARKERS", "closing_references", "reverted_commits", "trailer_markers"]

#: Trailer key (lower case) -> event marker field: ``Claims-Complete:`` for ``claims_complete``.
TRAILER_MARKERS = {marker.replace("_", "-"): marker for marker in MARKERS}

#: An identifier of the language (SPEC §2.1): a letter or ``_``, then letters, digits, ``_.:/-@+``.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.:/\-@+]*")
_OWNER_REPO = r"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]+"
_CLOSING = re.compile(
    r"(?<![\w-])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t]+"
    r"(?:"
    rf"(?:{_OWNER_REPO})?#(?P<hash>\d+)"
    r"|gh-(?P<gh>\d+)"
    rf"|<?https?://(?:www\.)?github\.com/{_OWNER_REPO}/issues/(?P<url>\d+)"
    r")\b",
    re.IGNORECASE,
)
#: The subject git writes for a revert (and, since git 2.43, for a revert of a revert), also
#: where a merge or a squash repeats it in its body (``* Revert "Fix #3"``).
_QUOTED_SUBJECT = re.compile(r'^[ \t]*(?:[*-][ \t]+)?(?:Revert|Reapply) ".*"', re.MULTILINE)
_REVERTS = re.compile(r"This reverts commit ([0-9a-f]{7,64})\b", re.IGNORECASE)
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
    """``PREFIX + N`` for each closing keyword in ``message``, in order of appearance, unique.

    A revert's quoted subject is skipped, wherever a line starts with one: it restates the
    reverted commit.
    """
    message = _QUOTED_SUBJECT.sub("", message)
    found: dict[str, None] = {}
    for match in _CLOSING.finditer(message):
        number = int(match.group("hash") or match.group("gh") or match.group("url"))
        if 0 < number < _MAX_ISSUE:
            found[f"{prefix}{number}"] = None
    return list(found)


def reverted_commits(message: str) -> list[str]:
    """The (possibly abbreviated, lower-case) hashes a ``This reverts commit HASH.`` line names."""
    return list(dict.fromkeys(match.group(1).lower() for match in _REVERTS.finditer(message)))
