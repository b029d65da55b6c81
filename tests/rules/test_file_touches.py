"""rules/prepare/file_touches.lp: `want touches "GLOB"` and `before next kind KIND`."""

from __future__ import annotations

from tests.rules.harness import prepare

#: X (10) opens at 100 by event 5 and wants a work event touching glob 80; channel 1 is work,
#: channel 2 mention. Kind 81 is the `before next kind` kind.
BASE = (
    "channel(1). channel(2). work(1). mention(2). actor(0). "
    "expectation(10). opened_by(10,5). event(5,1,100,100,0). want_touches(10,80). "
)


def test_a_work_event_after_the_opening_touching_the_glob_satisfies_at_state() -> None:
    a = prepare(BASE + "event(6,1,200,200,0). glob_hit(80,6). event(7,1,200,200,0).")
    assert a.has("touches(10,6)") and a.has("candidate(10,6)")
    assert a.has("reaches(10,6,state)") and a.has("accepted(10,6,state)")
    assert not a.has("candidate(10,7)"), "an event whose files do not match is no candidate"


def test_before_the_opening_or_on_a_mention_channel_it_does_not() -> None:
    a = prepare(BASE + "event(6,1,90,90,0). glob_hit(80,6). event(7,2,200,200,0). glob_hit(80,7).")
    assert not a.named("reaches") and not a.named("candidate")
    assert a.has("static_rejection(10,6,before_opening)")
    assert a.has("static_rejection(10,7,mention_channel)")


def test_the_glob_of_another_expectation_does_not_count() -> None:
    a = prepare(BASE + "event(6,1,200,200,0). glob_hit(81,6).")
    assert not a.has("touches(10,6)") and not a.named("reaches")


def test_next_kind_events_strictly_after_the_opening() -> None:
    a = prepare(
        BASE + "next_kind(10,81). event(6,1,100,100,0). event_kind(6,81). "
        "event(7,1,300,300,0). event_kind(7,81). event(8,1,400,400,0). event_kind(8,82). "
        "event(9,1,50,50,0). event_kind(9,81)."
    )
    assert a.shows("kind_after(10,7)") and a.named("kind_after") == {"kind_after(10,7)"}
    assert a.has("needed(7)") and a.shows("evt(7,300,300,0)")
    assert not a.shows("evt(8,400,400,0)"), "an event of another kind is not carried"
