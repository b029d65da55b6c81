"""Which instances one trigger event opens for a policy, and the names each may substitute
(SPEC §5): one per trigger; with a keyed ``when set`` one per matched key (``$key``, ``$value``,
``$1``, ``$note``); with ``$path`` or ``$1``, ... of a wildcard ``when touches`` glob, one per
matched path. This is text work (prefix and glob matching) for :mod:`resolver.facts.policies`;
whether the event triggers at all is the rules' decision.
"""

from __future__ import annotations

import re
from dataclasses import replace

from resolver.facts.policy_index import sets_value
from resolver.language.model import Condition, Expectation, Value

#: One would-be instance: the matched key or path (None: one per trigger), the matched value,
#: and the names its clauses may substitute.
Match = tuple[str | None, Value | None, dict[str, str]]


def value_text(value: Value) -> str:
    """A value as ``$value`` substitutes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def trigger_matches(
    ident: str, event, path_glob: re.Pattern[str] | None, keyed: Condition | None
) -> list[Match]:
    """The instances ``event`` (id ``ident``) would open, with their substitution names."""
    base = {"event": ident, "by": event.by or ""}
    matches: list[Match] = []
    if path_glob is not None:
        # one instance per path the `when touches` glob matches: `$path` and its parts
        for path in event.files:
            found = path_glob.fullmatch(path)
            if found is not None:
                parts = {str(n): part or "" for n, part in enumerate(found.groups(), 1)}
                matches.append((path, None, {**base, "path": path, **parts}))
    elif keyed is None:
        matches.append((None, None, base))
    else:
        pattern = keyed.operand
        prefix = pattern.endswith("*")
        for a in event.sets:
            if not (a.key.startswith(pattern[:-1]) if prefix else a.key == pattern):
                continue
            if keyed.has_value and not sets_value(event, a.key, keyed.value):
                continue
            star = a.key[len(pattern) - 1 :] if pattern.endswith("*") else ""
            # `$note`: the words the trigger attaches to the key; the key when it has none.
            note = event.note(a.key) or a.key
            names = {**base, "key": a.key, "value": value_text(a.value), "1": star, "note": note}
            matches.append((a.key, a.value, names))
    return matches


#: A token of a note that names a path: it holds ``/``, or is ``name.ext:`` (the ``PATH:`` of
#: an importer's note for a file at the top of the tree).
_PATH_TOKEN = re.compile(r"\S*/\S*|[\w.-]+\.\w+:")


def _without_paths(text: str, files: tuple[str, ...]) -> str:
    """``text`` without its path-like tokens (above) or the event's own ``files``."""
    kept = [
        token for token in _PATH_TOKEN.sub(" ", text).split() if token.rstrip(":,;") not in files
    ]
    return " ".join(kept)


def linkable(x: Expectation, event, key: str | None) -> tuple[Expectation, str | None]:
    """The instance as the text linker sees it, and its opening evidence's text.

    A trigger that attaches a note to the matched key (``$note``: a TODO comment's own words)
    opened the instance for that note, not for the whole message of the event (which adds many
    TODOs, or merges a branch): the note is the opening evidence's text, and the paths in it
    and in the title are no content words (they link every commit touching the same file).
    Otherwise the event's whole text, as SPEC §3 says (``docs/design/accuracy.md``).
    """
    note = event.note(key) if key is not None else None
    if note is None:
        return x, event.text
    title = _without_paths(x.title, event.files) if x.title else x.title
    return replace(x, title=title), _without_paths(note, event.files)
