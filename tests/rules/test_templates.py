"""rules/prepare/templates.lp: the task instances a policy opens from a template."""

from __future__ import annotations

from tests.rules.harness import prepare

#: Policy 51 `when channel 1` opens template shape 61 (principal 3, requires 40); event 5 at
#: 100 triggers task instance 20 with obligations 21 (shape 62) and 22 (shape 63, requires 62's
#: sibling); event 6 on channel 2 would open 30 (obligation 31) and does not.
TASK = (
    "channel(1). channel(2). work(1). actor(0). actor(3). "
    "when(51,70). when_channel(70,1). opens(51,61). "
    "shape_principal(61,3). shape_requires(61,40). "
    "event(5,1,100,100,0). potential(20,51,5). "
    "potential_obligation(21,20,62). potential_obligation(22,20,63). shape_sibling(63,62). "
    "shape_verify(62,state). "
    "event(6,2,100,100,0). potential(30,51,6). potential_obligation(31,30,62). "
)


def test_a_trigger_opens_a_task_instance_at_the_trigger() -> None:
    a = prepare(TASK)
    assert a.shows("derived_task(20,5)") and a.has("task(20)")
    assert a.has("opened_by(20,5)")
    assert not a.has("task(30)") and not a.named("derived_task") - {"derived_task(20,5)"}


def test_the_task_instance_takes_the_templates_principal_and_requires() -> None:
    a = prepare(TASK)
    assert a.has("principal(20,3)")
    assert a.shows("requires(20,40)")


def test_obligations_without_an_opening_open_with_their_task() -> None:
    a = prepare(TASK)
    assert a.shows("derived(21,5)") and a.shows("derived(22,5)")
    assert a.shows("part_of(21,20)") and a.has("expectation(21)")
    assert a.has("opening(21,100,100)") and a.has("opening(22,100,100)")
    assert a.has("verify(21,state)") and a.has("shape_of(21,62)")
    assert not a.has("expectation(31)") and not a.has("part_of(31,30)")


def test_requires_inside_a_template_names_a_sibling_obligation() -> None:
    a = prepare(TASK)
    assert a.shows("requires(22,21)") and not a.has("requires(21,22)")
