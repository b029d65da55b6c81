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


def test_claims_have_their_own_frontier_that_closers_do_not_pass_over() -> None:
    # 21 closes; 22 and 23 are an agent's own work events (claims: any visible one flags the
    # item), 23 recorded before 22; 24, a claim recorded after 23, is passed over; 25 closes
    # later and is passed over by 21
    hits = chain(
        (21, 1, 200, 200),
        (22, 1, 300, 900),
        (23, 1, 400, 500),
        (24, 1, 450, 600),
        (25, 1, 500, 500),
        start=21,
    )
    facts = BASE + hits
    for agent, at, rec in ((22, 300, 900), (23, 400, 500), (24, 450, 600)):
        facts = facts.replace(f"event({agent},1,{at},{rec},0)", f"event({agent},1,{at},{rec},7)")
    assert touched(prepare(facts)) == {21, 22, 23}


def test_claims_at_one_instant_are_all_kept() -> None:
    facts = BASE + chain((21, 1, 300, 300), (22, 1, 300, 350), (23, 1, 400, 400), start=21)
    for agent, at, rec in ((21, 300, 300), (22, 300, 350), (23, 400, 400)):
        facts = facts.replace(f"event({agent},1,{at},{rec},0)", f"event({agent},1,{at},{rec},7)")
    assert touched(prepare(facts)) == {21, 22}


def test_an_agent_on_a_mention_channel_is_no_claim_and_is_passed_over() -> None:
    facts = "channel(2). mention(2). " + BASE
    facts += chain((21, 1, 200, 200), (22, 2, 300, 300), (23, 1, 400, 150), start=21)
    facts = facts.replace("event(22,2,300,300,0)", "event(22,2,300,300,7)")
    # 23 was recorded before the closer 21 (rec 150 < 200): the walk goes on to it past 22
    assert touched(prepare(facts)) == {21, 23}


KIND = (
    "channel(1). work(1). actor(0). expectation(10). opened_by(10,5). "
    "event(5,1,100,100,0). next_kind(10,81). "
)


def kinds(*events: tuple[int, int, int], start: int | None = None, extra: str = "") -> set[int]:
    facts = KIND + extra
    facts += " ".join(f"event({e},1,{at},{rec},0). event_kind({e},81)." for e, at, rec in events)
    facts += " ".join(f" kind_next(81,{a[0]},{b[0]})." for a, b in pairwise(events))
    if start is not None:
        facts += f" kind_from(10,81,{start})."
    return {int(a[len("kind_after(10,") : -1]) for a in prepare(facts).named("kind_after")}


def test_before_next_kind_keeps_the_events_that_can_be_the_earliest_visible() -> None:
    assert kinds((31, 300, 300), (32, 400, 400), start=31) == {31}
    assert kinds((31, 300, 900), (32, 400, 500), (33, 500, 600), start=31) == {31, 32}
    # any event of the kind bounds, whatever its outcome
    assert kinds((31, 300, 300), (32, 400, 400), start=31, extra="outcome(31,failed). ") == {31}
    # an index that does not check out: every event of the kind after the opening
    assert kinds((30, 50, 50), (31, 300, 300), (32, 400, 400), start=30) == {31, 32}


def agents(facts: str, *ids: int) -> str:
    """The events ``ids`` by the agent 7 instead of actor 0."""
    for ident in ids:
        head = f"event({ident},"
        at = facts.index(head)
        end = facts.index(")", at)
        facts = facts[: end - 1] + "7" + facts[end:]
    return facts


def test_the_walk_reaches_claims_a_closer_would_pass_over() -> None:
    # 20 closes early (M = 150); the claims after it are reached through csmin/3 alone
    last_claim = chain((20, 1, 150, 150), (21, 1, 200, 900), (22, 1, 300, 500), start=20)
    assert touched(prepare(BASE + agents(last_claim, 21, 22))) == {20, 21, 22}
    # a non-claim between them (not kept) does not stop the walk
    between = chain((20, 1, 150, 150), (21, 1, 200, 800), (22, 1, 300, 500), start=20)
    assert touched(prepare(BASE + agents(between, 22))) == {20, 22}
    # a claim recorded after an earlier one is passed over, the walk goes on to a later one
    passed = chain((20, 1, 150, 150), (21, 1, 200, 500), (22, 1, 300, 600), (23, 1, 400, 450))
    passed += " touch_from(10,80,20)."
    assert touched(prepare(BASE + agents(passed, 21, 22, 23))) == {20, 21, 23}


def test_claims_tied_in_time_after_an_early_closer_are_all_kept() -> None:
    hits = chain(
        (20, 1, 150, 150),
        (21, 1, 300, 300),
        (22, 1, 300, 350),
        (23, 1, 300, 360),
        (24, 1, 400, 400),
        start=20,
    )
    assert touched(prepare(BASE + agents(hits, 21, 22, 23, 24))) == {20, 21, 22, 23}
