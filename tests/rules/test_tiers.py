"""rules/prepare/tiers.lp: the tier each candidate reaches, and whether `verify` accepts it."""

from __future__ import annotations

from tests.rules.harness import prepare

#: X (10) opens at 100 and wants key 30 = 31; actor 3 is an agent; channel 4 authoritative.
BASE = (
    "channel(1). channel(4). authoritative(4). actor(0). actor(3). actor_role(3,agent). "
    "expectation(10). opened_time(10,100). want(10,30,31). "
)


def _event(e: int, channel: int = 1, actor: int = 0) -> str:
    return f"event({e},{channel},200,200,{actor}). "


def test_state_when_the_wanted_value_is_set() -> None:
    a = prepare(BASE + _event(6) + "sets(6,30,31).")
    assert a.has("reaches(10,6,state)") and a.has("best_tier(10,6,state,1)")
    assert a.has("sets_wanted(10,6)")


def test_another_value_contradicts_and_reaches_nothing() -> None:
    a = prepare(BASE + _event(6) + "sets(6,30,32). marker(6,completes,10).")
    assert a.has("contradicts(10,6)") and a.named("reaches") == set()


def test_explicit_from_a_non_agent_or_an_authoritative_channel() -> None:
    a = prepare(
        BASE
        + _event(6)
        + "marker(6,completes,10). "
        + _event(7, 4, 3)
        + "marker(7,completes,10). "
        + _event(8, 1, 3)
        + "marker(8,completes,10)."
    )
    assert a.has("reaches(10,6,explicit)") and a.has("reaches(10,7,explicit)")
    assert not a.has("reaches(10,8,explicit)") and a.has("reaches(10,8,textual)")
    assert a.has("agent_event(8)") and a.has("auth_channel_event(7)")


def test_semantic_needs_a_strong_link_that_names_the_value() -> None:
    a = prepare(
        BASE
        + _event(6)
        + "overlap(10,6,1,2,3). names_value(10,6). "
        + _event(7)
        + "overlap(10,7,1,2,3). "
        + _event(8)
        + "phrase_hit(10,8). names_value(10,8). "
        + _event(9)
        + "overlap(10,9,2,1,1). names_value(10,9). "
        + _event(11)
        + "overlap(10,11,1,2,4). names_value(10,11)."
    )
    assert a.has("reaches(10,6,semantic)") and a.has("reaches(10,8,semantic)")
    assert not a.has("reaches(10,7,semantic)") and a.has("strong(10,7)")
    assert not a.has("strong(10,9)"), "one shared word is never strong"
    assert not a.has("strong(10,11)"), "half of the words is not more than half"


def test_without_a_want_a_strong_link_is_enough() -> None:
    facts = "channel(1). actor(0). expectation(10). opened_time(10,100). "
    a = prepare(facts + _event(6) + "overlap(10,6,1,2,2).")
    assert a.has("reaches(10,6,semantic)") and a.has("value_named(10,6)")


def test_merges_and_restatements_never_link_strongly() -> None:
    a = prepare(
        BASE
        + _event(6)
        + "overlap(10,6,1,2,2). names_value(10,6). merge_kind(6). "
        + _event(7)
        + "overlap(10,7,2,2,2). names_value(10,7). covered(10,7,3,3)."
        + _event(8)
        + "overlap(10,8,2,2,2). names_value(10,8). covered(10,8,2,3)."
    )
    assert a.has("restates(10,6)") and not a.has("strong(10,6)")
    assert a.has("restatement(10,7)") and not a.has("strong(10,7)")
    assert a.has("strong(10,8)")


def test_textual_a_done_claim_in_a_linked_text_or_naming_the_id() -> None:
    a = prepare(
        BASE
        + _event(6)
        + "overlap(10,6,1,2,5). done_cue(6). "
        + _event(7)
        + "names_id(10,7). done_cue(7). "
        + _event(8)
        + "overlap(10,8,1,2,5)."
    )
    assert a.has("reaches(10,6,textual)") and a.has("reaches(10,7,textual)")
    assert not a.has("reaches(10,8,textual)") and a.has("rejection(10,8,no_done_cue)")


def test_a_done_claim_sharing_one_word_reaches_no_tier() -> None:
    """SPEC 3: the done-style claim needs a text that links (two shared words, the id or a
    phrase): one shared word and a done word are no claim about it."""
    a = prepare(BASE + _event(6) + "overlap(10,6,1,1,5). overlap(10,6,2,1,3). done_cue(6).")
    assert a.named("reaches") == set() and not a.has("below_verify(10,6,textual)")


def test_a_marked_event_reaches_no_tier_by_its_text() -> None:
    """Markers outrank text: `Cancels: X` in a text that names X's words and value cancels
    (transitions.lp), it does not also satisfy by text."""
    a = prepare(
        BASE + _event(6) + "marker(6,cancels,10). overlap(10,6,1,3,3). names_value(10,6). "
        "done_cue(6). phrase_hit(10,6)."
    )
    assert a.named("reaches") == set() and not a.has("strong(10,6)")
    assert a.has("close(10,6,cancelled,none,6)")
    assert not any(atom.startswith("close(10,6,satisfied") for atom in a.named("close"))


def test_verify_sets_the_weakest_tier_accepted_default_semantic() -> None:
    text = _event(6) + "overlap(10,6,1,2,5). done_cue(6). " + _event(7) + "sets(7,30,31). "
    default = prepare(BASE + text)
    assert default.shows("verify_tier(10,semantic)")
    assert default.has("below_verify(10,6,textual)") and default.has("accepted(10,7,state)")
    lax = prepare(BASE + text + "verify(10,textual).")
    assert lax.has("accepted(10,6,textual)") and lax.shows("verify_tier(10,textual)")
    strict = prepare(
        BASE + text.replace("sets(7,30,31)", "marker(7,completes,10)") + "verify(10,state)."
    )
    assert strict.has("below_verify(10,7,explicit)") and strict.has("verify_rank(10,1)")


def test_an_agents_own_record_reaches_textual_at_most() -> None:
    """SPEC 3: whatever an agent's event sets or says off an authoritative channel, it is a
    claim: tier textual, below the default `verify`; on an authoritative channel it counts."""
    a = prepare(
        BASE
        + _event(6, 1, 3)
        + "sets(6,30,31). "
        + _event(7, 1, 3)
        + "overlap(10,7,1,3,3). names_value(10,7). "
        + _event(8, 4, 3)
        + "sets(8,30,31). "
        + _event(9, 1, 3)
        + "overlap(10,9,1,2,5). done_cue(9)."
    )
    assert a.has("reaches(10,6,state)"), "the record itself is measured as it is"
    assert a.has("best_tier(10,6,textual,4)") and a.has("below_verify(10,6,textual)")
    assert a.has("agent_claim(10,6,state)") and not a.has("accepted(10,6,state)")
    assert a.has("best_tier(10,7,textual,4)") and a.has("agent_claim(10,7,semantic)")
    assert a.has("accepted(10,8,state)") and not a.has("agent_claim(10,8,state)")
    # already textual: nothing was capped, no agent_claim
    assert a.has("best_tier(10,9,textual,4)") and not a.named("agent_claim(10,9")
    lax = prepare(BASE + _event(6, 1, 3) + "sets(6,30,31). verify(10,textual).")
    assert lax.has("accepted(10,6,textual)")


def test_a_capped_claim_still_contradicts() -> None:
    """An agent's event that sets another value is no claim of anything, but contradicts."""
    a = prepare(BASE + _event(6, 1, 3) + "sets(6,30,32).")
    assert a.has("contradicts(10,6)") and not a.named("best_tier")
