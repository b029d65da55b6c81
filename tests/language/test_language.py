"""The .ol language: every clause lands in the right model field, and errors point and explain."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from lark import Lark

from resolver.errors import InputError, Location
from resolver.language import parser as language
from resolver.language.model import Assertion, Assignment, Marker, Project, StandpointClause
from resolver.language.parser import parse_file, parse_text
from resolver.resources import grammar_text
from resolver.times import parse_time

SPEC_EXAMPLE = """\
# A comment runs to the end of the line.

channel sessions mention        # role: mention (can open, never closes) or work
channel commits  work
channel issues   work authoritative   # its `completes` markers count as explicit evidence

actor alice principal           # may cancel, waive, supersede, reopen
actor bot-7 agent               # never has authority; its completion markers are claims

alias postgresql postgres pg    # words the text linker treats as one

task release-prep {
  title "Prepare release 024"
  opened 2024-07-11                      # its obligations open with it unless they say otherwise
  principal alice
}

expectation intent-401 {
  title "Move backups to PostgreSQL before release"
  opened_by session-051                  # opening evidence: an event id
  want backup.backend = "PostgreSQL"     # desired transition: key = value
  before release-024                     # bound: when that event occurs
  deadline 2024-08-30                    # bound: a time (the earlier bound wins)
  verify state                           # lowest closing tier accepted
  search commits, issues                 # channels whose completeness matters
  superseded_when event_store.kind = "object-storage"
  requires intent-400                    # precondition
  part_of release-prep                   # the task it belongs to
  principal alice
  scope production
  window 7d                              # evidence may take this long to arrive
  matches "nightly dump", "pg_dump"      # extra phrases for the text linker
}

event commit-118 {
  channel commits
  seq 118
  at 2024-08-27T10:00
  recorded 2024-08-27T10:05              # when the log learned of it; default: = at
  by bob
  kind commit
  text "Switch the nightly dump job to pg_dump"
  set backup.backend = "PostgreSQL"
  completes intent-401
  outcome confirmed                      # confirmed (default) | unknown | failed
}

