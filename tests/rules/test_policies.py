"""rules/prepare/policies.lp: which events trigger a policy, and the instances they open."""

from __future__ import annotations

from tests.rules.harness import prepare

#: Policy 50 (shape 60): `when channel 1` (condition 70), `when not touches` glob 80 (71).
#: Event 5 on channel 1 at 100 would trigger instance 90; event 6 on channel 2 instance 91.
POLICY = (
    "channel(1). channel(2). work(1). actor(0). "
    "policy_shape(50,60). when(50,70). when_channel(70,1). "
    "when(50,71). when_touches(71,80). negated(71). "
    "event(5,1,100,100,0). potential(90,50,5). event(6,2,100,100,0). potential(91,50,6). "
)


def test_a_trigger_meets_every_condition_and_opens_an_instance() -> None:
    a = prepare(POLICY)
    assert a.shows("instance_of(90,50,5)") and a.shows("derived(90,5)")
    assert not a.has("instance_of(91,50,6)"), "an event on another channel triggers nothing"
    assert a.has("expectation(90)") and not a.has("expectation(91)")
    assert a.has("opened_by(90,5)") and a.has("opening(90,100,100)")
    assert a.has("cond_met(90,70)") and a.has("cond_met(90,71)")
    assert a.shows("cond_met(90,70)") and a.shows("cond_met(90,71)")


def test_a_negated_condition_that_holds_blocks_the_trigger() -> None:
    a = prepare(POLICY + "glob_hit(80,5).")
    assert not a.named("instance_of") and not a.named("derived")


def test_an_instance_needs_its_trigger_event() -> None:
    a = prepare(POLICY + "potential(92,50,7).")
    assert not a.has("instance_of(92,50,7)")


def test_one_instance_per_key_each_key_must_meet_the_keyed_condition() -> None:
    # `when set todo.* = "open"` (condition 72, value 31): event 5 sets key 30 to 31, key 33 to 34.
    keyed = (
        "channel(1). actor(0). policy_shape(50,60). when(50,72). when_set(72). "
        "when_value(72,31). key_match(72,30). key_match(72,33). "
        "event(5,1,100,100,0). sets(5,30,31). sets(5,33,34). "
        "potential(90,50,5). keyed(90,72,30). potential(91,50,5). keyed(91,72,33). "
    )
    a = prepare(keyed)
    assert a.has("instance_of(90,50,5)") and not a.has("instance_of(91,50,5)")
    any_value = keyed.replace("when_value(72,31). ", "")
    b = prepare(any_value)
    assert b.has("instance_of(90,50,5)") and b.has("instance_of(91,50,5)")


def test_an_instance_carries_its_policys_clauses() -> None:
    shape = (
        "inst_want(90,30,31). inst_superseded_when(90,40,41). shape_verify(60,state). "
        "shape_search(60,1). shape_requires(60,11). shape_principal(60,3). "
        "shape_window(60,20). shape_within(60,30). shape_deadline(60,500). shape_before(60,8). "
        "shape_next_kind(60,81). shape_want_touches(60,82). shape_part_of(60,12). "
    )
    a = prepare(POLICY + shape)
    for atom in (
        "want(90,30,31)",
        "superseded_when(90,40,41)",
        "search(90,1)",
        "requires(90,11)",
        "window(90,20)",
        "within(90,30)",
        "deadline(90,500)",
        "before(90,8)",
        "part_of(90,12)",
    ):
        assert a.shows(atom), atom
    assert a.has("verify(90,state)") and a.shows("verify_tier(90,state)")
    assert a.has("principal(90,3)") and a.has("next_kind(90,81)")
    assert a.has("want_touches(90,82)")
    assert not a.has("want(91,30,31)"), "no instance, no clauses"


def test_an_instance_opens_at_its_trigger_not_at_a_shape_opening() -> None:
    a = prepare(POLICY + "shape_opened_time(60,150). shape_opened_by(60,6).")
    assert a.has("derived_opener(90)")
    assert a.named("opening") == {"opening(90,100,100)"}
    assert not a.has("opened_by(90,6)")


def test_a_template_obligation_may_name_its_own_opening() -> None:
    # Task instance 20 from policy 51 (opens template shape 61) with obligations 21 and 22.
    task = (
        "channel(1). actor(0). when(51,70). when_channel(70,1). opens(51,61). "
        "event(5,1,100,100,0). event(6,1,120,120,0). potential(20,51,5). "
        "potential_obligation(21,20,62). potential_obligation(22,20,63). "
        "shape_opened_time(62,150). shape_opened_by(63,6). "
    )
    a = prepare(task)
    assert a.has("opened_time(21,150)") and a.has("opening(21,150,150)")
    assert a.has("opened_by(22,6)") and a.has("opening(22,120,120)")


def test_each_kind_of_condition_is_decided_on_the_event() -> None:
    # Policy 52: `when kind 81` (73), `when by actor 3` (74), `when set` key 30 (75), `when
    # text` phrase 83 (76). Event 5 meets them all; events 6..9 each miss one.
    conds = (
        "channel(1). actor(0). actor(3). policy_shape(52,60). "
        "when(52,73). when_kind(73,81). when(52,74). when_by(74,3). "
        "when(52,75). when_set(75). key_match(75,30). when(52,76). when_text(76,83). "
    )
    events = ""
    for e, kind, actor, key, text in (
        (5, 81, 3, 30, True),
        (6, 82, 3, 30, True),
        (7, 81, 0, 30, True),
        (8, 81, 3, 31, True),
        (9, 81, 3, 30, False),
    ):
        events += f"event({e},1,100,100,{actor}). event_kind({e},{kind}). sets({e},{key},1). "
        events += f"potential({e + 90},52,{e}). " + (f"text_hit(83,{e}). " if text else "")
    a = prepare(conds + events)
    assert a.named("instance_of") == {"instance_of(95,52,5)"}
    assert {f"cond_met(95,{c})" for c in (73, 74, 75, 76)} <= a.named("cond_met")
