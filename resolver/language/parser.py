"""Parsing the openloop language (``.ol`` files, SPEC §2.1) into the typed model.

The grammar lives in ``grammar/openloop.lark``; this module compiles it once as an LALR parser
(Earley would take minutes on a log of 100k events) and runs a transformer *inside* the parser, so
that no intermediate parse tree is built, with a small contextual lexer of its own (see
:class:`_WordLexer`) because lexing is most of the cost of a large file. The transformer checks
what the grammar leaves open on purpose: closed word sets (tiers, outcomes, statuses...), times
and durations, string escapes, repeated single-valued clauses, required event clauses and the
order of test steps.

Every problem is raised as :class:`~resolver.errors.InputError` at the offending token, with a
message that names what was found and what was expected in words (``expected a clause (title,
opened_by, ...) or '}'``), never Lark's internal terminal names. Nothing is half-parsed: the first
error aborts the file.

Strings: ``\\"`` and ``\\\\`` stand for a quote and a backslash, and ``\\n``, ``\\t``, ``\\r`` for a
newline, tab and carriage return (so that any event text, including one read from JSON lines,
can be written back as a one-line literal). Any other backslash sequence is rejected, and a string
must end on the line where it starts.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Iterable, Iterator
from copy import copy
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.common import LexerConf
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState, TerminalDef

from resolver.errors import InputError, Location
from resolver.language.model import (
    EVENT_CLAUSES,
    OUTCOMES,
    TIERS,
    Actor,
    Alias,
    Assertion,
    Assignment,
    Channel,
    Event,
    Expectation,
    Marker,
    Standpoint,
    Task,
    TestBlock,
    Value,
)
from resolver.resources import grammar_text
from resolver.times import TimeFormatError, parse_duration, parse_time

__all__ = [
    "CONFIDENCE_CLASSES",
    "FINDING_KINDS",
    "STATUSES",
    "TASK_STATUSES",
    "ParsedFile",
    "parse_file",
    "parse_text",
]

#: Status words a test may expect, lower case as written (stored upper case).
STATUSES = ("open", "satisfied", "cancelled", "superseded", "waived", "unknown", "not_opened")
#: Confidence classes a test may expect (stored upper case).
CONFIDENCE_CLASSES = ("corroborated_open", "incomplete_search", "unknown")
#: Task verdicts a test may expect (stored upper case).
TASK_STATUSES = ("complete", "incomplete", "unknown")
#: Finding kinds a test may expect (stored lower case).
FINDING_KINDS = ("false_completion", "false_pending")


@dataclass(frozen=True)
class ParsedFile:
    """Everything declared in one ``.ol`` file, in source order.

    ``expectations`` holds standalone expectations and the obligations of tasks (with
    ``is_obligation=True`` and ``part_of`` set to the task), each where it appears in the file.
    """

    file: str
    channels: tuple[Channel, ...] = ()
    actors: tuple[Actor, ...] = ()
    aliases: tuple[Alias, ...] = ()
    tasks: tuple[Task, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    events: tuple[Event, ...] = ()
    tests: tuple[TestBlock, ...] = ()


# ------------------------------------------------------------------------------------------------
# Words for messages
# ------------------------------------------------------------------------------------------------

_DECLARATIONS = ("channel", "actor", "alias", "task", "expectation", "event", "test")
_EXPECTATION_CLAUSES = (
    "title",
    "opened_by",
    "opened",
    "want",
    "before",
    "deadline",
    "verify",
    "search",
    "superseded_when",
    "requires",
    "part_of",
    "principal",
    "scope",
    "window",
    "matches",
)
_TASK_CLAUSES = ("title", "opened_by", "opened", "principal", "requires", "scope", "obligation")
_EVENT_CLAUSES = EVENT_CLAUSES
_TEST_STEPS = ("at", "expect")

_OTHER_KEYWORDS = "mention work authoritative agent known latest confidence has lacks finding tier"
_KEYWORDS = (
    frozenset(
        (*_DECLARATIONS, *_EXPECTATION_CLAUSES, *_TASK_CLAUSES, *_EVENT_CLAUSES, *_TEST_STEPS)
    )
    | frozenset(_OTHER_KEYWORDS.split())
    | {"true", "false"}
)

_TERMINAL_WORDS = {
    "NAME": "an identifier",
    "STRING": 'a string ("...")',
    "TIME": "a time (such as 2024-08-27 or 2024-08-27T10:00)",
    "DURATION": "a duration (such as 90m, 36h, 2d or 1w)",
    "INT": "an integer",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "EQUAL": "'='",
    "$END": "end of file",
    "<END-OF-FILE>": "end of file",
}

# (block kind, terminal that only that block's clause set contains, its clause words)
_CLAUSE_GROUPS = (
    ("expectation", "WANT", _EXPECTATION_CLAUSES),
    ("task", "OBLIGATION", _TASK_CLAUSES),
    ("event", "SEQ", _EVENT_CLAUSES),
    ("test", "EXPECT", _TEST_STEPS),
)
_BLOCK_KEYWORDS = {"TASK", "OBLIGATION", "EXPECTATION", "EVENT", "TEST"}
_IGNORED = {"_SKIP"}


def _word(terminal: str) -> str:
    """A terminal name in the user's words."""
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    if terminal.lower() in _KEYWORDS:
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
    for kind, marker, words in _CLAUSE_GROUPS:
        if marker in rest and {w.upper() for w in words} <= rest:
            block, clauses = kind, words
            rest -= {w.upper() for w in words}
            break
    else:
        if {d.upper() for d in _DECLARATIONS} <= rest:
            block, clauses = "top", _DECLARATIONS
            rest -= {d.upper() for d in _DECLARATIONS}
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


