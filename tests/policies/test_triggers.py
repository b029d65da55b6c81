"""Which events trigger a policy, and what their instances are (SPEC 5.2), on small histories."""

from __future__ import annotations

from resolver import api
from tests.helpers import prepare_text, verdict


def ids(source: str, at: str = "2024-02-01", known: str | None = None) -> list[str]:
    """The ids of the expectations listed at a standpoint."""
    return [x.id for x in api.status(prepare_text(source), at=at, known=known).expectations]


def event(ident: str, day: int, body: str, channel: str = "commits") -> str:
    return f"event {ident} {{ channel {channel} at 2024-01-{day:02d}T10:00 {body} }}\n"


def test_channel_kind_and_by_conditions() -> None:
    source = (
        "policy p { when channel commits when kind commit when by bob }\n"
        + event("e1", 1, "kind commit by bob")
        + event("e2", 2, "kind commit by carol")
        + event("e3", 3, "kind merge by bob")
        + event("e4", 4, "kind commit by bob", channel="sessions")
        + event("e5", 5, "kind commit by bob")
    )
    assert ids(source) == ["p/e1", "p/e5"]


def test_when_not_negates_each_kind_of_condition() -> None:
    source = (
        "policy p { when channel commits when not by bot when not kind merge }\n"
        + event("e1", 1, "kind commit by bob")
        + event("e2", 2, "kind commit by bot")
        + event("e3", 3, "kind merge by bob")
        + event("e4", 4, "by bob")
    )
    assert ids(source) == ["p/e1", "p/e4"]


def test_set_patterns_values_and_several_keys() -> None:
    source = (
        'policy exact { when set deploy.state = "failed" want $key = "ok" }\n'
        'policy prefix { title "Resolve $1 ($value)" when set todo.* want $key = "removed" }\n'
        + event("e1", 1, 'set deploy.state = "failed" set todo.a.py:1 = "open"')
        + event("e2", 2, 'set deploy.state = "ok" set todo.b.py:2 = "open" set todo.c:3 = 7')
        + event("e3", 3, 'set todos = "x" set tod.x = "y"')
    )
    resolution = api.status(prepare_text(source), at="2024-02-01")
    assert [x.id for x in resolution.expectations] == [
        "exact/e1",
        "prefix/e1/todo.a.py:1",
        "prefix/e2/todo.b.py:2",
        "prefix/e2/todo.c:3",
    ]
    assert verdict(resolution, "exact/e1").status == "SATISFIED"  # e2 sets deploy.state = "ok"
    found = verdict(resolution, "prefix/e2/todo.c:3")
    assert found.title == "Resolve c:3 (7)"
    assert (found.policy, found.trigger) == ("prefix", "e2")
    project = resolution_project(source)
    want = project.expectation("prefix/e2/todo.c:3").want
    assert (want.key, want.value) == ("todo.c:3", "removed")


def resolution_project(source: str):
    prepared = prepare_text(source)
    return prepared.project


def test_value_keeps_its_type_when_wanted_whole() -> None:
    source = (
        'policy p { when set n.* = 3 want $key = "$value" }\n'
        + event("e1", 1, "set n.a = 3")
        + event("e2", 2, 'set n.a = "3"')
        + event("e3", 3, "set n.a = 3")
    )
    resolution = api.status(prepare_text(source), at="2024-02-01")
    # e2 sets the string "3": a different value, so it neither triggers nor satisfies
    found = verdict(resolution, "p/e1/n.a")
    assert found.status == "SATISFIED" and found.closed_by == "e3"
    assert "p/e2/n.a" not in [x.id for x in resolution.expectations]


def test_globs_with_star_question_mark_and_double_star() -> None:
    source = (
        'policy star { when touches "src/*.py" }\n'
        'policy one { when touches "src/?.py" }\n'
        'policy deep { when touches "src/**/test_*.py" }\n'
        + event("e1", 1, 'files "src/a.py"')
        + event("e2", 2, 'files "src/pkg/ab.py"')
        + event("e3", 3, 'files "src/test_x.py"')
        + event("e4", 4, 'files "src/a/b/test_y.py"')
        + event("e5", 5, 'files "lib/src/a.py"')
    )
    assert ids(source) == ["deep/e3", "deep/e4", "one/e1", "star/e1", "star/e3"]


def test_text_condition_compares_words_like_the_linker() -> None:
    source = (
        'alias postgresql postgres pg\npolicy p { when text "migrate Postgres" }\n'
        + event("e1", 1, 'text "Migrating PostgreSQL today"')
        + event("e2", 2, 'text "Postgres will migrate"')
        + event("e3", 3, 'text "MIGRATE the pg cluster"')
        + event("e4", 4, 'text "migrate the old pg cluster"')
    )
    # stems, case, aliases and stop words as the linker has them; the words must be adjacent
    assert ids(source) == ["p/e1", "p/e3"]


