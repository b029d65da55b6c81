"""rules/query/explain.lp: what an explanation reads, for the items a query explains."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = (
    "expectation(10). opening(10,100,100). opener(10,5). evt(5,100,100,0). work(1). "
    "want(10,30,31). principal_of(10,1). opened_by_source(10,10). "
)


def test_nothing_is_explained_unless_asked() -> None:
    a = standpoint(BASE)
    assert not a.named("explained") and not a.named("key_reason")
    assert standpoint(BASE + "explain_all.").has("explained(10)")
    asked = standpoint(BASE + "explain_target(10).")
    assert asked.shows("explained(10)") and asked.shows("principal_of(10,1)")
    assert asked.shows("opened_by_source(10,10)")


def test_hidden_and_missing_openings() -> None:
    facts = "expectation(10). opening(10,100,300). expectation(11). explain_all."
    a = standpoint(facts, now=200)
    assert a.shows("opening_hidden(10,unrecorded)") and a.shows("no_opening(11)")
    assert standpoint(facts, now=50, known=400).shows("opening_hidden(10,not_yet)")
    assert a.shows("key_reason(11,not_opened,0)")
    named = standpoint("expectation(10). opening(10,300,300). opener(10,5). explain_all.", now=200)
    assert named.shows("key_reason(10,not_opened,5)")


def test_ties_unrecorded_transitions_and_links() -> None:
    facts = BASE + (
        "evt(6,200,200,0). close(10,6,satisfied,state,1). evt(7,200,200,0). "
        "close(10,7,cancelled,none,6). evt(8,200,200,0). close(10,8,satisfied,state,1). "
        "evt(9,300,900,0). close(10,9,waived,none,7). explain_target(10). "
        "same_instant_rank(6,1). same_instant_rank(7,2). same_instant_rank(8,3). "
        "evt(11,250,250,0). rejection(10,11,no_done_cue). "
        "cand_channel(10,11,1). "
        "phrase_hit(10,11). names_value(10,11). names_id(10,11). done_cue(11). "
        "overlap(10,11,1,1,4). "
    )
    a = standpoint(facts, now=400)
    assert a.shows("tie(10,200,6,7,stronger)") and a.shows("tie(10,200,6,8,lower_id)")
    assert a.shows("unrecorded(10,9)")
    assert {f"link(10,11,{k})" for k in ("phrase", "value", "id", "done_cue")} <= a.shown
    assert a.shows("link_overlap(10,11,1,1,4)")
    assert a.shows("key_reason(10,closed,6)")


def test_an_agents_claim_is_shown_for_an_examined_touch_of_an_explained_item() -> None:
    facts = BASE + (
        "evt(6,200,200,3). rejection(10,6,below_verify). agent_claim(10,6,state). "
        "evt(7,900,900,3). rejection(10,7,below_verify). agent_claim(10,7,state). "
    )
    a = standpoint(facts + "explain_target(10).", now=400)
    assert a.shows("agent_claim(10,6,state)") and not a.shows("agent_claim(10,7,state)")
    assert not standpoint(facts, now=400).shows("agent_claim(10,6,state)")


def test_bound_sources() -> None:
    facts = BASE + "deadline(10,500). before(10,9). evt(9,400,400,0). explain_target(10)."
    a = standpoint(facts, now=450)
    assert a.shows("bound_from(10,before,9)") and not a.shows("bound_from(10,deadline,0)")
    b = standpoint(facts, now=350)
    assert b.shows("bound_from(10,deadline,0)") and b.shows("bound_pending(10,9)")


def test_precondition_unmet_names_what_was_not_closed() -> None:
    facts = (
        BASE + "expectation(11). opening(11,100,100). requires(10,11). evt(6,200,200,0). "
        "close(10,6,satisfied,state,1). evt(7,300,300,0). close(11,7,satisfied,state,1). "
        "task(20). expectation(12). opening(12,100,100). part_of(12,20). requires(10,20). "
        "explain_target(10)."
    )
    a = standpoint(facts, now=400)
    assert a.shows("unmet_by(10,11,11)") and a.shows("unmet_by(10,20,12)")


def _candidates(*rows: str) -> str:
    return "".join(rows)


def test_the_nearest_candidate_for_each_status() -> None:
    facts = BASE + (
        "evt(6,200,200,0). rejection(10,6,no_done_cue). "
        "cand_channel(10,6,1). "
        "evt(7,300,300,0). rejection(10,7,no_link). "
        "cand_channel(10,7,1). "
        "evt(8,250,250,2). proposal(10,8,cancels). rejection(10,8,proposal). "
        "cand_channel(10,8,1). "
        "evt(9,260,260,0). below_verify(10,9,textual). rejection(10,9,below_verify). "
        "cand_channel(10,9,1). "
        "evt(11,270,270,0). unconfirmed(10,11,state). "
        "rejection(10,11,unconfirmed_effect). "
        "cand_channel(10,11,1). "
        "evt(12,280,280,0). rejection(10,12,other_state). "
        "cand_channel(10,12,1). "
        "cnext(10,6,8). cnext(10,8,9). cnext(10,9,11). cnext(10,11,12). cnext(10,12,7). "
        "explain_target(10)."
    )
    a = standpoint(facts, now=400)
    assert a.shows("nearest(10,satisfied,7)") and a.shows("nearest(10,cancelled,8)")
    assert a.shows("nearest(10,superseded,12)") and a.shows("nearest(10,waived,7)")
    assert a.named("nearest") >= {"nearest(10,open,7)"}
    early = standpoint(facts, now=265)
    assert early.shows("nearest(10,satisfied,9)") and early.shows("key_reason(10,nearest,9)")


def test_nearest_for_a_close_that_took_no_effect_and_a_reopen() -> None:
    facts = BASE + (
        "evt(6,200,200,0). close(10,6,cancelled,none,6). cand_channel(10,6,1). "
        "evt(7,300,300,0). close(10,7,superseded,none,5). cand_channel(10,7,1). "
        "evt(8,350,350,0). reopen(10,8,contradiction). cand_channel(10,8,1). "
        "inext(10,200,300). inext(10,300,350). cnext(10,6,7). cnext(10,7,8). explain_target(10)."
    )
    a = standpoint(facts, now=400)
    assert a.shows("nearest(10,superseded,7)") and a.shows("nearest(10,open,8)")


def test_key_reasons_of_open_and_unknown_verdicts() -> None:
    reopened = BASE + (
        "evt(6,200,200,0). close(10,6,satisfied,state,1). evt(7,300,300,0). reopen(10,7,marker). "
        "inext(10,200,300). explain_target(10)."
    )
    assert standpoint(reopened, now=400).shows("key_reason(10,reopened,7)")
    assert standpoint(BASE + "explain_target(10).").shows("key_reason(10,no_candidate,0)")
    gap = BASE + "explain_target(10). unknown_because(10,gap)."
    assert standpoint(gap).shows("key_reason(10,gap,0)")
    effect = (
        BASE + "explain_target(10). evt(6,200,200,0). unconfirmed(10,6,state). "
        "rejection(10,6,unconfirmed_effect)."
    )
    b = standpoint(effect, now=400)
    assert b.shows("key_reason(10,unconfirmed_effect,6)") and b.shows("status(10,unknown)")


def test_why_not_answers() -> None:
    open_x = BASE + "explain_target(10). "
    assert standpoint(open_x + "why_not_status(open).").shows("why_not(10,open,already,0)")
    no = standpoint(open_x + "why_not_status(cancelled).")
    assert no.shows("why_not(10,cancelled,no_transition,0)")
    unknown = standpoint(open_x + "why_not_status(unknown).")
    assert unknown.shows("why_not(10,unknown,no_doubt,0)")
    opened = standpoint(open_x + "why_not_status(not_opened).")
    assert opened.shows("why_not(10,not_opened,opened,5)")
    oracle = standpoint(
        "expectation(10). opening(10,100,100). explain_all. why_not_status(not_opened)."
    )
    assert oracle.shows("why_not(10,not_opened,opened,0)")
    hidden = standpoint(
        "expectation(10). opening(10,900,900). explain_all. why_not_status(open).", now=500
    )
    assert hidden.shows("why_not(10,open,not_opened,0)")
    closed = open_x + "evt(6,200,200,0). close(10,6,cancelled,none,6). "
    c = standpoint(closed + "why_not_status(satisfied).", now=400)
    assert c.shows("why_not(10,satisfied,closed_first,6)")
    assert standpoint(closed + "why_not_status(open).", now=400).shows("why_not(10,open,closed,6)")
    assert standpoint(closed + "why_not_status(unknown).", now=400).shows(
        "why_not(10,unknown,closed,6)"
    )
    gap = standpoint(open_x + "unknown_because(10,gap). why_not_status(open).")
    assert gap.shows("why_not(10,open,unknown_because,0)")


def test_why_not_a_close_that_was_undone_unseen_or_later() -> None:
    undone = BASE + (
        "evt(6,200,200,0). close(10,6,cancelled,none,6). evt(7,300,300,0). reopen(10,7,marker). "
        "inext(10,200,300). explain_target(10). why_not_status(cancelled)."
    )
    assert standpoint(undone, now=400).shows("why_not(10,cancelled,undone_by,7)")
    unseen = BASE + (
        "evt(6,200,900,0). close(10,6,waived,none,7). evt(8,300,950,0). close(10,8,waived,none,7). "
        "explain_target(10). why_not_status(waived)."
    )
    assert standpoint(unseen, now=400).shows("why_not(10,waived,unrecorded,6)")
    later = BASE + (
        "evt(6,600,600,0). close(10,6,waived,none,7). evt(7,500,500,0). close(10,7,waived,none,7). "
        "evt(8,500,500,0). close(10,8,waived,none,7). explain_target(10). why_not_status(waived). "
        "same_instant_rank(7,1). same_instant_rank(8,2)."
    )
    assert standpoint(later, now=400).named("why_not") >= {"why_not(10,waived,later,7)"}
    assert not standpoint(later, now=400).shows("why_not(10,waived,later,6)")


def test_task_because_names_the_obligations_that_decide() -> None:
    facts = (
        "task(20). expectation(10). opening(10,100,100). part_of(10,20). expectation(11). "
        "opening(11,100,100). part_of(11,20). unknown_because(11,gap). explain_target(20). "
    )
    a = standpoint(facts)
    assert a.shows("explained_task(20)") and a.named("task_because") == {"task_because(20,10)"}
    done = facts + "evt(6,200,200,0). close(10,6,satisfied,state,1)."
    assert standpoint(done).named("task_because") == {"task_because(20,11)"}
    assert standpoint(done.replace("explain_target(20)", "explain_all")).has("explained_task(20)")


def test_authority_is_shown_for_seen_candidates() -> None:
    facts = BASE + (
        "evt(8,250,250,2). proposal(10,8,cancels). rejection(10,8,proposal). "
        "explain_authority(10,8,cancels,not_principal). explain_target(10)."
    )
    assert standpoint(facts, now=400).shows("explain_authority(10,8,cancels,not_principal)")


def test_what_an_explanation_says_of_reopens_and_unconfirmed_effects() -> None:
    reopened = BASE + (
        "evt(6,200,200,0). close(10,6,satisfied,state,1). cand_channel(10,6,1). "
        "evt(7,300,300,0). reopen(10,7,marker). cand_channel(10,7,1). "
        "cnext(10,6,7). inext(10,200,300). explain_target(10)."
    )
    a = standpoint(reopened, now=400)
    assert a.named("key_reason") == {"key_reason(10,reopened,7)"}, "the reopen is the reason"
    assert not a.named("nearest"), "a reopen that took effect is no near miss"
    unseen = reopened.replace("evt(7,300,300,0)", "evt(7,300,900,0)")
    assert standpoint(unseen, now=400).shows("unrecorded(10,7)")
    missed = BASE + (
        "evt(6,200,200,0). close(10,6,cancelled,none,6). cand_channel(10,6,1). "
        "evt(8,350,350,0). reopen(10,8,contradiction). cand_channel(10,8,1). "
        "evt(9,360,360,0). rejection(10,9,no_link). "
        "cand_channel(10,9,1). "
        "inext(10,200,350). cnext(10,6,8). cnext(10,8,9). explain_target(10)."
    )
    assert standpoint(missed, now=400).shows("nearest(10,open,8)"), "only 8 bears on open"


def test_an_unconfirmed_effect_is_the_nearest_satisfying_candidate() -> None:
    facts = BASE + (
        "evt(9,260,260,0). below_verify(10,9,textual). rejection(10,9,below_verify). "
        "cand_channel(10,9,1). "
        "evt(11,270,270,0). unconfirmed(10,11,state). "
        "rejection(10,11,unconfirmed_effect). cand_channel(10,11,1). "
        "cnext(10,9,11). explain_target(10)."
    )
    assert standpoint(facts, now=300).shows("nearest(10,satisfied,11)")


def test_an_opening_is_not_missing_and_task_because_is_shown() -> None:
    a = standpoint("expectation(10). opening(10,100,300). explain_all.", now=200)
    assert a.shows("opening_hidden(10,unrecorded)") and not a.shows("no_opening(10)")
    facts = "task(20). expectation(10). opening(10,100,100). part_of(10,20). explain_target(20). "
    assert standpoint(facts).shows("task_because(20,10)")


def test_ties_among_candidates_follow_the_rank_of_the_id_not_the_event_number() -> None:
    # Events 6, 7 and 8 share instant 200, and their ids sort 8, 6, 7 (same_instant_rank).
    head = BASE + "same_instant_rank(8,1). same_instant_rank(6,2). same_instant_rank(7,3). "
    closes = head + (
        "evt(6,200,200,0). close(10,6,satisfied,state,1). evt(7,200,200,0). "
        "close(10,7,satisfied,state,1). evt(8,200,200,0). close(10,8,satisfied,state,1). "
        "explain_target(10)."
    )
    a = standpoint(closes, now=400)
    assert a.named("tie") == {"tie(10,200,8,6,lower_id)", "tie(10,200,8,7,lower_id)"}
    assert a.shows("key_reason(10,closed,8)")
    later = head + (
        "evt(6,500,500,0). close(10,6,waived,none,7). evt(7,500,500,0). close(10,7,waived,none,7). "
        "evt(8,500,500,0). close(10,8,waived,none,7). evt(9,450,450,0). "
        "close(10,9,cancelled,none,6). explain_target(10). why_not_status(waived)."
    )
    b = standpoint(later, now=400)
    assert {w for w in b.named("why_not") if ",later," in w} == {"why_not(10,waived,later,8)"}
    # A later close alone at its instant needs no rank.
    alone = later.replace("why_not_status(waived)", "why_not_status(cancelled)")
    found = standpoint(alone, now=400).named("why_not")
    assert {w for w in found if ",later," in w} == {"why_not(10,cancelled,later,9)"}
    missed = head + (
        "evt(6,300,300,0). rejection(10,6,no_link). cand_channel(10,6,1). "
        "evt(7,300,300,0). rejection(10,7,no_link). cand_channel(10,7,1). "
        "evt(8,300,300,0). rejection(10,8,no_link). cand_channel(10,8,1). "
        "evt(9,250,250,0). rejection(10,9,no_link). cand_channel(10,9,1). explain_target(10)."
    )
    assert standpoint(missed, now=400).shows("nearest(10,satisfied,7)"), "the highest rank"
    assert standpoint(missed, now=280).shows("nearest(10,satisfied,9)"), "alone at its instant"
