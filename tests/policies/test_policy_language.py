"""The policy and template language (SPEC 5.1): what parses into what, and every misuse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from resolver.errors import InputError
from resolver.language.eventlog import read_jsonl_text
from resolver.language.keywords import words
from resolver.language.loader import load
from resolver.language.model import Assignment, Condition
from resolver.language.parser import parse_text


def parse(text: str):
    return parse_text(text, "x.ol")


def error_of(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse(text)
    return str(caught.value)


def load_error(tmp_path: Path, text: str) -> str:
    (tmp_path / "p.ol").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load([tmp_path])
    return str(caught.value).replace(str(tmp_path) + "/", "")


def test_policy_conditions_and_clauses() -> None:
    (policy,) = parse(
        'policy p { title "Docs for $event by $by" when channel commits when kind commit '
        'when by bob@example.com when set todo.* = "open" when touches "src/**" '
        'when text "nightly dump" when not touches "docs/**" want $key = "removed" '
        "within 14d before next kind release verify state }"
    ).policies
    kinds = [(c.kind, c.operand, c.negated) for c in policy.conditions]
    assert kinds == [
        ("channel", "commits", False),
        ("kind", "commit", False),
        ("by", "bob@example.com", False),
        ("set", "todo.*", False),
        ("touches", "src/**", False),
        ("text", "nightly dump", False),
        ("touches", "docs/**", True),
    ]
    assert policy.conditions[3].has_value and policy.conditions[3].value == "open"
    assert policy.keyed == 3 and policy.per_key
    shape = policy.shape
    assert shape.want == Assignment("$key", "removed")
    assert shape.within == 14 * 86400
    assert shape.before_next_kind == "release"
    assert shape.verify == "state"


def test_when_not_not_and_set_without_value() -> None:
    (policy,) = parse("policy p { when not not kind x when set deploy.status }").policies
    assert policy.conditions[0] == Condition("kind", "x", policy.conditions[0].location)
    assert not policy.conditions[1].has_value and not policy.per_key
    assert policy.keyed == 1


def test_want_touches_and_new_clauses_on_expectations() -> None:
    (x,) = parse(
        'expectation x { opened 2024-01-01 want touches "docs/**" within 2d '
        "before next kind release before rel-1 }"
    ).expectations
    assert x.want_touches == "docs/**" and x.want is None
    assert x.within == 2 * 86400 and x.before_next_kind == "release" and x.before == "rel-1"


def test_event_files_in_the_language_and_in_json_lines() -> None:
    (event,) = parse(
        'event e { channel c at 2024-01-01 files "a.py", "b/c.py" files "a.py" }'
    ).events
    assert event.files == ("a.py", "b/c.py")
    (one,) = read_jsonl_text('{"id": "e", "channel": "c", "at": "2024-01-01", "files": "a"}', "l")
    assert one.files == ("a",)
    (two,) = read_jsonl_text(
        '{"id": "e", "channel": "c", "at": "2024-01-01", "files": ["a", "b"]}', "l"
    )
    assert two.files == ("a", "b")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "e", "channel": "c", "at": "2024-01-01", "files": 3}', "must be a path or a list"),
        ('{"id": "e", "channel": "c", "at": "2024-01-01", "files": [""]}', "non-empty paths"),
    ],
)
def test_bad_files_in_json_lines(line: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        read_jsonl_text(line, "log.jsonl")
    assert str(caught.value).startswith("log.jsonl:1: error: ") and message in str(caught.value)


def test_identifiers_may_hold_at_and_plus() -> None:
    parsed = parse(
        "actor alice+ops@example.com principal "
        "event e { channel c at 2024-01-01 by bot+ci@example.com }"
    )
    assert parsed.actors[0].name == "alice+ops@example.com"
    assert parsed.events[0].by == "bot+ci@example.com"


def test_template_and_task_from_template(tmp_path: Path) -> None:
    (tmp_path / "t.ol").write_text(
        'template shape { title "Shape" principal alice '
        'obligation a { want a.$task = "done" verify state } '
        'obligation b { want b.$task = "done" requires a } } '
        'task t-1 from shape { title "Own title" opened 2024-01-01 }',
        encoding="utf-8",
    )
    project = load([tmp_path])
    (task,) = project.tasks
    assert task.title == "Own title" and task.principals == ("alice",)
    assert task.obligations == ("t-1/a", "t-1/b")
    b = project.expectation("t-1/b")
    assert b is not None
    assert b.want == Assignment("b.t-1", "done") and b.requires == ("t-1/a",)
    assert b.part_of == "t-1"


def test_keywords_and_clauses_are_read_from_the_grammar() -> None:
    known = words()
    assert {"policy", "template", "when", "opens", "touches", "within", "files"} <= known.keywords
    assert "name" not in known.keywords
    assert known.clauses["policy"][:2] == ("when", "opens")
    assert "files" in known.clauses["event"]
    assert known.clauses["top"][-2:] == ("template", "policy")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'policy p { when kind x want $task = "v" }',
            "x.ol:1:24: error: '$task' in 'want' has nothing to stand for: $task stands for a "
            "task in a template obligation",
        ),
        (
            'policy p { when kind x title "About $key" }',
            "x.ol:1:24: error: '$key' in 'title' has nothing to stand for: the policy has no "
            "'when set' condition",
        ),
        (
            'policy p { when set deploy.state want k = "$1" }',
            "x.ol:1:34: error: '$1' in 'want' has nothing to stand for: the 'when set "
            "deploy.state' pattern does not end in '*'",
        ),
        (
            'policy p { when kind x title "$frobnicate" }',
            "x.ol:1:24: error: '$frobnicate' in 'title' has nothing to stand for",
        ),
        (
            'expectation x { want $key = "v" }',
            "x.ol:1:17: error: '$key' in 'want' has nothing to stand for: substitutions apply",
        ),
        (
            'template t { obligation a { want a.$event = "v" } }',
            "x.ol:1:29: error: '$event' in 'want' has nothing to stand for: a template "
            "obligation may use $task, and $path, $1, ... when a policy that opens it",
        ),
        (
            "template t { obligation a { requires b } }",
            "x.ol:1:29: error: obligation 'a' of template 't' requires 'b', which is not an "
            "obligation of the template",
        ),
        (
            'policy p { when kind x want touches "docs/**" opens t }',
            "x.ol:1:24: error: policy 'p' has both 'want' and 'opens'",
        ),
        (
            "policy p { when kind x opens t verify state }",
            "x.ol:1:32: error: clause 'verify' has no meaning in a policy that opens a template",
        ),
        ('policy p { title "t" }', "x.ol:1:1: error: policy 'p' needs at least one 'when'"),
        (
            'policy p { when touches "src/**x" }',
            "x.ol:1:25: error: '**' must be a whole path segment in glob 'src/**x'",
        ),
        ('policy p { when touches "a//b" }', "x.ol:1:25: error: empty path segment in glob"),
        ('policy p { when touches "[ab" }', "x.ol:1:25: error: unclosed '[' in glob '[ab'"),
        ('expectation x { want touches "" }', "x.ol:1:30: error: empty glob"),
        (
            "expectation x { before later kind release }",
            "x.ol:1:24: error: expected 'before EVENT' or 'before next kind KIND'",
        ),
        (
            'policy p { when kind x want k = "a" want touches "b" }',
            "x.ol:1:37: error: repeated clause 'want' in a policy block",
        ),
        (
            "policy p { when colour red }",
            "x.ol:1:17: error: unexpected 'colour': expected",
        ),
        ('policy p { when text "" }', "x.ol:1:22: error: 'when text' needs a phrase"),
        ("policy p { when kind x opened 2024-01-01 }", "x.ol:1:24: error: clause 'opened' is not"),
    ],
)
def test_every_misuse_is_an_error_at_its_token(text: str, message: str) -> None:
    assert error_of(text).startswith(message)


def test_unknown_templates_are_errors_at_the_clause(tmp_path: Path) -> None:
    assert load_error(tmp_path, "policy p {\n  when kind x\n  opens nothing\n}") == (
        "p.ol:3:3: error: policy 'p' opens unknown template 'nothing'"
    )
    assert load_error(tmp_path, "task t from nothing { }") == (
        "p.ol:1:1: error: task 't' is declared from unknown template 'nothing'"
    )


def test_the_command_exits_2_with_the_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ol"
    bad.write_text('policy p {\n  when kind ticket\n  want $task = "x"\n}\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "resolver", "status", str(bad), "--at", "2024-01-01"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().startswith(f"{bad}:3:3: error: '$task' in 'want'")


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("src/api/**", "src/api/list.py", True),
        ("src/api/**", "src/api/v1/deep/x.py", True),
        ("src/api/**", "src/api", False),
        ("src/api/**", "src/apix/list.py", False),
        ("**/test_*.py", "test_a.py", True),
        ("**/test_*.py", "a/b/test_a.py", True),
        ("**/test_*.py", "a/b/test_a.pyc", False),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("*.py", "a/b.py", False),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/a/b.py", False),
        ("?.md", "a.md", True),
        ("?.md", "ab.md", False),
        ("?.md", "/.md", False),
        ("[!a]b", "cb", True),
        ("[!a]b", "ab", False),
        ("[ab].py", "b.py", True),
        ("docs/**", "src/docs/x.md", False),
        ("**", "any/path/at/all", True),
        ("a.b+c(d)", "a.b+c(d)", True),
    ],
)
def test_glob_segments(glob: str, path: str, matches: bool) -> None:
    from resolver.language.globs import compile_glob

    assert bool(compile_glob(glob).fullmatch(path)) is matches