def _syntax_error(exc: UnexpectedInput, file: str, text: str) -> InputError:
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
                    f"unknown clause '{token}' in {_a(where)} block; expected {wanted}", location
                )
            if token.type.lower() in _KEYWORDS:
                return InputError(
                    f"clause '{token}' is not allowed in {_a(where)} block; expected {wanted}",
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


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


# ------------------------------------------------------------------------------------------------
# Token values
# ------------------------------------------------------------------------------------------------

_FILE: contextvars.ContextVar[str] = contextvars.ContextVar("openloop_file", default="<string>")

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}


def _loc(token: Token) -> Location:
    return Location(_FILE.get(), token.line, token.column)


def _string(token: Token) -> str:
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
            where = Location(_FILE.get(), token.line, token.column + 1 + index)
            raise InputError(
                f"unknown escape '\\{escaped}' in string; "
                'use \\" for a quote, \\\\ for a backslash, \\n, \\t or \\r',
                where,
            )
        out.append(_ESCAPES[escaped])
        index += 2
    return "".join(out)


def _time(token: Token) -> int:
    try:
        return parse_time(str(token))
    except TimeFormatError as exc:
        raise InputError(str(exc), _loc(token)) from None


def _duration(token: Token) -> int:
    try:
        return parse_duration(str(token))
    except TimeFormatError as exc:
        raise InputError(str(exc), _loc(token)) from None


def _value(token: Token) -> Value:
    kind = token.type
    if kind == "STRING":
        return _string(token)
    if kind == "INT":
        return int(token)
    return kind == "TRUE"


def _choice(token: Token, allowed: tuple[str, ...], what: str) -> str:
    """A word from a closed set, lower case, or an error listing the set."""
    word = str(token).lower()
    if word not in allowed:
        raise InputError(
            f"unknown {what} '{token}'; expected one of: {', '.join(allowed)}", _loc(token)
        )
    return word


def _names(tokens: list[Token]) -> tuple[str, ...]:
    return tuple(str(t) for t in tokens)


# A clause as the transformer hands it to its block: (clause word, keyword token, value).
_Clause = tuple[str, Token, Any]


