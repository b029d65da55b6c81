"""rules/prepare/file_touches.lp: the walk that keeps the hits of a wanted glob that can decide.

X (10) opens at 100 by event 5 and wants glob 80; channel 1 is work, channel 3 work and
authoritative; actor 7 is an agent. Hits are given as a chain (glob_next/3) in at order, and
touch_from/3 names the first after the opening, as resolver/facts/policies.py writes them.
"""

from __future__ import annotations

from itertools import pairwise

from tests.rules.harness import prepare

BASE = (
    "channel(1). channel(3). work(1). authoritative(3). actor(0). actor_role(7, agent). "
    "expectation(10). opened_by(10,5). event(5,1,100,100,0). want_touches(10,80). "
)


def chain(*hits: tuple[int, int, int, int], start: int | None = None) -> str:
    """Events (id, channel, at, recorded) by actor 0, hits of glob 80 chained in order."""
    out = [f"event({e},{c},{at},{rec},0). glob_hit(80,{e})." for e, c, at, rec in hits]
    out += [f"glob_next(80,{a[0]},{b[0]})." for a, b in pairwise(hits)]
    if start is not None:
        out.append(f"touch_from(10,80,{start}).")
    return " ".join(out)


def touched(answer) -> set[int]:
    return {int(a[len("touches(10,") : -1]) for a in answer.named("touches")}


def test_a_closer_recorded_late_leaves_room_for_later_hits_recorded_sooner() -> None:
    # 21 has an unknown outcome (no closer); 22 closes but was recorded late (1000); 23 is
    # recorded sooner (500) and can be the first visible; 24 is recorded after 23: never first
    a = prepare(
        BASE
        + chain(
            (21, 1, 200, 200), (22, 1, 300, 1000), (23, 1, 400, 500), (24, 1, 600, 600), start=21
        )
        + " outcome(21,unknown)."
    )
    assert touched(a) == {21, 22, 23}


def test_a_hit_recorded_after_a_closer_is_passed_over_but_the_walk_goes_on() -> None:
    a = prepare(BASE + chain((21, 1, 200, 1000), (22, 1, 300, 1100), (23, 1, 400, 500), start=21))
    assert touched(a) == {21, 23}


def test_hits_at_the_same_instant_as_a_closer_are_kept() -> None:
    a = prepare(
        BASE
        + chain(
            (21, 1, 200, 200), (22, 1, 200, 250), (23, 1, 200, 260), (24, 1, 300, 300), start=21
        )
    )
    assert touched(a) == {21, 22, 23}


def test_an_agent_passes_over_nothing_unless_its_channel_is_authoritative() -> None:
    agent_on_work = BASE + chain((21, 1, 200, 200), (22, 1, 300, 300), start=21)
    a = prepare(agent_on_work.replace("event(21,1,200,200,0)", "event(21,1,200,200,7)"))
    assert touched(a) == {21, 22}
    agent_on_record = BASE + chain((21, 3, 200, 200), (22, 1, 300, 300), start=21)
    a = prepare(agent_on_record.replace("event(21,3,200,200,0)", "event(21,3,200,200,7)"))
    assert touched(a) == {21}


def test_an_index_that_does_not_check_out_means_every_hit() -> None:
    hits = ((20, 1, 50, 50), (21, 1, 200, 200), (22, 1, 300, 300))
    before_the_opening = prepare(BASE + chain(*hits, start=20))
    assert touched(before_the_opening) == {20, 21, 22}
    assert before_the_opening.has("static_rejection(10,20,before_opening)")
    not_the_first = prepare(BASE + chain(*hits, start=22))
    assert touched(not_the_first) == {20, 21, 22}
    right = prepare(BASE + chain(*hits, start=21))
    assert touched(right) == {21}


def test_a_reopened_item_meets_every_hit_after_its_opening() -> None:
    hits = chain((21, 1, 200, 200), (22, 1, 300, 300), (23, 1, 400, 400), start=21)
    assert touched(prepare(BASE + hits)) == {21}
    reopened = prepare(BASE + hits + " event(30,1,250,250,0). marker(30,reopens,10).")
    assert touched(reopened) == {21, 22, 23, 30}  # 30 names it: a touch of its own