test "backups still owed at the cut" {
  at 2024-08-23                          # standpoint; `known` defaults to `at`
  expect intent-401 open
  expect intent-401 confidence corroborated_open
  at 2024-08-28 known latest
  expect intent-401 satisfied by commit-118 tier state
  expect intent-401 lacks deadline_passed
  expect task release-prep incomplete
  expect finding false_completion claim-9
}
"""


def parse(text: str) -> Project:
    return parse_text(text, "x.ol")


def error_of(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse(text)
    return str(caught.value)


def at(line: int, column: int) -> Location:
    return Location("x.ol", line, column)


# ------------------------------------------------------------------------------------------------
# The spec's example, clause by clause
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def example() -> Project:
    return parse(SPEC_EXAMPLE)


def test_channels(example: Project) -> None:
    sessions, commits, issues = example.channels
    assert (sessions.name, sessions.role, sessions.authoritative) == ("sessions", "mention", False)
    assert (commits.name, commits.role, commits.authoritative) == ("commits", "work", False)
    assert (issues.name, issues.role, issues.authoritative) == ("issues", "work", True)
    assert sessions.location == at(3, 1)


def test_actors_and_aliases(example: Project) -> None:
    assert [(a.name, a.role) for a in example.actors] == [
        ("alice", "principal"),
        ("bot-7", "agent"),
    ]
    (alias,) = example.aliases
    assert alias.words == ("postgresql", "postgres", "pg")
    assert alias.location == at(10, 1)


def test_task(example: Project) -> None:
    (task,) = example.tasks
    assert task.id == "release-prep"
    assert task.title == "Prepare release 024"
    assert task.opened == parse_time("2024-07-11")
    assert task.opened_by is None
    assert task.principals == ("alice",)
    assert task.obligations == ()
    assert task.location == at(12, 1)


def test_expectation_every_clause(example: Project) -> None:
    (x,) = example.expectations
    assert x.id == "intent-401"
    assert x.location == at(18, 1)
    assert x.title == "Move backups to PostgreSQL before release"
    assert x.opened_by == "session-051"
    assert x.opened is None
    assert x.want == Assignment("backup.backend", "PostgreSQL")
    assert x.before == "release-024"
    assert x.deadline == parse_time("2024-08-30")
    assert x.verify == "state"
    assert x.search == ("commits", "issues")
    assert x.superseded_when == Assignment("event_store.kind", "object-storage")
    assert x.requires == ("intent-400",)
    assert x.part_of == "release-prep"
    assert x.principals == ("alice",)
    assert x.scope == "production"
    assert x.window == 7 * 86400
    assert x.matches == ("nightly dump", "pg_dump")
    assert x.is_obligation is False


def test_event_every_clause(example: Project) -> None:
    (e,) = example.events
    assert e.id == "commit-118"
    assert e.location == at(35, 1)
    assert e.channel == "commits"
    assert e.seq == 118
    assert e.at == parse_time("2024-08-27T10:00:00Z")
    assert e.recorded == parse_time("2024-08-27T10:05:00Z")
    assert e.by == "bob"
    assert e.kind == "commit"
    assert e.text == "Switch the nightly dump job to pg_dump"
    assert e.sets == (Assignment("backup.backend", "PostgreSQL"),)
    assert e.markers == (Marker("completes", "intent-401"),)
    assert e.outcome == "confirmed"


def test_test_block_steps_in_order(example: Project) -> None:
    (block,) = example.tests
    assert block.name == "backups still owed at the cut"
    assert block.location == at(48, 1)
    steps = block.steps
    assert steps[0] == StandpointClause(parse_time("2024-08-23"), None, False, at(49, 3))
    assert steps[1] == Assertion("status", "intent-401", "OPEN", at(50, 3))
    assert steps[2] == Assertion("confidence", "intent-401", "CORROBORATED_OPEN", at(51, 3))
    assert steps[3] == StandpointClause(parse_time("2024-08-28"), None, True, at(52, 3))
    assert steps[4] == Assertion(
        "status", "intent-401", "SATISFIED", at(53, 3), by="commit-118", tier="state"
    )
    assert steps[5] == Assertion("lacks", "intent-401", "deadline_passed", at(54, 3))
    assert steps[6] == Assertion("task", "release-prep", "INCOMPLETE", at(55, 3))
    assert steps[7] == Assertion("finding", "claim-9", "false_completion", at(56, 3))


def test_lark_contextual_lexer_agrees_with_ours() -> None:
    """The grammar file stands alone: Lark's own lexer gives the same model."""
    standard = Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        transformer=language.Builder(),
        maybe_placeholders=False,
    )
    token = language.values.FILE.set("x.ol")
    try:
        items = standard.parse(SPEC_EXAMPLE)
    finally:
        language.values.FILE.reset(token)
    ours = parse(SPEC_EXAMPLE)
    assert items[0:3] == list(ours.channels)
    assert items[-2] == ours.events[0]
    assert items[-1] == ours.tests[0]
    assert items[-3] == ours.expectations[0]


# ------------------------------------------------------------------------------------------------
# Form: layout, comments, case, identifiers
# ------------------------------------------------------------------------------------------------


def test_block_on_one_line() -> None:
    parsed = parse(
        'event e-1 { channel commits at 2024-08-27 text "x" completes a, b } '
        'expectation x { title "t" want k = 1 verify explicit } channel c work'
    )
    assert parsed.events[0].markers == (Marker("completes", "a"), Marker("completes", "b"))
    assert parsed.expectations[0].want == Assignment("k", 1)
    assert parsed.channels[0].role == "work"


def test_clauses_across_lines_and_comments_everywhere() -> None:
    parsed = parse(
        "# head\nevent # after id?\n  e1 # x\n{ channel # c\n c1\n at\n 2024-01-01 } # tail"
    )
    assert parsed.events[0].channel == "c1"
    assert parsed.events[0].location == at(2, 1)


def test_hash_inside_string_is_text() -> None:
    assert parse('event e { channel c at 2024-01-01 text "a # b" }').events[0].text == "a # b"


