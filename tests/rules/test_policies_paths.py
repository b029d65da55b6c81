"""rules/prepare/policies.lp: instances per matched path (`$path`, `$1`, ... of SPEC 5.1)."""

from __future__ import annotations

from tests.rules.harness import prepare

#: Policy 50 (shape 60): `when touches` glob 80 (condition 70). Event 5 touches paths 41 and 42;
#: would-be instances 90 (path 41), 91 (path 42), 92 (path 43, which event 5 does not touch),
#: 93 (path 42, which the glob does not match), each wanting its own glob 81..84.
POLICY = (
    "channel(1). work(1). actor(0). policy_shape(50,60). when(50,70). when_touches(70,80). "
    "event(5,1,100,100,0). glob_hit(80,5). event_file(5,41). event_file(5,42). "
    "path_hit(80,41). path_hit(80,42). "
    "potential(90,50,5). pathed(90,70,41). inst_want_touches(90,81). "
    "potential(91,50,5). pathed(91,70,42). inst_want_touches(91,82). "
    "potential(92,50,5). pathed(92,70,43). inst_want_touches(92,83). "
)


def test_each_instance_needs_its_own_path_to_be_a_matched_file_of_its_trigger() -> None:
    a = prepare(POLICY)
    assert a.shows("instance_of(90,50,5)") and a.shows("instance_of(91,50,5)")
    assert not a.has("instance_of(92,50,5)"), "the trigger does not touch path 43"
    assert a.shows("instance_path(90,41)") and a.shows("instance_path(91,42)")
    assert not a.shows("instance_path(92,43)")


def test_a_path_the_glob_does_not_match_opens_nothing() -> None:
    a = prepare(POLICY.replace("path_hit(80,42). ", ""))
    assert a.has("instance_of(90,50,5)") and not a.has("instance_of(91,50,5)")


def test_each_instance_wants_its_own_glob() -> None:
    a = prepare(POLICY)
    assert a.has("want_touches(90,81)") and a.has("want_touches(91,82)")
    assert not a.has("want_touches(92,83)"), "no instance, no wanted glob"
    assert not a.has("want_touches(90,82)")
