"""rules/prepare/roles.lp: channel roles, agents, principals, authority, markers spreading."""

from __future__ import annotations

from tests.rules.harness import prepare


def test_sessions_is_a_mention_channel_unless_declared_work() -> None:
    a = prepare("channel(1). channel(2). sessions_channel(2).")
    assert a.has("work(1)") and a.has("mention(2)") and not a.has("work(2)")
    b = prepare("channel(2). sessions_channel(2). declared_role(2,work).")
    assert b.has("work(2)") and not b.has("mention(2)")


def test_a_declared_mention_channel() -> None:
    a = prepare("channel(3). declared_role(3,mention).")
    assert a.has("mention(3)") and not a.has("work(3)")


def test_principals_own_then_task_then_declared() -> None:
    facts = "actor(1). actor(2). actor(3). actor_role(3,principal). expectation(10). task(20). "
    own = prepare(facts + "part_of(10,20). principal(10,1). principal(20,2).")
    assert own.named("principal_of") == {"principal_of(10,1)"}
    task = prepare(facts + "part_of(10,20). principal(20,2).")
    assert task.named("principal_of") == {"principal_of(10,2)"}
    declared = prepare(facts)
    assert declared.named("principal_of") == {"principal_of(10,3)"}
    assert declared.has("has_principals(10)")


def test_authority_is_the_principals_else_any_non_agent() -> None:
    facts = "actor(0). actor(1). actor(2). actor(3). actor_role(2,agent). expectation(10). "
    facts += "channel(1). opening(10,100,100). "
    # Actors 0, 1 and 2 each cancel expectation 10; actor 3 never names it.
    facts += "".join(
        f"event({e},1,200,200,{a}). marker({e},cancels,10). " for e, a in ((5, 0), (6, 1), (7, 2))
    )
    free = prepare(facts)
    assert not free.has("authority(10,3)"), "asked only of the actors whose markers name it"
    assert free.has("authority(10,0)") and free.has("authority(10,1)")
    assert not free.has("authority(10,2)") and free.has("agent(2)")
    named = prepare(facts + "principal(10,1).")
    assert named.named("authority") == {"authority(10,1)"}
    agent_principal = prepare(facts + "principal(10,2).")
    assert agent_principal.named("authority") == set()


def test_actor_patterns_give_roles_unless_declared_plainly() -> None:
    facts = "actor(1). actor(2). pattern_role(50,agent). pattern_match(50,1). pattern_match(50,2). "
    a = prepare(facts + "actor_role(2,principal).")
    assert a.has("agent(1)") and not a.has("agent(2)") and a.has("declared_principal(2)")
    assert a.shows("pattern_applies(50,1)") and not a.has("pattern_applies(50,2)")
    b = prepare("actor(1). pattern_role(51,principal). pattern_match(51,1).")
    assert b.has("declared_principal(1)")


def test_markers_naming_a_task_spread_except_completes() -> None:
    facts = "expectation(10). task(20). part_of(10,20). "
    a = prepare(facts + "marker(5,waives,20). marker(6,completes,20). marker(7,cancels,10).")
    assert a.has("names(5,waives,10)") and not a.has("names(6,completes,10)")
    assert a.has("names(7,cancels,10)")


def test_each_actor_acts_in_one_role_agent_winning_and_plain_declarations_first() -> None:
    facts = (
        "actor(1). actor(2). actor(3). actor(4). "
        "pattern_role(50,agent). pattern_role(51,principal). "
        "pattern_match(50,1). pattern_match(50,2). pattern_match(51,3). pattern_match(51,1). "
        "actor_role(2,principal). actor_role(4,agent). "
    )
    a = prepare(facts)
    assert a.named("acts_as") == {
        "acts_as(1,agent)",  # two patterns disagree: agent wins
        "acts_as(2,principal)",  # declared plainly: the pattern does not apply
        "acts_as(3,principal)",
        "acts_as(4,agent)",
    }
    assert a.shows("acts_as(1,agent)") and a.shows("acts_as(3,principal)")
    assert not a.has("declared_principal(1)") and a.has("declared_principal(3)")


def test_an_agents_event_off_an_authoritative_channel_is_a_claim() -> None:
    """SPEC 3: an agent's own word is a claim; on an authoritative channel (a system of record)
    an event counts by what it records, whoever `by` is; patterns count as declarations."""
    a = prepare(
        "channel(1). channel(4). authoritative(4). actor(3). actor_role(3,agent). actor(5). "
        "actor_role(5,principal). actor(6). pattern_role(9,agent). pattern_match(9,6). "
        "event(7,1,200,200,3). event(8,4,200,200,3). event(11,1,200,200,5). "
        "event(12,1,200,200,6). event(13,1,200,200,0)."
    )
    assert a.named("agent_claim_event") == {"agent_claim_event(7)", "agent_claim_event(12)"}