def test_substitutions_of_event_and_actor() -> None:
    source = (
        'policy review { title "Review $event by $by" when kind pull want review.$event = '
        '"approved" verify state }\n'
        + event("pr-1", 1, "kind pull by dana@example.com")
        + event("r-1", 2, 'set review.pr-1 = "approved"')
    )
    resolution = api.status(prepare_text(source), at="2024-02-01")
    found = verdict(resolution, "review/pr-1")
    assert found.title == "Review pr-1 by dana@example.com"
    assert (found.status, found.closed_by, found.tier) == ("SATISFIED", "r-1", "state")


def test_a_trigger_recorded_late_opens_its_instance_only_from_known_on() -> None:
    source = "policy p { when kind ticket }\n" + event(
        "t1", 1, "kind ticket recorded 2024-01-10T00:00"
    )
    assert ids(source, at="2024-01-05") == []
    assert ids(source, at="2024-01-05", known="2024-01-10") == ["p/t1"]
    assert ids(source, at="2024-01-05", known="latest") == ["p/t1"]
    resolution = api.status(prepare_text(source), at="2024-01-05", known="latest")
    assert verdict(resolution, "p/t1").status == "OPEN"


def test_markers_name_instances_with_and_without_authority() -> None:
    source = (
        'policy p { when kind ticket want done.$event = "yes" }\n'
        + event("t1", 1, "kind ticket")
        + event("t2", 1, "kind ticket")
        + event("c1", 2, "by alice cancels p/t1")
        + event("c2", 2, "by bob waives p/t2")
        + "actor bob agent\n"
    )
    resolution = api.status(prepare_text(source), at="2024-02-01")
    assert verdict(resolution, "p/t1").status == "CANCELLED"
    second = verdict(resolution, "p/t2")
    assert second.status == "OPEN"
    assert any(r.code == "proposal" and r.event == "c2" for r in second.reasons)


def test_want_touches_is_state_tier_and_cannot_be_contradicted() -> None:
    source = (
        'policy p { when touches "src/**" when not touches "docs/**" want touches "docs/**" '
        "verify state }\n"
        + event("e1", 1, 'files "src/a.py"')
        + event("e2", 2, 'files "src/b.py", "docs/b.md"')
        + event("e3", 3, 'files "docs/a.md" outcome failed')
        + event("e4", 4, 'files "docs/a.md"')
        + event("e5", 5, 'files "docs/a.md" set x = 1')
    )
    resolution = api.status(prepare_text(source), at="2024-02-01")
    assert [x.id for x in resolution.expectations] == ["p/e1"]
    found = verdict(resolution, "p/e1")
    assert (found.status, found.closed_by, found.tier) == ("SATISFIED", "e2", "state")
    assert "reopened" not in found.flags


def test_within_and_before_next_kind_bound_an_instance() -> None:
    source = (
        "policy w { when kind change within 3d }\n"
        "policy n { when kind change before next kind release }\n"
        + event("r0", 1, "kind release")
        + event("c1", 2, "kind change")
        + event("r1", 4, "kind release recorded 2024-01-08T00:00")
        + event("r2", 6, "kind release")
    )
    early = api.status(prepare_text(source), at="2024-01-07")
    # r1 is not yet known: the next visible release is r2
    assert verdict(early, "n/c1").bound == verdict(early, "n/c1").bound
    assert "deadline_passed" in verdict(early, "n/c1").flags
    assert "deadline_passed" in verdict(early, "w/c1").flags
    late = api.status(prepare_text(source), at="2024-01-05", known="latest")
    n_bound = verdict(late, "n/c1").bound
    w_bound = verdict(late, "w/c1").bound
    assert n_bound is not None and w_bound is not None
    assert w_bound - n_bound == 86400  # 5 Jan (opening + 3d) vs 4 Jan (r1)
    before_r1 = api.status(prepare_text(source), at="2024-01-03T12:00", known="latest")
    assert "deadline_passed" not in verdict(before_r1, "n/c1").flags


def test_template_instance_with_sibling_requirements() -> None:
    source = (
        "template fix { obligation patch { want patch.$task = true verify state }\n"
        "  obligation ship { want ship.$task = true verify state requires patch } }\n"
        "policy bug { when kind bug opens fix principal alice }\n"
        + event("b1", 1, "kind bug")
        + event("s1", 2, "set ship.bug/b1 = true")
        + event("p1", 3, "set patch.bug/b1 = true")
    )
    resolution = api.status(prepare_text(source), at="2024-02-01")
    assert [t.id for t in resolution.tasks] == ["bug/b1"]
    (task,) = resolution.tasks
    assert (task.status, task.policy, task.trigger) == ("COMPLETE", "bug", "b1")
    ship = verdict(resolution, "bug/b1/ship")
    assert ship.task == "bug/b1" and ship.status == "SATISFIED"
    assert "precondition_unmet" in ship.flags
    assert (ship.policy, ship.trigger) == ("bug", "b1")
    early = api.status(prepare_text(source), at="2024-01-01T12:00")
    assert "blocked" in verdict(early, "bug/b1/ship").flags
    assert api.status(prepare_text(source), at="2023-12-31").tasks == ()