class _Builder(Transformer):
    """Builds model objects while the parser reduces; the file name comes from ``_FILE``."""

    # ---- shared clauses ------------------------------------------------------------------------

    def title(self, c: list[Token]) -> _Clause:
        return ("title", c[0], _string(c[1]))

    def opened_by(self, c: list[Token]) -> _Clause:
        return ("opened_by", c[0], str(c[1]))

    def opened(self, c: list[Token]) -> _Clause:
        return ("opened", c[0], _time(c[1]))

    def want(self, c: list[Token]) -> _Clause:
        return ("want", c[0], Assignment(str(c[1]), _value(c[2])))

    def before(self, c: list[Token]) -> _Clause:
        return ("before", c[0], str(c[1]))

    def deadline(self, c: list[Token]) -> _Clause:
        return ("deadline", c[0], _time(c[1]))

    def verify(self, c: list[Token]) -> _Clause:
        return ("verify", c[0], _choice(c[1], TIERS, "tier"))

    def search(self, c: list[Token]) -> _Clause:
        return ("search", c[0], _names(c[1:]))

    def superseded_when(self, c: list[Token]) -> _Clause:
        return ("superseded_when", c[0], Assignment(str(c[1]), _value(c[2])))

    def requires(self, c: list[Token]) -> _Clause:
        return ("requires", c[0], _names(c[1:]))

    def part_of(self, c: list[Token]) -> _Clause:
        return ("part_of", c[0], str(c[1]))

    def principal(self, c: list[Token]) -> _Clause:
        return ("principal", c[0], _names(c[1:]))

    def scope(self, c: list[Token]) -> _Clause:
        value = c[1]
        return ("scope", c[0], _string(value) if value.type == "STRING" else str(value))

    def window(self, c: list[Token]) -> _Clause:
        return ("window", c[0], _duration(c[1]))

    def matches(self, c: list[Token]) -> _Clause:
        return ("matches", c[0], tuple(_string(t) for t in c[1:]))

    def obligation(self, c: list[Any]) -> _Clause:
        return ("obligation", c[0], (c[1], c[2:]))

    # ---- event clauses -------------------------------------------------------------------------

    def event_channel(self, c: list[Token]) -> _Clause:
        return ("channel", c[0], str(c[1]))

    def seq(self, c: list[Token]) -> _Clause:
        number = int(c[1])
        if not 0 <= number < 2**31:
            raise InputError(f"seq must be between 0 and {2**31 - 1}, got {number}", _loc(c[1]))
        return ("seq", c[0], number)

    def event_at(self, c: list[Token]) -> _Clause:
        return ("at", c[0], _time(c[1]))

    def recorded(self, c: list[Token]) -> _Clause:
        return ("recorded", c[0], _time(c[1]))

    def by(self, c: list[Token]) -> _Clause:
        return ("by", c[0], str(c[1]))

    def kind(self, c: list[Token]) -> _Clause:
        return ("kind", c[0], str(c[1]))

    def text(self, c: list[Token]) -> _Clause:
        return ("text", c[0], _string(c[1]))

    def set(self, c: list[Token]) -> _Clause:
        return ("set", c[0], Assignment(str(c[1]), _value(c[2])))

    def marker(self, c: list[Token]) -> _Clause:
        kind = c[0].type.lower()
        return ("marker", c[0], tuple(Marker(kind, str(t)) for t in c[1:]))

    def outcome(self, c: list[Token]) -> _Clause:
        return ("outcome", c[0], _choice(c[1], OUTCOMES, "outcome"))

    # ---- test steps ----------------------------------------------------------------------------

    def standpoint(self, c: list[Token]) -> Standpoint:
        known: int | None = None
        latest = False
        if len(c) > 2:
            if c[3].type == "LATEST":
                latest = True
            else:
                known = _time(c[3])
        return Standpoint(at=_time(c[1]), known=known, known_latest=latest, location=_loc(c[0]))

    def expect_status(self, c: list[Token]) -> Assertion:
        status = _choice(c[2], STATUSES, "status").upper()
        by: str | None = None
        tier: str | None = None
        rest = c[3:]
        for index in range(0, len(rest), 2):
            if rest[index].type == "BY":
                by = str(rest[index + 1])
            else:
                tier = _choice(rest[index + 1], TIERS, "tier")
        return Assertion("status", str(c[1]), status, _loc(c[0]), by=by, tier=tier)

    def expect_confidence(self, c: list[Token]) -> Assertion:
        value = _choice(c[3], CONFIDENCE_CLASSES, "confidence class").upper()
        return Assertion("confidence", str(c[1]), value, _loc(c[0]))

    def expect_flag(self, c: list[Token]) -> Assertion:
        return Assertion(c[2].type.lower(), str(c[1]), str(c[3]).lower(), _loc(c[0]))

    def expect_task(self, c: list[Token]) -> Assertion:
        value = _choice(c[3], TASK_STATUSES, "task status").upper()
        return Assertion("task", str(c[2]), value, _loc(c[0]))

    def expect_finding(self, c: list[Token]) -> Assertion:
        value = _choice(c[2], FINDING_KINDS, "finding kind")
        return Assertion("finding", str(c[3]), value, _loc(c[0]))

    # ---- declarations --------------------------------------------------------------------------

    def channel_decl(self, c: list[Token]) -> Channel:
        role: str | None = None
        authoritative = False
        for token in c[2:]:
            if token.type == "AUTHORITATIVE":
                authoritative = True
            else:
                role = token.type.lower()
        return Channel(str(c[1]), role, authoritative, _loc(c[0]))

    def actor_decl(self, c: list[Token]) -> Actor:
        return Actor(str(c[1]), c[2].type.lower(), _loc(c[0]))

    def alias_decl(self, c: list[Token]) -> Alias:
        return Alias(_names(c[1:]), _loc(c[0]))

    def expectation_decl(self, c: list[Any]) -> Expectation:
        fields, _ = _fields(c[2:], "expectation", _EXPECTATION_FIELDS)
        return Expectation(id=str(c[1]), location=_loc(c[0]), **fields)

    def task_decl(self, c: list[Any]) -> tuple[Task, list[Expectation]]:
        task_id = str(c[1])
        clauses = [x for x in c[2:] if x[0] != "obligation"]
        obligations = [_obligation(task_id, x) for x in c[2:] if x[0] == "obligation"]
        fields, _ = _fields(clauses, "task", _TASK_FIELDS)
        task = Task(
            id=task_id,
            location=_loc(c[0]),
            obligations=tuple(o.id for o in obligations),
            **fields,
        )
        return task, obligations

    def event_decl(self, c: list[Any]) -> Event:
        event_id = str(c[1])
        location = _loc(c[0])
        seen: dict[str, Token] = {}
        values: dict[str, Any] = {}
        sets: dict[str, tuple[Assignment, Token]] = {}
        markers: dict[Marker, None] = {}
        for name, keyword, value in c[2:]:
            if name == "set":
                earlier = sets.get(value.key)
                if earlier is not None and _differ(earlier[0], value):
                    raise InputError(
                        f"key '{value.key}' is set twice with different values in event "
                        f"'{event_id}' (first at line {earlier[1].line})",
                        _loc(keyword),
                    )
                sets.setdefault(value.key, (value, keyword))
            elif name == "marker":
                markers.update(dict.fromkeys(value))
            else:
                _once(seen, name, keyword, "event")
                values[name] = value
        for required in ("channel", "at"):
            if required not in values:
                raise InputError(
                    f"event '{event_id}' is missing its required '{required}' clause", location
                )
        return Event(
            id=event_id,
            channel=values["channel"],
            at=values["at"],
            recorded=values.get("recorded", values["at"]),
            location=location,
            seq=values.get("seq"),
            by=values.get("by"),
            kind=values.get("kind"),
            text=values.get("text"),
            sets=tuple(a for a, _ in sets.values()),
            markers=tuple(markers),
            outcome=values.get("outcome", "confirmed"),
        )

    def test_decl(self, c: list[Any]) -> TestBlock:
        steps = c[2:]
        for step in steps:
            if isinstance(step, Standpoint):
                break
            raise InputError("expected `at TIME` before the first expect", step.location)
        return TestBlock(name=_string(c[1]), steps=tuple(steps), location=_loc(c[0]))

    def start(self, c: list[Any]) -> list[Any]:
        return c


