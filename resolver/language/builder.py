"""Building the typed model while the parser reduces (a Lark transformer run inside the parser).

The grammar (``grammar/openloop.lark``) decides the shape of a file; this transformer checks what
the grammar leaves open on purpose: closed word sets (tiers, outcomes, statuses...), times and
durations, string escapes, repeated single-valued clauses, required event clauses, the order of
test steps, globs, and the ``$`` substitutions of policies and templates
(:mod:`resolver.language.blocks` builds those two blocks). Every problem is an
:class:`~resolver.errors.InputError` at the offending token.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer

from resolver.errors import InputError
from resolver.language import values as v
from resolver.language.blocks import (
    Clause,
    build_policy,
    build_template,
    differ,
    fields,
    glob,
    obligation,
    reject_substitutions,
)
from resolver.language.eventlog_checks import is_one_line
from resolver.language.model import (
    OUTCOMES,
    TIERS,
    Actor,
    Alias,
    Assertion,
    Assignment,
    Channel,
    Condition,
    Event,
    Expectation,
    Marker,
    Policy,
    StandpointClause,
    Task,
    Template,
    TestBlock,
)
from resolver.vocabulary import CONFIDENCE, FINDINGS, FLAGS, STATUSES, TASK_STATUSES

__all__ = [
    "CONFIDENCE_CLASSES",
    "FINDING_KINDS",
    "STATUSES",
    "TASK_STATUSES",
    "Builder",
]

# The status words a test may expect (``STATUSES``, lower case as written, stored upper case)
# and its task verdicts (``TASK_STATUSES``, stored upper case) are the vocabulary's own lists.

#: Confidence classes a test may expect (stored upper case).
CONFIDENCE_CLASSES = CONFIDENCE
#: Finding kinds a test may expect (stored lower case).
FINDING_KINDS = FINDINGS


class Builder(Transformer):
    """Builds model objects while the parser reduces; the file name comes from ``values.FILE``."""

    # ---- shared clauses ------------------------------------------------------------------------

    def title(self, c: list[Token]) -> Clause:
        return ("title", c[0], v.string(c[1]))

    def opened_by(self, c: list[Token]) -> Clause:
        return ("opened_by", c[0], str(c[1]))

    def opened(self, c: list[Token]) -> Clause:
        return ("opened", c[0], v.time(c[1]))

    def want(self, c: list[Token]) -> Clause:
        if c[1].type == "TOUCHES":
            return ("want_touches", c[0], glob(c[2]))
        return ("want", c[0], Assignment(str(c[1]), v.value(c[2])))

    def before(self, c: list[Token]) -> Clause:
        if len(c) == 2:
            return ("before", c[0], str(c[1]))
        if str(c[1]).lower() != "next":
            raise InputError(
                f"expected 'before EVENT' or 'before next kind KIND', got 'before {c[1]} kind'",
                v.loc(c[1]),
            )
        return ("before_next_kind", c[0], str(c[3]))

    def deadline(self, c: list[Token]) -> Clause:
        return ("deadline", c[0], v.time(c[1]))

    def verify(self, c: list[Token]) -> Clause:
        return ("verify", c[0], v.choice(c[1], TIERS, "tier"))

    def search(self, c: list[Token]) -> Clause:
        return ("search", c[0], v.names(c[1:]))

    def superseded_when(self, c: list[Token]) -> Clause:
        return ("superseded_when", c[0], Assignment(str(c[1]), v.value(c[2])))

    def requires(self, c: list[Token]) -> Clause:
        return ("requires", c[0], v.names(c[1:]))

    def part_of(self, c: list[Token]) -> Clause:
        return ("part_of", c[0], str(c[1]))

    def principal(self, c: list[Token]) -> Clause:
        return ("principal", c[0], v.names(c[1:]))

    def scope(self, c: list[Token]) -> Clause:
        value = c[1]
        return ("scope", c[0], v.string(value) if value.type == "STRING" else str(value))

    def window(self, c: list[Token]) -> Clause:
        return ("window", c[0], v.duration(c[1]))

    def within(self, c: list[Token]) -> Clause:
        return ("within", c[0], v.duration(c[1]))

    def matches(self, c: list[Token]) -> Clause:
        return ("matches", c[0], tuple(v.string(t) for t in c[1:]))

    def obligation(self, c: list[Any]) -> Clause:
        return ("obligation", c[0], (c[1], c[2:]))

    # ---- policy clauses ------------------------------------------------------------------------

    def when(self, c: list[Any]) -> Clause:
        return ("when", c[0], c[1])

    def opens(self, c: list[Token]) -> Clause:
        return ("opens", c[0], str(c[1]))

    def not_condition(self, c: list[Any]) -> Condition:
        inner: Condition = c[1]
        return Condition(
            inner.kind,
            inner.operand,
            v.loc(c[0]),
            negated=not inner.negated,
            has_value=inner.has_value,
            value=inner.value,
        )

    def channel_condition(self, c: list[Token]) -> Condition:
        return Condition("channel", str(c[1]), v.loc(c[0]))

    def kind_condition(self, c: list[Token]) -> Condition:
        return Condition("kind", str(c[1]), v.loc(c[0]))

    def by_condition(self, c: list[Token]) -> Condition:
        return Condition("by", str(c[1]), v.loc(c[0]))

    def set_condition(self, c: list[Token]) -> Condition:
        if len(c) > 2:
            return Condition("set", str(c[1]), v.loc(c[0]), has_value=True, value=v.value(c[2]))
        return Condition("set", str(c[1]), v.loc(c[0]))

    def touches_condition(self, c: list[Token]) -> Condition:
        return Condition("touches", glob(c[1]), v.loc(c[0]))

    def text_condition(self, c: list[Token]) -> Condition:
        phrase = v.string(c[1])
        if not phrase.strip():
            raise InputError("'when text' needs a phrase with at least one word", v.loc(c[1]))
        return Condition("text", phrase, v.loc(c[0]))

    # ---- event clauses -------------------------------------------------------------------------

    def event_channel(self, c: list[Token]) -> Clause:
        return ("channel", c[0], str(c[1]))

    def seq(self, c: list[Token]) -> Clause:
        # seq + 1 must fit in 32 bits too (the rules look for the next number of a channel)
        return ("seq", c[0], v.integer(c[1], 0, 2**31 - 2, "seq"))

    def event_at(self, c: list[Token]) -> Clause:
        return ("at", c[0], v.time(c[1]))

    def recorded(self, c: list[Token]) -> Clause:
        return ("recorded", c[0], v.time(c[1]))

    def by(self, c: list[Token]) -> Clause:
        return ("by", c[0], str(c[1]))

    def kind(self, c: list[Token]) -> Clause:
        return ("kind", c[0], str(c[1]))

    def text(self, c: list[Token]) -> Clause:
        return ("text", c[0], v.string(c[1]))

    def set(self, c: list[Token]) -> Clause:
        return ("set", c[0], Assignment(str(c[1]), v.value(c[2])))

    def marker(self, c: list[Token]) -> Clause:
        kind = c[0].type.lower()
        return ("marker", c[0], tuple(Marker(kind, str(t)) for t in c[1:]))

    def outcome(self, c: list[Token]) -> Clause:
        return ("outcome", c[0], v.choice(c[1], OUTCOMES, "outcome"))

    def files(self, c: list[Token]) -> Clause:
        paths = tuple(v.string(t) for t in c[1:])
        for token, path in zip(c[1:], paths, strict=True):
            if not path:
                raise InputError("a path in 'files' must not be empty", v.loc(token))
        return ("files", c[0], paths)

    def note(self, c: list[Token]) -> Clause:
        text = v.string(c[2])
        if not is_one_line(text):
            raise InputError("a note must not hold control characters", v.loc(c[2]))
        return ("note", c[0], (str(c[1]), text))

    # ---- test steps ----------------------------------------------------------------------------

    def standpoint(self, c: list[Token]) -> StandpointClause:
        known: int | None = None
        latest = False
        if len(c) > 2:
            if c[3].type == "LATEST":
                latest = True
            else:
                known = v.time(c[3])
        return StandpointClause(
            at=v.time(c[1]), known=known, known_latest=latest, location=v.loc(c[0])
        )

    def expect_status(self, c: list[Token]) -> Assertion:
        status = v.choice(c[2], STATUSES, "status").upper()
        by: str | None = None
        tier: str | None = None
        rest = c[3:]
        for index in range(0, len(rest), 2):
            if rest[index].type == "BY":
                by = str(rest[index + 1])
            else:
                tier = v.choice(rest[index + 1], TIERS, "tier")
        return Assertion("status", str(c[1]), status, v.loc(c[0]), by=by, tier=tier)

    def expect_confidence(self, c: list[Token]) -> Assertion:
        value = v.choice(c[3], CONFIDENCE_CLASSES, "confidence class").upper()
        return Assertion("confidence", str(c[1]), value, v.loc(c[0]))

    def expect_flag(self, c: list[Token]) -> Assertion:
        flag = v.choice(c[3], FLAGS, "flag")
        return Assertion(c[2].type.lower(), str(c[1]), flag, v.loc(c[0]))

    def expect_task(self, c: list[Token]) -> Assertion:
        value = v.choice(c[3], TASK_STATUSES, "task status").upper()
        return Assertion("task", str(c[2]), value, v.loc(c[0]))

    def expect_finding(self, c: list[Token]) -> Assertion:
        value = v.choice(c[2], FINDING_KINDS, "finding kind")
        return Assertion("finding", str(c[3]), value, v.loc(c[0]))

    # ---- declarations --------------------------------------------------------------------------

    def channel_decl(self, c: list[Token]) -> Channel:
        role: str | None = None
        authoritative = False
        for token in c[2:]:
            if token.type == "AUTHORITATIVE":
                authoritative = True
            else:
                role = token.type.lower()
        return Channel(str(c[1]), role, authoritative, v.loc(c[0]))

    def actor_decl(self, c: list[Token]) -> Actor:
        if c[1].type == "STRING":  # a quoted pattern, `*` standing for any characters
            return Actor(v.string(c[1]), c[2].type.lower(), v.loc(c[0]), pattern=True)
        return Actor(str(c[1]), c[2].type.lower(), v.loc(c[0]))

    def alias_decl(self, c: list[Token]) -> Alias:
        return Alias(v.names(c[1:]), v.loc(c[0]))

    def expectation_decl(self, c: list[Any]) -> Expectation:
        reject_substitutions(c[2:], "an expectation")
        built, _ = fields(c[2:], "expectation")
        return Expectation(id=str(c[1]), location=v.loc(c[0]), **built)

    def task_decl(self, c: list[Any]) -> tuple[Task, list[Expectation]]:
        task_id = str(c[1])
        template: str | None = None
        rest = c[2:]
        if rest and isinstance(rest[0], Token) and rest[0].type == "FROM":
            template, rest = str(rest[1]), rest[2:]
        clauses = [x for x in rest if x[0] != "obligation"]
        obligations = []
        for clause in rest:
            if clause[0] == "obligation":
                reject_substitutions(clause[2][1], "an obligation of a task")
                obligations.append(obligation(task_id, clause))
        built, _ = fields(clauses, "task")
        task = Task(
            id=task_id,
            location=v.loc(c[0]),
            obligations=tuple(o.id for o in obligations),
            template=template,
            **built,
        )
        return task, obligations

    def template_decl(self, c: list[Any]) -> Template:
        return build_template(str(c[1]), v.loc(c[0]), c[2:])

    def policy_decl(self, c: list[Any]) -> Policy:
        return build_policy(str(c[1]), v.loc(c[0]), c[2:])

    def event_decl(self, c: list[Any]) -> Event:
        event_id = str(c[1])
        location = v.loc(c[0])
        seen: dict[str, Token] = {}
        values: dict[str, Any] = {}
        sets: dict[str, tuple[Assignment, Token]] = {}
        markers: dict[Marker, None] = {}
        files: dict[str, None] = {}
        notes: dict[str, tuple[str, Token]] = {}
        for name, keyword, value in c[2:]:
            if name == "set":
                earlier = sets.get(value.key)
                if earlier is not None and differ(earlier[0], value):
                    raise InputError(
                        f"key '{value.key}' is set twice with different values in event "
                        f"'{event_id}' (first at line {earlier[1].line})",
                        v.loc(keyword),
                    )
                sets.setdefault(value.key, (value, keyword))
            elif name == "marker":
                markers.update(dict.fromkeys(value))
            elif name == "files":
                files.update(dict.fromkeys(value))
            elif name == "note":
                key, text = value
                earlier_note = notes.get(key)
                if earlier_note is not None and earlier_note[0] != text:
                    raise InputError(
                        f"key '{key}' has two different notes in event '{event_id}' "
                        f"(first at line {earlier_note[1].line})",
                        v.loc(keyword),
                    )
                notes.setdefault(key, (text, keyword))
            else:
                first = seen.get(name)
                if first is not None:
                    raise InputError(
                        f"repeated clause '{name}' in an event block "
                        f"(first given at line {first.line}, column {first.column})",
                        v.loc(keyword),
                    )
                seen[name] = keyword
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
            files=tuple(files),
            notes=tuple((key, text) for key, (text, _) in notes.items()),
        )

    def test_decl(self, c: list[Any]) -> TestBlock:
        steps = c[2:]
        for step in steps:
            if isinstance(step, StandpointClause):
                break
            raise InputError("expected `at TIME` before the first expect", step.location)
        return TestBlock(name=v.string(c[1]), steps=tuple(steps), location=v.loc(c[0]))

    def start(self, c: list[Any]) -> list[Any]:
        return c
