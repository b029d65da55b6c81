"""Actor patterns (SPEC §3, fine points): which ``by`` values a quoted ``actor`` pattern matches.

``actor "*[bot]@users.noreply.github.com" agent`` declares every actor whose ``by`` the pattern
matches. Matching is text work, so it is done here: ``*`` stands for any run of characters
(none included) and every other character, ``[`` and ``]`` too, stands for itself, compared
exactly (importers already lower-case e-mails). The rules (``rules/prepare/roles.lp``) receive
only integers, ``pattern_role(P, Role)`` and ``pattern_match(P, A)``, and decide the role there: a
plain declaration of the actor wins over any pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from resolver.language.model import Actor

__all__ = ["compile_pattern", "matches_by_pattern"]


@cache
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """The pattern as a regular expression matching the whole ``by`` value."""
    return re.compile("".join(".*" if part == "*" else re.escape(part) for part in _split(pattern)))


def _split(pattern: str) -> list[str]:
    return [part for part in re.split(r"(\*)", pattern) if part]


def matches_by_pattern(actors: Iterable[Actor], by_values: Iterable[str]) -> dict[str, list[str]]:
    """Pattern -> the ``by`` values it matches, sorted (plain declarations are not excluded here:
    the rules decide which declaration wins)."""
    patterns = sorted({a.name for a in actors if a.pattern})
    values = sorted(set(by_values))
    return {
        pattern: [v for v in values if compile_pattern(pattern).fullmatch(v)]
        for pattern in patterns
    }