def test_empty_and_comment_only_files() -> None:
    assert parse("") == Project(sources=("x.ol",))
    assert parse("# nothing\n\n   # at all") == Project(sources=("x.ol",))


def test_keywords_are_case_insensitive() -> None:
    parsed = parse(
        "CHANNEL c WORK AUTHORITATIVE  Actor a PRINCIPAL\n"
        'EXPECTATION x { Title "t" WANT k = TRUE Verify State }\n'
        "Event e { CHANNEL c AT 2024-01-01 Outcome UNKNOWN Completes x }\n"
        'TEST "t" { AT 2024-01-02 KNOWN Latest EXPECT x Satisfied BY e TIER Explicit '
        "Expect x HAS Blocked expect TASK t Complete expect FINDING False_Pending e }"
    )
    assert parsed.channels[0].role == "work" and parsed.channels[0].authoritative
    assert parsed.actors[0].role == "principal"
    assert parsed.expectations[0].want == Assignment("k", True)
    assert parsed.expectations[0].verify == "state"
    assert parsed.events[0].outcome == "unknown"
    assert parsed.events[0].markers == (Marker("completes", "x"),)
    steps = parsed.tests[0].steps
    assert steps[0].known_latest is True
    assert steps[1] == Assertion("status", "x", "SATISFIED", steps[1].location, "e", "explicit")
    assert (steps[2].kind, steps[2].value) == ("has", "blocked")
    assert (steps[3].kind, steps[3].target, steps[3].value) == ("task", "t", "COMPLETE")
    assert (steps[4].kind, steps[4].target, steps[4].value) == ("finding", "e", "false_pending")


def test_identifier_characters() -> None:
    parsed = parse(
        "event support-88/deploy { channel ch.a:b/c-d at 2024-01-01 by _bot "
        "set backup.backend = false completes intent-401 } "
        "expectation ns:x.y/z-1 { requires a.b, c:d, e/f, g-h }"
    )
    event = parsed.events[0]
    assert (event.id, event.channel, event.by) == ("support-88/deploy", "ch.a:b/c-d", "_bot")
    assert event.sets == (Assignment("backup.backend", False),)
    assert parsed.expectations[0].id == "ns:x.y/z-1"
    assert parsed.expectations[0].requires == ("a.b", "c:d", "e/f", "g-h")


def test_identifiers_that_spell_keywords() -> None:
    parsed = parse(
        "actor agent agent  actor principal principal  channel work work\n"
        'event release { channel event at 2024-01-01 by agent kind test text "t" '
        "completes title, at }\n"
        "expectation expectation { before release opened_by event want title = 1 }\n"
        'test "t" { at 2024-01-01 expect expectation open by release tier state }'
    )
    assert [(a.name, a.role) for a in parsed.actors] == [
        ("agent", "agent"),
        ("principal", "principal"),
    ]
    assert parsed.channels[0].name == "work"
    event = parsed.events[0]
    assert (event.id, event.channel, event.by, event.kind) == ("release", "event", "agent", "test")
    assert event.markers == (Marker("completes", "title"), Marker("completes", "at"))
    x = parsed.expectations[0]
    assert (x.id, x.before, x.opened_by, x.want) == (
        "expectation",
        "release",
        "event",
        Assignment("title", 1),
    )
    assert parsed.tests[0].steps[1].target == "expectation"


def test_words_that_start_with_a_keyword_are_identifiers() -> None:
    parsed = parse("event e { channel titles at 2024-01-01 by at-bot kind seq.x }")
    assert (parsed.events[0].channel, parsed.events[0].by) == ("titles", "at-bot")
    assert parsed.events[0].kind == "seq.x"


def test_unicode_identifiers_and_text() -> None:
    parsed = parse('event café-1 { channel canal at 2024-01-01 text "naïve — ✓ 日本" }')
    assert parsed.events[0].id == "café-1"
    assert parsed.events[0].text == "naïve — ✓ 日本"


