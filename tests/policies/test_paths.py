"""`$path` and `$1`, `$2`, ... of a wildcard `when touches` (SPEC §5.1), bare `$value`, and
`$task` in a template's own title (issue 27 item 6).

A policy whose title, `want` or `want touches` glob reads the paths its `when touches` matched
opens one instance per matched path (`POLICY/EVENT/PATH`) and wants what that path names; a `$`
name with nothing to stand for is an error in a glob as everywhere else.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver import api
from resolver.errors import InputError
from resolver.language.loader import load, load_with_warnings
from resolver.language.parser import parse_text
from resolver.verdicts.lint import lint
from tests.helpers import prepare_text

DOCS = """
policy api-docs {
  title "Document $1 ($path)"
  when touches "src/api/*.py"
  when not touches "docs/**"
  want touches "docs/api/$1.md"
}
"""


def event(ident: str, day: int, *files: str) -> str:
    listed = ", ".join(json.dumps(f) for f in files)
    return f"event {ident} {{ channel commits at 2024-07-{day:02d}T10:00 files {listed} }}\n"


def verdicts(source: str, at: str = "2024-07-20") -> dict[str, tuple]:
    resolution = api.status(prepare_text(source), at=at)
    return {x.id: (x.status, x.closed_by, x.title) for x in resolution.expectations}


def parse_error(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_text(text, "x.ol")
    return str(caught.value)


def test_each_matched_path_opens_its_own_instance_wanting_its_own_page() -> None:
    found = verdicts(
        DOCS
        + event("c1", 1, "src/api/login.py", "src/api/cart.py", "src/app.py")
        + event("c2", 2, "docs/api/pagination.md")
        + event("c3", 3, "docs/api/cart.md")
    )
    assert found == {
        "api-docs/c1/src/api/cart.py": ("SATISFIED", "c3", "Document cart (src/api/cart.py)"),
        "api-docs/c1/src/api/login.py": ("OPEN", None, "Document login (src/api/login.py)"),
    }


def test_a_commit_that_documents_another_endpoint_satisfies_nothing() -> None:
    found = verdicts(DOCS + event("c1", 1, "src/api/login.py") + event("c2", 2, "docs/api/x.md"))
    assert found["api-docs/c1/src/api/login.py"][:2] == ("OPEN", None)


def test_the_parts_of_several_wildcards_in_order() -> None:
    source = (
        'policy p { title "$1 then $2" when touches "services/*/**/*.go" '
        'want touches "docs/$1/$3.md" }\n'
        + event("c1", 1, "services/auth/internal/token/jwt.go", "services/auth/x.go")
        + event("c2", 2, "docs/auth/jwt.md")
        + event("c3", 3, "docs/auth/x.md")
    )
    found = verdicts(source)
    assert found["p/c1/services/auth/internal/token/jwt.go"] == (
        "SATISFIED",
        "c2",
        "auth then internal/token",
    )
    # `**` may span no segment: its part is empty
    assert found["p/c1/services/auth/x.go"] == ("SATISFIED", "c3", "auth then ")


def test_a_path_is_matched_literally_where_it_is_substituted_into_a_glob() -> None:
    source = (
        'policy p { when touches "src/*" want touches "docs/$path.md" }\n'
        + event("c1", 1, "src/a[1]*.py")
        + event("c2", 2, "docs/src/ab*.py.md")
        + event("c3", 3, "docs/src/a[1]*.py.md")
    )
    assert verdicts(source)["p/c1/src/a[1]*.py"][:2] == ("SATISFIED", "c3")


def test_without_path_names_one_instance_per_trigger_as_before() -> None:
    source = (
        'policy p { title "$event" when touches "src/api/*.py" want touches "docs/$event.md" }\n'
        + event("c1", 1, "src/api/a.py", "src/api/b.py")
        + event("c2", 2, "docs/c1.md")
    )
    assert verdicts(source) == {"p/c1": ("SATISFIED", "c2", "c1")}


def test_a_want_key_may_read_the_path_too() -> None:
    source = (
        'policy p { when touches "src/*.py" want reviewed.$1 = true }\n'
        + event("c1", 1, "src/a.py")
        + "event c2 { channel commits at 2024-07-02 set reviewed.a = true }\n"
    )
    assert verdicts(source)["p/c1/src/a.py"][:2] == ("SATISFIED", "c2")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            'policy p { when channel c want touches "docs/$1.md" }',
            "'$1' in 'want' has nothing to stand for: the policy has no 'when set' pattern "
            "ending in '*' nor a 'when touches'",
        ),
        (
            'policy p { when touches "src/*.py" want touches "docs/$2.md" }',
            "'$2' in 'want' has nothing to stand for: the glob \"src/*.py\" of its 'when "
            "touches' has 1 wildcard",
        ),
        (
            'policy p { title "$path" when channel c want touches "docs/x.md" }',
            "'$path' in 'title' has nothing to stand for: the policy has no 'when touches'",
        ),
        (
            'policy p { when touches "src/*.py" want touches "docs/$frob.md" }',
            "'$frob' in 'want' has nothing to stand for",
        ),
        (
            'policy p { when touches "src/$1" want touches "docs/x.md" }',
            "'$1' in 'when touches' has nothing to stand for",
        ),
        (
            'expectation x { opened 2024-07-01 want touches "docs/$event.md" }',
            "'$event' in 'want' has nothing to stand for: substitutions apply in policies",
        ),
        (
            'policy p { when set k.* = 1 when touches "src/*.py" want touches "docs/$1.md" }',
            "policy 'p' has both a 'when set k.*' and a 'when touches \"src/*.py\"' whose "
            "paths its $ names read",
        ),
        (
            'policy p { title "$path" when set k = 1 when touches "src/**" want k = 2 }',
            "an instance is one per key or one per path, not both",
        ),
        (
            "policy p { when set k.* = 1 want k = $key }",
            "a bare value may only be $value, got '$key'",
        ),
        (
            "expectation x { opened 2024-07-01 want k = $value }",
            "'$value' in 'want' has nothing to stand for: substitutions apply in policies",
        ),
        (
            'template t { title "Task $event" obligation a { want a = "b" } }',
            "'$event' in 'title' has nothing to stand for: a template's own title may use "
            "only $task",
        ),
    ],
)
def test_every_name_without_something_to_stand_for_is_an_error(source: str, message: str) -> None:
    error = parse_error(source)
    assert error.startswith("x.ol:1:") and message in error, error


def test_a_keyed_policy_may_still_filter_on_a_wildcard_glob() -> None:
    (policy,) = parse_text(
        'policy p { title "$key" when set todo.* = "open" when touches "src/**" '
        'want $key = "removed" }',
        "x.ol",
    ).policies
    assert policy.path_cond is None and policy.per_key


def test_a_template_reading_paths_needs_a_policy_that_matches_them(tmp_path: Path) -> None:
    template = (
        'template t { obligation docs { want touches "docs/$1.md" } }\nchannel commits work\n'
    )
    cases = {
        "policy p { when channel commits opens t }": "but policy 'p' has no 'when touches'",
        'policy p { when touches "README" opens t }': "has 0 wildcard(s): '$1' has nothing",
        'policy p { when set k.* = 1 when touches "a/*" opens t }': "one per key or one per",
        "task x from t { opened 2024-07-01 }": "only a policy with a 'when touches' can open it",
    }
    for declaration, message in cases.items():
        (tmp_path / "p.ol").write_text(template + declaration, encoding="utf-8")
        with pytest.raises(InputError) as caught:
            load([tmp_path])
        assert message in str(caught.value), str(caught.value)


def test_bare_value_keeps_the_matched_type() -> None:
    source = (
        'policy p { title "t" when set n.* = 3 want backup.$1 = $value }\n'
        "event e1 { channel commits at 2024-07-01 set n.a = 3 }\n"
        "event e2 { channel commits at 2024-07-02 set backup.a = 3 }\n"
        "event e3 { channel commits at 2024-07-01 set n.b = 3 }\n"
        'event e4 { channel commits at 2024-07-02 set backup.b = "3" }\n'
    )
    found = verdicts(source)
    assert found["p/e1/n.a"][:2] == ("SATISFIED", "e2")
    assert found["p/e3/n.b"][:2] == ("OPEN", None), "the text '3' is not the integer 3"


def test_task_stands_in_a_templates_own_title() -> None:
    source = (
        'template t { title "Resolve $task" obligation a { want a.$task = "done" } }\n'
        "task x from t { opened 2024-07-01 }\n"
        "policy p { when kind ticket opens t }\n"
        "event k1 { channel commits at 2024-07-01 kind ticket }\n"
    )
    resolution = api.status(prepare_text(source), at="2024-07-02")
    titles = {t.id: t.title for t in resolution.tasks}
    assert titles == {"x": "Resolve x", "p/k1": "Resolve p/k1"}


def test_lint_notes_which_paths_opened_which_instances(tmp_path: Path) -> None:
    (tmp_path / "p.ol").write_text(
        "channel commits work\n"
        + DOCS
        + event("c1", 1, "src/api/login.py", "src/api/cart.py", "src/app.py"),
        encoding="utf-8",
    )
    project, loaded = load_with_warnings([tmp_path])
    notes = [str(d) for d in lint(project, loaded) if d.severity == "note"]
    assert notes == [
        f"{tmp_path}/p.ol:3:1: note: policy api-docs: c1 opened 2 instances by path: "
        "src/api/cart.py -> api-docs/c1/src/api/cart.py; "
        "src/api/login.py -> api-docs/c1/src/api/login.py"
    ]
