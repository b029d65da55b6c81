"""rules/standpoint/key_reasons.lp and the nearness chain of rules/query/explain.lp.

Which reasons are key (SPEC §4: the opening, the decisive transition or, for a verdict not
closed, the nearest rejected candidate, proposals, gaps, unconfirmed effects, reopenings) and
which rejected candidates come next nearest, for a concise explanation.
"""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = "expectation(10). opening(10,100,100). opener(10,5). evt(5,100,100,0). work(1). "


def _rejected(event: int, at: int, why: str = "no_done_cue") -> str:
    return f"evt({event},{at},{at},0). rejection(10,{event},{why}). cand_channel(10,{event},1). "


REJECTED = (
    _rejected(6, 200)
    + _rejected(7, 300)
    + _rejected(8, 400, "no_link")
    + "cnext(10,6,7). cnext(10,7,8). "
)


def test_an_open_verdict_keys_its_opening_and_nearest_rejected_candidate() -> None:
    a = standpoint(BASE + REJECTED, now=500)
    assert a.shows("reason_is_key(10,opened,5,event)")
    assert a.shows("reason_is_key(10,candidate_rejected,8,no_link)")
    assert a.shows("reason(10,candidate_rejected,6,no_done_cue)")
    assert not a.shows("reason_is_key(10,candidate_rejected,6,no_done_cue)")
    assert not a.shows("reason_is_key(10,candidate_rejected,7,no_done_cue)")
    assert not a.shows("nearest(10,satisfied,8)"), "nearest/3 is shown for explained items only"
    earlier = standpoint(BASE + REJECTED, now=350)
    assert earlier.shows("reason_is_key(10,candidate_rejected,7,no_done_cue)")


def test_a_closed_verdict_keys_the_close_not_the_nearest() -> None:
    facts = (
        BASE
        + REJECTED
        + (
            "evt(9,450,450,0). close(10,9,satisfied,state,1). "
            "cand_channel(10,9,1). cnext(10,8,9). "
            "evt(11,470,470,0). reopen(10,11,marker). inext(10,450,470). "
            "evt(12,480,480,0). close(10,12,cancelled,none,6). inext(10,470,480). "
        )
    )
    a = standpoint(facts, now=500)
    assert a.shows("status(10,cancelled)")
    assert a.shows("reason_is_key(10,reopened,11,marker)")
    assert not a.shows("reason_is_key(10,candidate_rejected,8,no_link)")
    assert not a.named("near_scope")
    # A close that came too late is a rejection naming the event that closed first.
    late = BASE + (
        "evt(9,450,450,0). close(10,9,satisfied,state,1). evt(12,480,480,0). "
        "close(10,12,cancelled,none,6). inext(10,450,480)."
    )
    b = standpoint(late, now=500)
    assert b.shows("reason(10,candidate_rejected,12,already_closed)")
    assert not b.shows("reason_is_key(10,candidate_rejected,12,already_closed)")
    assert b.shows("closed_by(10,9)")


def test_the_closing_event_s_own_reasons_are_key() -> None:
    facts = BASE + (
        "evt(9,450,450,0). close(10,9,satisfied,state,1). below_verify(10,9,textual). "
        "rejection(10,9,below_verify). cand_channel(10,9,1). "
        "evt(13,460,460,0). below_verify(10,13,textual). "
        "rejection(10,13,below_verify). cand_channel(10,13,1). "
    )
    a = standpoint(facts, now=500)
    assert a.shows("reason_is_key(10,below_verify,9,textual)")
    assert not a.shows("reason_is_key(10,below_verify,13,textual)")


