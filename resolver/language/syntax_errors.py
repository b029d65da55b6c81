"""Turning Lark's parse errors into messages in the user's words.

Lark reports a failed parse with its terminal names (``UnexpectedToken: TITLE, SEQ, ...``). This
module turns that into ``FILE:LINE:COL: error: ...`` with what was found and what was expected in
the language's own words: ``unknown clause 'titel' in an expectation block; expected a clause
(title, opened_by, ...) or '}'``. The keyword and clause lists come from the grammar
(:mod:`resolver.language.keywords`), so a new clause appears in every message by itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from copy import copy
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from resolver.errors import InputError, Location
from resolver.language.keywords import words

__all__ = ["article", "syntax_error"]

_TERMINAL_WORDS = {
    "NAME": "an identifier",
    "STRING": 'a string ("...")',
    "TIME": "a time (such as 2024-08-27 or 2024-08-27T10:00)",
    "DURATION": "a duration (such as 90m, 36h, 2d or 1w)",
    "INT": "an integer",
    "KEY_TEMPLATE": "a key with $ substitutions",
    "KEY_PATTERN": "a key pattern ending in '*'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "EQUAL": "'='",
    "$END": "end of file",
    "<END-OF-FILE>": "end of file",
}

# Block kinds whose clause sets are recognised in an expected set, in the order tried (a block
# inside another one, obligation in task or template, is told apart by the parser's stack).
_CLAUSE_GROUPS = ("policy", "expectation", "event", "task", "test")
_BLOCK_KEYWORDS = {"TASK", "OBLIGATION", "EXPECTATION", "EVENT", "TEST", "TEMPLATE", "POLICY"}
_IGNORED = {"_SKIP"}


def _word(terminal: str) -> str:
    """A terminal name in the user's words."""
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    if terminal.lower() in words().keywords:
        return f"'{terminal.lower()}'"
    return terminal.lower()


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


# Order in which loose expected terminals are listed (anything else follows alphabetically).
_ORDER_TEXT = (
    "COMMA EQUAL LBRACE NAME STRING INT TRUE FALSE TIME LATEST DURATION MENTION WORK"
    " AUTHORITATIVE PRINCIPAL AGENT KNOWN BY TIER CONFIDENCE HAS LACKS TASK FINDING"
)
_DISPLAY_ORDER = {name: index for index, name in enumerate(_ORDER_TEXT.split())}


def _describe(expected: Iterable[str]) -> tuple[str | None, tuple[str, ...], bool, str]:
    """Group expected terminals for a message.

    Returns the block whose clause set is expected (``expectation``, ``task``, ``event``,
    ``test``, ``top`` for declarations, or None), its words, whether anything else but the
    clauses and the closing ``}`` / end of file is expected, and the whole phrase in words.
    """
    rest = {t for t in expected if t not in _IGNORED}
    block: str | None = None
    clauses: tuple[str, ...] = ()
    known = words().clauses
    for kind in (*_CLAUSE_GROUPS, "top"):
        terminals = {w.upper() for w in known[kind]}
        if terminals <= rest:
            block, clauses = kind, known[kind]
            rest -= terminals
            break
    closing = [t for t in ("RBRACE", "$END") if t in rest]
    extras = sorted(
        (t for t in rest if t not in closing),
        key=lambda t: (_DISPLAY_ORDER.get(t, len(_DISPLAY_ORDER)), t),
    )
    parts = [_word(t) for t in extras]
    if block == "top":
        parts.append(f"a declaration ({', '.join(clauses)})")
    elif block == "test":
        parts.append("a step ('at' or 'expect')")
    elif block is not None:
        parts.append(f"a clause ({', '.join(clauses)})")
    parts.extend(_word(t) for t in closing)
    return block, clauses, bool(extras), _join(parts) or "nothing more"


def _accepts(state: Any, candidates: Iterable[str]) -> set[str]:
    """The terminals the parser would really accept next.

    LALR merges states that end a shared rule (``title`` in tasks, expectations and events), so
    the raw expected set of a state can be the union over all blocks. Feeding each candidate to a
    copy of the parser, with the transformer switched off, keeps only the true continuations.
    """
    wanted = {t for t in candidates if t not in _IGNORED}
    if not (hasattr(state, "parse_conf") and hasattr(state, "state_stack")):
        return wanted
    wanted.add("$END")  # a lexer's expected set never names the end of input
    conf = copy(state.parse_conf)
    conf.callbacks = {}
    accepted: set[str] = set()
    for terminal in wanted:
        trial = type(state)(conf, state.lexer, list(state.state_stack), list(state.value_stack))
        try:
            trial.feed_token(Token(terminal, ""), is_end=terminal == "$END")
        except UnexpectedToken:
            continue
        accepted.add(terminal)
    return accepted or wanted


def _found(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    text = str(token)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"'{text}'"


def _current_block(state: Any, default: str) -> str:
    """Which block the parser is inside, read from its value stack (obligation vs expectation)."""
    stack = getattr(state, "value_stack", None) or []
    for item in reversed(stack):
        if isinstance(item, Token) and item.type in _BLOCK_KEYWORDS:
            return item.type.lower()
    return default


def _end_location(file: str, text: str) -> Location:
    line = text.count("\n") + 1
    column = len(text) - (text.rfind("\n") + 1) + 1
    return Location(file, line, column)


def syntax_error(exc: UnexpectedInput, file: str, text: str) -> InputError:
    """Turn a Lark exception into an InputError whose message speaks the user's language."""
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        expected = _accepts(exc.state, exc.expected)
        block, clauses, extras, wanted = _describe(expected)
        if token.type == "$END":
            return InputError(
                f"unexpected end of file: expected {wanted}", _end_location(file, text)
            )
        location = Location(file, token.line, token.column)
        if block == "top" and not extras and token.type == "NAME":
            options = ", ".join(clauses)
            return InputError(
                f"unknown declaration '{token}'; expected one of: {options}", location
            )
        if block not in (None, "top") and token.type not in expected:
            where = _current_block(exc.state, block)
            if token.type == "NAME":
                return InputError(
                    f"unknown clause '{token}' in {article(where)} block; expected {wanted}",
                    location,
                )
            if token.type.lower() in words().keywords:
                return InputError(
                    f"clause '{token}' is not allowed in {article(where)} block; expected {wanted}",
                    location,
                )
        return InputError(f"unexpected {_found(token)}: expected {wanted}", location)
    if isinstance(exc, UnexpectedCharacters):
        location = Location(file, exc.line, exc.column)
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        if char == '"':
            return InputError(
                "unterminated string: a string must end with '\"' on the line where it starts",
                location,
            )
        _, _, _, wanted = _describe(_accepts(exc.state, exc.allowed or ()))
        return InputError(f"unexpected character {char!r}: expected {wanted}", location)
    if isinstance(exc, UnexpectedEOF):
        _, _, _, wanted = _describe(exc.expected)
        return InputError(f"unexpected end of file: expected {wanted}", _end_location(file, text))
    return InputError(str(exc), None)  # pragma: no cover - Lark raises only the above


def article(word: str) -> str:
    """``a task`` / ``an event``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"
