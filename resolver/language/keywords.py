"""The language's keywords and clause lists, read from ``grammar/openloop.lark``.

Messages name what the parser expected in the user's words ("expected a clause (title,
opened_by, ...)"). Rather than keep a second copy of the keyword lists here, they are read from
the grammar: a keyword terminal is named after its word, upper case, with a priority above the
default (``TITLE.2: /title.../i``), and a block's clauses are the rules inside its ``{ ... }``
repetition, each named by the keyword it starts with. Adding a clause to the grammar therefore
adds it to every message.

Keywords are case-insensitive in ASCII only (SPEC §2.1: ``TASK`` and ``Task`` are ``task``). A
Lark pattern's ``/i`` flag is Python's Unicode case folding, under which the Kelvin sign ``K``
(U+212A) is a ``k``, the long ``ſ`` an ``s`` and the Turkish ``İ``/``ı`` an ``i``: ``tasK`` read as
``task`` hides a word a reader sees as something else. :func:`ascii_keywords` spells every keyword
pattern out with ASCII letter classes instead (``[tT][aA][sS][kK]``), and the parser is built from
that text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

__all__ = ["BLOCK_RULES", "Words", "ascii_keywords", "words"]

#: Block kind -> the grammar rule whose repetition lists its clauses (``top``: declarations).
BLOCK_RULES = {
    "top": "start",
    "policy": "policy_decl",
    "expectation": "expectation_decl",
    "obligation": "obligation",
    "task": "task_decl",
    "template": "template_decl",
    "event": "event_decl",
    "test": "test_decl",
}


#: A keyword terminal as the grammar writes it: ``TITLE.2: /title(?![...])/i``.
_KEYWORD_LINE = re.compile(
    r"^(?P<head>[A-Z_]+\.\d+:\s*/)(?P<word>[a-z_]+)(?P<rest>\(\?!.*\))/i\s*$", re.M
)


def ascii_keywords(grammar: str) -> str:
    """``grammar`` with each keyword's ``/word.../i`` spelled ``/[wW][oO][rR][dD].../``: the same
    words in any ASCII case, and no other characters."""

    def spelled(match: re.Match[str]) -> str:
        word = "".join(f"[{c}{c.upper()}]" if c.isalpha() else c for c in match["word"])
        return f"{match['head']}{word}{match['rest']}/"

    return _KEYWORD_LINE.sub(spelled, grammar)


@dataclass(frozen=True)
class Words:
    """Keyword words (lower case) and, per block kind, its clause words in grammar order."""

    keywords: frozenset[str]
    clauses: dict[str, tuple[str, ...]]


@cache
def words() -> Words:
    """Read the keywords and clause lists from the grammar (once per process), through the
    parser's own rules and terminals: they are the grammar's, in its order, whether the parser
    was loaded from its shipped tables or built (a second parser built here would cost about
    0.07 s on every syntax error)."""
    from resolver.language.parser import _parser  # the parser imports this module

    grammar = _parser()
    keywords = frozenset(
        t.name.lower()
        for t in grammar.terminals
        if t.priority > 0 and re.fullmatch(t.pattern.to_regexp(), t.name.lower())
    )
    expansions: dict[str, list[list[str]]] = {}
    for rule in grammar.rules:
        names = [s.name for s in rule.expansion]
        expansions.setdefault(rule.origin.name, []).append(names)
    terminal_names = {t.name for t in grammar.terminals}

    def first_terminals(rule: str, seen: frozenset[str] = frozenset()) -> list[str]:
        out: list[str] = []
        for names in expansions.get(rule, []):
            if not names:
                continue
            head = names[0]
            if head in terminal_names:
                out.append(head)
            elif head not in seen:
                out.extend(first_terminals(head, seen | {rule}))
        return out

    def items(rule: str) -> list[str]:
        """Named rules reachable through the anonymous repetitions of ``rule``."""
        found: list[str] = []
        stack = [name for names in expansions.get(rule, []) for name in names if name[:2] == "__"]
        visited: set[str] = set()
        while stack:
            anonymous = stack.pop(0)
            if anonymous in visited:
                continue
            visited.add(anonymous)
            for names in expansions.get(anonymous, []):
                for name in names:
                    if name.startswith("__"):
                        stack.append(name)
                    elif name not in terminal_names and name not in found:
                        found.append(name)
        return found

    clauses: dict[str, tuple[str, ...]] = {}
    for kind, rule in BLOCK_RULES.items():
        ordered: dict[str, None] = {}
        for item in items(rule):
            for terminal in first_terminals(item):
                if terminal.lower() in keywords:
                    ordered[terminal.lower()] = None
        clauses[kind] = tuple(ordered)
    return Words(keywords, clauses)