def _differ(one: Assignment, other: Assignment) -> bool:
    """Type-aware: ``1 == True`` in Python, but ``k = 1`` and ``k = true`` are different states."""
    return one != other or type(one.value) is not type(other.value)


# clause word -> model field; list-valued clauses may repeat and accumulate.
_EXPECTATION_FIELDS = {
    "title": "title",
    "opened_by": "opened_by",
    "opened": "opened",
    "want": "want",
    "before": "before",
    "deadline": "deadline",
    "verify": "verify",
    "search": "search",
    "superseded_when": "superseded_when",
    "requires": "requires",
    "part_of": "part_of",
    "principal": "principals",
    "scope": "scope",
    "window": "window",
    "matches": "matches",
}
_TASK_FIELDS = {
    "title": "title",
    "opened_by": "opened_by",
    "opened": "opened",
    "principal": "principals",
    "requires": "requires",
    "scope": "scope",
}
_LIST_CLAUSES = frozenset({"search", "requires", "principal", "matches"})


def _once(seen: dict[str, Token], name: str, keyword: Token, block: str) -> None:
    """Refuse a second single-valued clause: silently keeping one would hide a mistake."""
    first = seen.get(name)
    if first is not None:
        raise InputError(
            f"repeated clause '{name}' in {_a(block)} block "
            f"(first given at line {first.line}, column {first.column})",
            _loc(keyword),
        )
    seen[name] = keyword