# ------------------------------------------------------------------------------------------------
# Values, strings, times, durations
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "value"),
    [('"x"', "x"), ("42", 42), ("-7", -7), ("0", 0), ("true", True), ("false", False)],
)
def test_values(written: str, value: object) -> None:
    parsed = parse(f"expectation x {{ want k = {written} superseded_when s = {written} }}")
    assert parsed.expectations[0].want == Assignment("k", value)
    assert type(parsed.expectations[0].want.value) is type(value)
    assert parsed.expectations[0].superseded_when == Assignment("s", value)


@pytest.mark.parametrize(
    ("literal", "text"),
    [
        (r'"say \"hi\""', 'say "hi"'),
        (r'"back\\slash"', "back\\slash"),
        (r'"C:\\new\\dir"', "C:\\new\\dir"),
        (r'"two\nlines\tand\rmore"', "two\nlines\tand\rmore"),
        (r'"\\\""', '\\"'),
        ('"a :- b. #show. not c."', "a :- b. #show. not c."),
        ('"%comment {x} [y] (z)"', "%comment {x} [y] (z)"),
        ('""', ""),
    ],
)
def test_string_escapes(literal: str, text: str) -> None:
    assert parse(f"event e {{ channel c at 2024-01-01 text {literal} }}").events[0].text == text