def test_proposals_gaps_unconfirmed_effects_unsearched_and_snapshots_are_key() -> None:
    facts = BASE + (
        "evt(7,200,200,2). proposal(10,7,cancels). rejection(10,7,proposal). "
        "cand_channel(10,7,1). "
        "evt(9,210,210,0). unconfirmed(10,9,state). "
        "rejection(10,9,unconfirmed_effect). cand_channel(10,9,1). "
        "declared_channel(1). declared_channel(2). work(2). tblock(1,1,50,300,50,300). "
        "sblock(1,1,1,1,50,50,50,50,50). sblock(1,2,3,3,300,300,300,300,300). "
        "sblock_next(1,1,2). "
    )
    a = standpoint(facts, now=400)
    for atom in (
        "reason_is_key(10,proposal,7,cancels)",
        "reason_is_key(10,unconfirmed_effect,9,state)",
        "reason_is_key(10,gap,0,gap(1,2,2))",
        "reason_is_key(10,unsearched,0,channel(2))",
    ):
        assert a.shows(atom), atom
    snapshot = standpoint(BASE + "want(10,30,31). snapshot_state(30,32).", now=400)
    keyed = {s for s in snapshot.shown if s.startswith("reason_is_key(10,snapshot")}
    assert keyed and len(keyed) == len(
        {s for s in snapshot.shown if s.startswith("reason(10,snapshot")}
    )


def test_without_reasons_nothing_is_key_but_the_opening() -> None:
    a = standpoint(BASE, now=500)
    assert a.named("reason_is_key") == {"reason_is_key(10,opened,5,event)"}
    assert not a.named("missed")


def test_nearer_walks_the_pool_back_from_the_nearest() -> None:
    facts = (
        BASE
        + REJECTED
        + (
            "evt(9,350,350,0). close(10,9,satisfied,state,1). cand_channel(10,9,1). "
            "cnext(10,7,9). cnext(10,9,8). explain_target(10). "
        )
    )
    # 7 at 300, 9 at 350 (closed it), 8 at 400: the pool skips the close that took effect.
    facts = facts.replace("cnext(10,7,8). ", "")
    a = standpoint(facts, now=500)
    assert {n for n in a.named("nearest") if ",satisfied," in n} == {"nearest(10,satisfied,8)"}
    assert a.shows("nearer(10,7,8)") and a.shows("nearer(10,6,7)")
    assert not a.named("nearer") - {"nearer(10,7,8)", "nearer(10,6,7)"}
    plain = standpoint(BASE + REJECTED, now=500)
    assert not plain.named("nearer"), "only explained items are ranked"


def test_key_reasons_only_shows_a_count_instead_of_every_reason() -> None:
    asked = standpoint(BASE + REJECTED + "key_reasons_only. ", now=500)
    # opened, and three rejected candidates: four reasons in all, two of them key.
    assert asked.shows("reason_count(10,4)")
    assert asked.shows("reason_is_key(10,opened,5,event)")
    assert asked.shows("reason_is_key(10,candidate_rejected,8,no_link)")
    shown = {a.split("(")[0] for a in asked.shown}
    assert "reason" not in shown, "every reason/4 is left out of the answer"
    assert "examined" not in shown
    earlier = standpoint(BASE + REJECTED + "key_reasons_only. ", now=250)
    assert earlier.shows("reason_count(10,2)"), "only the visible candidates are counted"
    plain = standpoint(BASE + REJECTED, now=500)
    assert not plain.named("reason_count"), "without the query fact every reason is shown"
    assert plain.shows("examined(10,6)")
    assert plain.shows("reason(10,candidate_rejected,6,no_done_cue)")


def test_key_reasons_only_still_shows_every_reason_of_an_explained_item() -> None:
    other = "expectation(20). opening(20,100,100). opener(20,5). " + (
        "evt(9,300,300,0). rejection(20,9,no_link). cand_channel(20,9,1). "
    )
    asked = standpoint(BASE + REJECTED + other + "key_reasons_only. explain_target(10). ", now=500)
    assert asked.shows("whole_reasons(10)") and not asked.shows("whole_reasons(20)")
    assert asked.shows("reason(10,candidate_rejected,6,no_done_cue)")
    assert asked.shows("examined(10,6)")
    assert not asked.named("reason_count") - {"reason_count(20,2)"}, "a count for the others"
    assert asked.shows("reason_count(20,2)")
    assert not asked.shows("reason(20,candidate_rejected,9,no_link)")
    assert not asked.shows("examined(20,9)")
    plain = standpoint(BASE + REJECTED + other + "explain_target(10). ", now=500)
    assert plain.has("whole_reasons(20)"), "without key_reasons_only every item's are whole"
    assert not {a for a in plain.shown if a.startswith("whole_reasons(")}, "shown only then"
    assert plain.shows("reason(20,candidate_rejected,9,no_link)")