def _fields(
    clauses: Iterable[_Clause], block: str, mapping: dict[str, str]
) -> tuple[dict[str, Any], dict[str, Token]]:
    """Model fields from a block's clauses, and the keyword token of each single-valued clause.

    List-valued clauses may repeat: their names accumulate (first occurrence kept, duplicates
    dropped), which reads naturally for ``principal alice`` / ``principal bob``.
    """
    seen: dict[str, Token] = {}
    fields: dict[str, Any] = {}
    for name, keyword, value in clauses:
        field = mapping[name]
        if name in _LIST_CLAUSES:
            fields[field] = tuple(dict.fromkeys((*fields.get(field, ()), *value)))
        else:
            _once(seen, name, keyword, block)
            fields[field] = value
    return fields, seen


def _obligation(task_id: str, clause: _Clause) -> Expectation:
    _, keyword, (ident, clauses) = clause
    fields, seen = _fields(clauses, "obligation", _EXPECTATION_FIELDS)
    part_of = fields.pop("part_of", None)
    if part_of is not None and part_of != task_id:
        raise InputError(
            f"obligation '{ident}' of task '{task_id}' cannot be part_of '{part_of}'",
            _loc(seen["part_of"]),
        )
    return Expectation(
        id=str(ident),
        location=_loc(keyword),
        part_of=task_id,
        is_obligation=True,
        **fields,
    )


# ------------------------------------------------------------------------------------------------
# Lexer
# ------------------------------------------------------------------------------------------------