def escape(text: str) -> str:
    """How a writer of .ol files escapes a string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return escaped.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs"))))
def test_any_printable_string_round_trips(text: str) -> None:
    literal = f'"{escape(text)}"'
    parsed = parse(f"event e {{ channel c at 2024-01-01 text {literal} }} test {literal} {{ }}")
    assert parsed.events[0].text == text
    assert parsed.tests[0].name == text


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_string_round_trips_in_every_string_clause(text: str) -> None:
    """Raw control characters other than line breaks may stand in a literal as they are."""
    assume(text != "b")  # repeated phrases are one phrase
    literal = f'"{escape(text)}"'
    source = f'expectation x {{ title {literal} matches {literal}, "b" scope {literal} }}'
    (x,) = parse(source).expectations
    assert (x.title, x.matches, x.scope) == (text, (text, "b"), text)


@pytest.mark.parametrize(
    ("written", "iso"),
    [
        ("2024-08-27", "2024-08-27T00:00:00Z"),
        ("2024-08-27T10:00", "2024-08-27T10:00:00Z"),
        ("2024-08-27T10:00:30", "2024-08-27T10:00:30Z"),
        ("2024-08-27T10:00:00Z", "2024-08-27T10:00:00Z"),
        ("2024-08-27T12:00+02:00", "2024-08-27T10:00:00Z"),
        ("2024-08-27T05:00:00-05:00", "2024-08-27T10:00:00Z"),
        ("1970-01-01", "1970-01-01T00:00:00Z"),
        ("2100-12-31T23:59:59Z", "2100-12-31T23:59:59Z"),
    ],
)
def test_times(written: str, iso: str) -> None:
    parsed = parse(
        f"event e {{ channel c at {written} recorded {written} }} "
        f"expectation x {{ opened {written} deadline {written} }} "
        f'test "t" {{ at {written} known {written} }}'
    )
    expected = parse_time(iso)
    assert parsed.events[0].at == parsed.events[0].recorded == expected
    assert parsed.expectations[0].opened == parsed.expectations[0].deadline == expected
    assert parsed.tests[0].steps[0].at == parsed.tests[0].steps[0].known == expected


def test_recorded_defaults_to_at() -> None:
    event = parse("event e { channel c at 2024-08-27T10:00 }").events[0]
    assert event.recorded == event.at


@pytest.mark.parametrize(
    ("written", "seconds"), [("30s", 30), ("90m", 5400), ("36h", 129600), ("2d", 172800)]
)
def test_durations(written: str, seconds: int) -> None:
    assert parse(f"expectation x {{ window {written} }}").expectations[0].window == seconds


def test_one_week() -> None:
    assert parse("expectation x { window 1w }").expectations[0].window == 604800


# ------------------------------------------------------------------------------------------------
# Tasks, obligations, lists
# ------------------------------------------------------------------------------------------------


def test_task_with_obligations() -> None:
    parsed = parse(
        'task t1 { title "T" opened_by s-1 principal alice, bob requires t0 scope "prod eu"\n'
        '  obligation o1 { title "one" want k = "v" }\n'
        "  obligation o2 { opened 2024-01-02 part_of t1 verify textual }\n"
        "}\n"
        "expectation free { }"
    )
    (task,) = parsed.tasks
    assert task.obligations == ("o1", "o2")
    assert task.opened_by == "s-1"
    assert task.principals == ("alice", "bob")
    assert task.requires == ("t0",)
    assert task.scope == "prod eu"
    o1, o2, free = parsed.expectations
    assert (o1.id, o1.part_of, o1.is_obligation, o1.title) == ("o1", "t1", True, "one")
    assert o1.location == at(2, 3)
    assert (o2.part_of, o2.opened, o2.verify) == ("t1", parse_time("2024-01-02"), "textual")
    assert (free.id, free.part_of, free.is_obligation) == ("free", None, False)


def test_list_clauses_repeat_and_accumulate() -> None:
    x = parse(
        "expectation x { principal alice principal bob, alice search a search b, c "
        'requires r1 requires r2 matches "m1" matches "m2", "m1" }'
    ).expectations[0]
    assert x.principals == ("alice", "bob")
    assert x.search == ("a", "b", "c")
    assert x.requires == ("r1", "r2")
    assert x.matches == ("m1", "m2")


def test_all_markers_and_sets() -> None:
    event = parse(
        "event e { channel c at 2024-01-01 completes a cancels b supersedes c waives d "
        'reopens e claims_complete f, g reports_pending h set k1 = 1 set k2 = "two" '
        "set k1 = 1 outcome failed seq 0 }"
    ).events[0]
    assert event.markers == (
        Marker("completes", "a"),
        Marker("cancels", "b"),
        Marker("supersedes", "c"),
        Marker("waives", "d"),
        Marker("reopens", "e"),
        Marker("claims_complete", "f"),
        Marker("claims_complete", "g"),
        Marker("reports_pending", "h"),
    )
    assert event.sets == (Assignment("k1", 1), Assignment("k2", "two"))
    assert event.outcome == "failed"
    assert event.seq == 0


def test_standpoint_with_known_time() -> None:
    (step,) = parse('test "t" { at 2024-01-02 known 2024-01-01 }').tests[0].steps
    assert step == StandpointClause(
        parse_time("2024-01-02"), parse_time("2024-01-01"), False, at(1, 12)
    )


@pytest.mark.parametrize(
    "status", ["open", "satisfied", "cancelled", "superseded", "waived", "unknown", "not_opened"]
)
def test_every_status_word(status: str) -> None:
    steps = parse(f'test "t" {{ at 2024-01-01 expect x {status} }}').tests[0].steps
    assert steps[1].value == status.upper()


@pytest.mark.parametrize("klass", ["corroborated_open", "incomplete_search", "unknown"])
def test_every_confidence_class(klass: str) -> None:
    steps = parse(f'test "t" {{ at 2024-01-01 expect x confidence {klass} }}').tests[0].steps
    assert (steps[1].kind, steps[1].value) == ("confidence", klass.upper())


def test_flags_are_lower_cased_and_closed() -> None:
    steps = parse('test "t" { at 2024-01-01 expect x lacks Claimed_Unverified expect x has late }')
    assert [(s.kind, s.value) for s in steps.tests[0].steps[1:]] == [
        ("lacks", "claimed_unverified"),
        ("has", "late"),
    ]
    with pytest.raises(InputError, match="unknown flag 'new'"):
        parse('test "t" { at 2024-01-01 expect x has new }')


def test_parse_file_names_the_path(tmp_path) -> None:
    path = tmp_path / "a.ol"
    path.write_text("\ufeffchannel c work\n", encoding="utf-8")
    parsed = parse_file(path)
    assert parsed.sources == (str(path),)
    assert parsed.channels[0].location == Location(str(path), 1, 1)


# ------------------------------------------------------------------------------------------------
# Errors: FILE:LINE:COL: error: ..., in words
# ------------------------------------------------------------------------------------------------


def test_syntax_error_names_found_and_expected() -> None:
    message = error_of('expectation x {\n  title "t"\n  want k "v" }')
    assert message == "x.ol:3:10: error: unexpected '\"v\"': expected '='"


def test_unknown_clause() -> None:
    message = error_of('expectation x {\n  title "t"\n    wnat k = "v"\n}')
    assert message.startswith(
        "x.ol:3:5: error: unknown clause 'wnat' in an expectation block; expected a clause "
        "(title, opened_by, opened, want, before, deadline,"
    )
    assert message.endswith("window, matches, within) or '}'")
    assert "__ANON" not in message and "NAME" not in message


def test_unknown_clause_in_obligation_event_task_and_test() -> None:
    assert "unknown clause 'foo' in an obligation block" in error_of(
        "task t { obligation o { foo } }"
    )
    assert error_of("event e { channel c\n  colour red }").startswith(
        "x.ol:2:3: error: unknown clause 'colour' in an event block; expected a clause (channel,"
    )
    assert "unknown clause 'want' " not in error_of("task t { want k = 1 }")
    assert error_of("task t { want k = 1 }").startswith(
        "x.ol:1:10: error: clause 'want' is not allowed in a task block; expected a clause "
        "(title, opened_by, opened, principal, requires, scope, obligation) or '}'"
    )
    assert error_of('test "t" { at 2024-01-01 check x }').startswith(
        "x.ol:1:26: error: unknown clause 'check' in a test block"
    )


def test_unknown_declaration() -> None:
    assert error_of("\n  expectaton x { }") == (
        "x.ol:2:3: error: unknown declaration 'expectaton'; expected one of: channel, actor, "
        "alias, task, expectation, event, test, template, policy"
    )


def test_missing_closing_brace() -> None:
    assert error_of('expectation x {\n  title "t"\n') == (
        "x.ol:3:1: error: unexpected end of file: expected a clause (title, opened_by, opened, "
        "want, before, deadline, verify, search, superseded_when, requires, part_of, principal, "
        "scope, window, matches, within) or '}'"
    )


def test_stray_closing_brace() -> None:
    assert error_of("expectation x { } }").startswith("x.ol:1:19: error: unexpected '}': expected")


def test_missing_list_item_and_unexpected_character() -> None:
    assert error_of("expectation x { search a, }") == (
        "x.ol:1:27: error: unexpected '}': expected an identifier"
    )
    assert error_of("expectation x\n { title @ }") == (
        "x.ol:2:10: error: unexpected character '@': expected a string (\"...\")"
    )


def test_bad_time_is_reported_at_its_token() -> None:
    assert error_of("event e {\n  channel c\n  at 2024-13-40\n}").startswith(
        "x.ol:3:6: error: invalid time '2024-13-40'"
    )
    assert error_of("expectation x { deadline 2024-8-1 }").startswith(
        "x.ol:1:26: error: expected a time such as 2024-08-27"
    )
    assert error_of("event e { channel c at tomorrow }") == (
        "x.ol:1:24: error: unexpected 'tomorrow': expected a time (such as 2024-08-27 or "
        "2024-08-27T10:00)"
    )
    assert "outside the supported range" in error_of("event e { channel c at 2101-01-01 }")


def test_bad_duration() -> None:
    assert error_of("expectation x { window 7days }").startswith(
        "x.ol:1:24: error: expected a duration such as 90m"
    )
    assert error_of("expectation x { window 7 }") == (
        "x.ol:1:24: error: unexpected '7': expected a duration (such as 90m, 36h, 2d or 1w)"
    )


def test_missing_required_event_clause() -> None:
    assert error_of("\n event e { at 2024-01-01 }") == (
        "x.ol:2:2: error: event 'e' is missing its required 'channel' clause"
    )
    assert error_of("event e { channel c }") == (
        "x.ol:1:1: error: event 'e' is missing its required 'at' clause"
    )


@pytest.mark.parametrize(
    ("text", "where", "clause"),
    [
        ('expectation x { title "a" title "b" }', "1:27", "title"),
        ("event e { channel c at 2024-01-01\n at 2024-01-02 }", "2:2", "at"),
        ("event e { channel c channel d at 2024-01-01 }", "1:21", "channel"),
        ("task t { opened 2024-01-01 opened 2024-01-02 }", "1:28", "opened"),
        ("task t { obligation o { verify state verify textual } }", "1:38", "verify"),
        ("expectation x { want a = 1 want b = 2 }", "1:28", "want"),
        ("event e { channel c at 2024-01-01 outcome failed outcome unknown }", "1:50", "outcome"),
    ],
)
def test_repeated_single_valued_clause(text: str, where: str, clause: str) -> None:
    message = error_of(text)
    assert message.startswith(f"x.ol:{where}: error: repeated clause '{clause}' in ")


def test_conflicting_sets_of_one_key() -> None:
    assert error_of("event e { channel c at 2024-01-01 set k = 1 set k = 2 }").startswith(
        "x.ol:1:45: error: key 'k' is set twice with different values in event 'e'"
    )


def test_unterminated_string() -> None:
    assert error_of('event e {\n  channel c at 2024-01-01\n  text "never closed\n}') == (
        "x.ol:3:8: error: unterminated string: a string must end with '\"' on the line where "
        "it starts"
    )
    assert error_of('test "x\\" { }').startswith("x.ol:1:6: error: unterminated string")


def test_unknown_escape() -> None:
    assert error_of('expectation x { title "ab\\qc" }') == (
        "x.ol:1:26: error: unknown escape '\\q' in string; use \\\" for a quote, \\\\ for a "
        "backslash, \\n, \\t or \\r"
    )


def test_assertion_before_at() -> None:
    assert error_of('test "t" {\n  expect x open\n  at 2024-01-01\n}') == (
        "x.ol:2:3: error: expected `at TIME` before the first expect"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("expectation x { verify strong }", "x.ol:1:24: error: unknown tier 'strong'"),
        (
            "event e { channel c at 2024-01-01 outcome maybe }",
            "x.ol:1:43: error: unknown outcome 'maybe'",
        ),
        ('test "t" { at 2024-01-01 expect x done }', "x.ol:1:35: error: unknown status 'done'"),
        (
            'test "t" { at 2024-01-01 expect x confidence high }',
            "x.ol:1:46: error: unknown confidence class 'high'",
        ),
        (
            'test "t" { at 2024-01-01 expect task t finished }',
            "x.ol:1:40: error: unknown task status 'finished'",
        ),
        (
            'test "t" { at 2024-01-01 expect finding lie e }',
            "x.ol:1:41: error: unknown finding kind 'lie'",
        ),
        (
            'test "t" { at 2024-01-01 expect x open tier best }',
            "x.ol:1:45: error: unknown tier 'best'",
        ),
        ("actor a boss", "x.ol:1:9: error: unexpected 'boss': expected 'principal' or 'agent'"),
        (
            "event e { channel c at 2024-01-01 seq -1 }",
            "x.ol:1:39: error: seq must be between 0",
        ),
        (
            "task t { obligation o { part_of u } }",
            "x.ol:1:25: error: obligation 'o' of task 't' cannot be part_of 'u'",
        ),
        ("alias pg", "x.ol:1:9: error: unexpected end of file: expected an identifier"),
    ],
)
def test_closed_word_sets_and_other_errors(text: str, message: str) -> None:
    assert error_of(text).startswith(message)


def test_error_messages_never_leak_terminal_names() -> None:
    texts = [
        "channel",
        "channel c work authoritative x",
        "expectation x { want = 1 }",
        "expectation x { want k = }",
        "event e { channel c at 2024-01-01 seq x }",
        'test "t" { at 2024-01-01 known }',
        "expectation { }",
        "task t { obligation { } }",
        "expectation x { title }",
        "test t { }",
        "expectation x { matches a }",
    ]
    for text in texts:
        message = error_of(text)
        assert re.match(r"x\.ol:\d+:\d+: error: ", message), message
        assert not re.search(r"__ANON|_SKIP|\bNAME\b|\bSTRING\b|\$END|RBRACE|LBRACE", message), (
            message
        )


def test_setting_a_key_to_one_and_true_conflicts() -> None:
    assert "set twice with different values" in error_of(
        "event e { channel c at 2024-01-01 set k = 1 set k = true }"
    )