class _WordLexer(Lexer):
    """A contextual lexer for this grammar: one regular expression, keywords decided per state.

    It reads the terminal definitions of ``grammar/openloop.lark`` and lexes exactly as Lark's
    contextual lexer would with them, about twice as fast (the lexer is most of the parsing cost
    of a large event file): a word is matched once as NAME, and becomes the keyword it spells
    when the parser can take that keyword next, or when it cannot take an identifier either (so
    that a misplaced keyword is reported as one). Keyword terminals are recognised by their
    priority above the default and must be named after the word they match.
    """

    __future_interface__ = 2

    # Non-keyword terminals, in the order they are tried (TIME and DURATION before INT).
    _ORDER = ("_SKIP", "STRING", "TIME", "DURATION", "INT", "NAME")

    def __init__(self, conf: LexerConf) -> None:
        by_name = {t.name: t for t in conf.terminals}
        self.keywords: dict[str, str] = {}
        plain: list[TerminalDef] = []
        for terminal in conf.terminals:
            if terminal.priority > 0:
                word = terminal.name.lower()
                if not re.fullmatch(terminal.pattern.to_regexp(), word):
                    raise ValueError(f"keyword terminal {terminal.name} must match {word!r}")
                self.keywords[word] = terminal.name
            elif terminal.name not in self._ORDER:
                plain.append(terminal)  # punctuation such as LBRACE
        ordered = [by_name[name] for name in self._ORDER[1:]] + plain
        parts = []
        for terminal in ordered:
            regexp = terminal.pattern.to_regexp()
            if re.compile(regexp).groups:
                raise ValueError(f"terminal {terminal.name} must not use capturing groups")
            parts.append(f"(?P<{terminal.name}>{regexp})")
        skip = by_name["_SKIP"].pattern.to_regexp()
        # Whitespace and comments before a token are consumed by the same match; the group is
        # atomic so that a comment can never give back its tail to be read as a token.
        self.match = re.compile(f"(?>{skip})?(?:{'|'.join(parts)})").match
        self.skip = re.compile(skip).match

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        source = lexer_state.text  # a TextSlice since lark 1.3, a str before
        if isinstance(source, str):
            text, pos, end = source, 0, len(source)
        else:
            text, pos, end = source.text, source.start, source.end
        states = parser_state.parse_conf.states
        keywords = self.keywords
        match = self.match
        line, line_start = 1, 0
        while pos < end:
            found = match(text, pos, end)
            if found is None:
                skipped = self.skip(text, pos, end)
                start = skipped.end() if skipped else pos
            else:
                kind = found.lastgroup
                start = found.start(kind)
            if start > pos:
                newlines = text.count("\n", pos, start)
                if newlines:
                    line += newlines
                    line_start = text.rfind("\n", pos, start) + 1
            if found is None:
                if start >= end:
                    return
                allowed = {t for t in states[parser_state.position] if t.isupper()}
                raise UnexpectedCharacters(
                    text, start, line, start - line_start + 1, allowed=allowed, state=parser_state
                )
            stop = found.end()
            value = found.group(kind)
            if kind == "NAME":
                keyword = keywords.get(value.lower())
                if keyword is not None:
                    row = states[parser_state.position]
                    if keyword in row or "NAME" not in row:
                        kind = keyword
            column = start - line_start + 1
            yield Token(kind, value, start, line, column, line, column + stop - start, stop)
            pos = stop


# ------------------------------------------------------------------------------------------------
# Entry points
# ------------------------------------------------------------------------------------------------


@cache
def _parser() -> Lark:
    """The compiled parser: built on first use, then shared (building it costs ~50 ms)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer=_WordLexer,
        transformer=_Builder(),
        maybe_placeholders=False,
    )


def parse_text(text: str, filename: str) -> ParsedFile:
    """Parse the text of one ``.ol`` file; ``filename`` is used in locations and messages.

    Raises :class:`InputError` (``FILE:LINE:COL: error: ...``) on the first problem.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    token = _FILE.set(filename)
    try:
        items = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, filename, text) from None
    finally:
        _FILE.reset(token)
    buckets: dict[type, list[Any]] = {
        Channel: [],
        Actor: [],
        Alias: [],
        Task: [],
        Expectation: [],
        Event: [],
        TestBlock: [],
    }
    for item in items:
        if isinstance(item, tuple):
            task, obligations = item
            buckets[Task].append(task)
            buckets[Expectation].extend(obligations)
        else:
            buckets[type(item)].append(item)
    return ParsedFile(
        file=filename,
        channels=tuple(buckets[Channel]),
        actors=tuple(buckets[Actor]),
        aliases=tuple(buckets[Alias]),
        tasks=tuple(buckets[Task]),
        expectations=tuple(buckets[Expectation]),
        events=tuple(buckets[Event]),
        tests=tuple(buckets[TestBlock]),
    )


def parse_file(path: str | Path) -> ParsedFile:
    """Read (UTF-8) and parse one ``.ol`` file; locations name it as ``str(path)``."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(name, 1, 1)
        ) from None
    return parse_text(text, name)
