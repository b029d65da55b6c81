"""The core semantics of SPEC §3, one rule at a time, on small histories.

Each test states the rule it guards; removing that rule from ``rules/*.lp`` makes it fail.
"""

from __future__ import annotations

import pytest

from tests.helpers import resolve_text, verdict

BASE = """
expectation x {
  title "Move backups to PostgreSQL"
  opened_by open-1
  want backup.backend = "PostgreSQL"
}
event open-1 { channel sessions at 2024-07-17T09:00 text "backups still on sqlite" }
"""


def status_of(
    extra: str, at: str = "2024-09-01", known: str | None = None, ident: str = "x", base: str = BASE
):
    return verdict(resolve_text(base + extra, at=at, known=known), ident)


# --- visibility and opening -------------------------------------------------------------------


def test_open_when_nothing_closes():
    v = status_of("")
    assert (v.status, v.closed_by) == ("OPEN", None)


def test_not_opened_before_the_opening_event():
    assert status_of("", at="2024-07-16").status == "NOT_OPENED"


def test_opening_is_known_from_when_it_was_recorded():
    base = BASE.replace("at 2024-07-17T09:00", "at 2024-07-17T09:00 recorded 2024-07-20")
    assert status_of("", at="2024-07-18", base=base).status == "NOT_OPENED"
    assert status_of("", at="2024-07-18", known="latest", base=base).status == "OPEN"


def test_oracle_opening_time():
    base = BASE.replace("opened_by open-1", "opened 2024-07-10")
    assert status_of("", at="2024-07-09", base=base).status == "NOT_OPENED"
    assert status_of("", at="2024-07-10", base=base).status == "OPEN"


def test_event_after_the_standpoint_is_invisible():
    ev = 'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }'
    assert status_of(ev, at="2024-07-31").status == "OPEN"
    assert status_of(ev, at="2024-08-01").status == "SATISFIED"


def test_event_recorded_after_known_is_invisible():
    ev = (
        "event c1 { channel commits at 2024-08-01 recorded 2024-08-10 "
        'set backup.backend = "PostgreSQL" }'
    )
    assert status_of(ev, at="2024-08-02").status == "OPEN"
    assert status_of(ev, at="2024-08-02", known="latest").status == "SATISFIED"
    assert status_of(ev, at="2024-08-02", known="2024-08-10").status == "SATISFIED"


# --- candidacy --------------------------------------------------------------------------------


def test_mentions_never_close():
    ev = 'event s2 { channel sessions at 2024-08-01 set backup.backend = "PostgreSQL" }'
    v = status_of(ev)
    assert v.status == "OPEN"
    assert any(r.detail == "mention_channel" and r.event == "s2" for r in v.reasons)


def test_undeclared_sessions_channel_is_a_mention_channel():
    base = BASE.replace("channel sessions", "sessions")  # use preamble-less history below
    source = (
        'expectation x { opened 2024-07-01 want k = "v" }\n'
        'event s { channel sessions at 2024-08-01 set k = "v" }\n'
        'event c { channel other at 2024-08-02 set k = "v" }\n'
    )
    res = resolve_text(source, at="2024-08-01T12:00", preamble=False)
    assert verdict(res, "x").status == "OPEN"
    res = resolve_text(source, at="2024-08-03", preamble=False)
    assert verdict(res, "x").closed_by == "c"
    del base


def test_closings_must_follow_openings():
    ev = 'event c0 { channel commits at 2024-07-17T09:00 set backup.backend = "PostgreSQL" }'
    v = status_of(ev)
    assert v.status == "OPEN"
    assert any(r.detail == "before_opening" for r in v.reasons)


# --- tiers ------------------------------------------------------------------------------------


def test_state_tier():
    v = status_of('event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }')
    assert (v.status, v.closed_by, v.tier) == ("SATISFIED", "c1", "state")


def test_other_value_satisfies_at_no_tier():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "MySQL" '
        'completes x text "Move backups to PostgreSQL: done" }'
    )
    v = status_of(ev)
    assert v.status == "OPEN"
    assert any(r.detail == "wrong_value" for r in v.reasons)


def test_explicit_tier_from_non_agent_marker():
    v = status_of("event c1 { channel commits at 2024-08-01 by dev completes x }")
    assert (v.status, v.tier) == ("SATISFIED", "explicit")


def test_agent_marker_is_textual_only():
    v = status_of("event c1 { channel commits at 2024-08-01 by bot completes x }")
    assert v.status == "OPEN"
    assert "claimed_unverified" in v.flags
    base = BASE.replace("want backup", "verify textual\n want backup")
    v = status_of("event c1 { channel commits at 2024-08-01 by bot completes x }", base=base)
    assert (v.status, v.tier) == ("SATISFIED", "textual")


def test_authoritative_channel_makes_agent_marker_explicit():
    extra = (
        "channel tracker work authoritative\n"
        "event t1 { channel tracker at 2024-08-01 by bot completes x }"
    )
    v = status_of(extra)
    assert (v.status, v.tier) == ("SATISFIED", "explicit")


def test_semantic_tier_needs_strong_link_and_the_value():
    strong = 'event c1 { channel commits at 2024-08-01 text "backups moved to postgresql" }'
    v = status_of(strong)
    assert (v.status, v.tier) == ("SATISFIED", "semantic")
    weak = 'event c1 { channel commits at 2024-08-01 text "backups moved elsewhere" }'
    v = status_of(weak)
    assert v.status == "OPEN"
    assert any(r.detail == "value_not_named" for r in v.reasons)


def test_matches_phrase_is_a_strong_link():
    base = BASE.replace("want backup", 'matches "nightly dump"\n want backup')
    ev = 'event c1 { channel commits at 2024-08-01 text "nightly dump uses PostgreSQL" }'
    v = status_of(ev, base=base)
    assert (v.status, v.tier) == ("SATISFIED", "semantic")


def test_textual_tier_needs_done_cue_and_verify():
    ev = 'event c1 { channel commits at 2024-08-01 text "backups moved: done" }'
    v = status_of(ev)
    assert v.status == "OPEN" and "claimed_unverified" in v.flags
    base = BASE.replace("want backup", "verify textual\n want backup")
    v = status_of(ev, base=base)
    assert (v.status, v.tier) == ("SATISFIED", "textual")


def test_one_shared_word_and_a_done_word_are_no_claim():
    """SPEC 3, Candidates: one shared content word is chance, not a link: no candidate, no
    `claimed_unverified`, nothing a textual tier could accept."""
    ev = 'event c1 { channel commits at 2024-08-01 text "backups: done" }'
    v = status_of(ev)
    assert v.status == "OPEN" and "claimed_unverified" not in v.flags
    assert not any(r.event == "c1" for r in v.reasons)
    base = BASE.replace("want backup", "verify textual\n want backup")
    assert status_of(ev, base=base).status == "OPEN"


def test_linked_text_without_done_cue_is_rejected():
    base = BASE.replace("Move backups to PostgreSQL", "Move nightly backups to PostgreSQL safely")
    ev = 'event c1 { channel commits at 2024-08-01 text "backup cleanup moved" }'
    v = status_of(ev, base=base)
    assert v.status == "OPEN"
    assert any(r.event == "c1" and r.detail == "no_done_cue" for r in v.reasons)


def test_markers_outrank_text():
    """SPEC 3: `Cancels: x` in a message that also states x's words and value cancels x; it
    does not satisfy it by its text (nor claim it: no claimed_unverified)."""
    ev = (
        "event c1 { channel commits at 2024-08-01 by alice cancels x "
        'text "Cancels: x. Backups moved to PostgreSQL, done" }'
    )
    v = status_of(ev)
    assert (v.status, v.closed_by, v.tier) == ("CANCELLED", "c1", None)
    # without authority the marker is a proposal, and the text still does not satisfy
    v = status_of(ev.replace("by alice", "by dev"))
    assert v.status == "OPEN" and "claimed_unverified" not in v.flags
    assert [r.code for r in v.reasons if r.event == "c1"] == ["proposal"]
    # a marker naming another item leaves the text its link
    v = status_of(ev.replace("cancels x", "cancels y"))
    assert (v.status, v.closed_by, v.tier) == ("SATISFIED", "c1", "semantic")


def test_verify_state_rejects_explicit():
    base = BASE.replace("want backup", "verify state\n want backup")
    v = status_of("event c1 { channel commits at 2024-08-01 by dev completes x }", base=base)
    assert v.status == "OPEN"
    assert any(r.code == "below_verify" and r.event == "c1" for r in v.reasons)
    assert "claimed_unverified" in v.flags


# --- authority, endings -----------------------------------------------------------------------


def test_principal_cancels():
    v = status_of("event d1 { channel commits at 2024-08-01 by alice cancels x }")
    assert (v.status, v.closed_by) == ("CANCELLED", "d1")


def test_agent_waiver_is_a_proposal():
    v = status_of("event d1 { channel commits at 2024-08-01 by bot waives x }")
    assert v.status == "OPEN"
    assert any(r.code == "proposal" and r.event == "d1" for r in v.reasons)


def test_non_principal_cannot_end_when_principals_exist():
    v = status_of("event d1 { channel commits at 2024-08-01 by dev cancels x }")
    assert v.status == "OPEN"
    assert any(r.code == "proposal" for r in v.reasons)


def test_any_non_agent_may_end_without_principals():
    source = (
        "channel commits work\nactor bot agent\n"
        "expectation x { opened 2024-07-01 }\n"
        "event d1 { channel commits at 2024-08-01 by dev waives x }\n"
        "event d0 { channel commits at 2024-07-20 by bot waives x }\n"
    )
    v = verdict(resolve_text(source, at="2024-09-01", preamble=False), "x")
    assert (v.status, v.closed_by) == ("WAIVED", "d1")


def test_named_principal_overrides_declared_principals():
    base = BASE.replace("want backup", "principal dev\n want backup")
    assert (
        status_of("event d1 { channel commits at 2024-08-01 by alice cancels x }", base=base).status
        == "OPEN"
    )
    assert (
        status_of("event d1 { channel commits at 2024-08-01 by dev cancels x }", base=base).status
        == "CANCELLED"
    )


def test_supersedes_marker_and_superseded_when_state():
    v = status_of("event d1 { channel commits at 2024-08-01 by alice supersedes x }")
    assert v.status == "SUPERSEDED"
    base = BASE.replace(
        "want backup", 'superseded_when store.kind = "object-storage"\n want backup'
    )
    v = status_of(
        'event c1 { channel commits at 2024-08-01 set store.kind = "object-storage" }', base=base
    )
    assert (v.status, v.closed_by) == ("SUPERSEDED", "c1")


def test_waived_by_principal():
    assert (
        status_of("event d1 { channel commits at 2024-08-01 by alice waives x }").status == "WAIVED"
    )


# --- ordering ---------------------------------------------------------------------------------


def test_earliest_close_wins():
    ev = (
        "event d1 { channel commits at 2024-08-01 by alice cancels x }\n"
        'event c2 { channel commits at 2024-08-02 set backup.backend = "PostgreSQL" }'
    )
    v = status_of(ev)
    assert (v.status, v.closed_by) == ("CANCELLED", "d1")
    assert any(r.event == "c2" and r.detail == "already_closed" for r in v.reasons)


@pytest.mark.parametrize(
    ("events", "winner", "status"),
    [
        # satisfied beats superseded, cancelled and waived at one instant
        (
            "event a { channel commits at 2024-08-01 by alice waives x }\n"
            'event b { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }',
            "b",
            "SATISFIED",
        ),
        (
            "event a { channel commits at 2024-08-01 by alice waives x }\n"
            "event b { channel commits at 2024-08-01 by alice cancels x }",
            "b",
            "CANCELLED",
        ),
        (
            "event a { channel commits at 2024-08-01 by alice cancels x }\n"
            "event b { channel commits at 2024-08-01 by alice supersedes x }",
            "b",
            "SUPERSEDED",
        ),
        # a stronger tier beats a weaker one
        (
            "event a { channel commits at 2024-08-01 by dev completes x }\n"
            'event b { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }',
            "b",
            "SATISFIED",
        ),
        # equal strength: the lower event id
        (
            'event b { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
            'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }',
            "a",
            "SATISFIED",
        ),
    ],
)
def test_tie_order(events, winner, status):
    v = status_of(events)
    assert (v.status, v.closed_by) == (status, winner)


# --- reopening --------------------------------------------------------------------------------


def test_explicit_reopen_by_principal_and_close_again():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        "event r1 { channel commits at 2024-08-05 by alice reopens x }\n"
        "event c2 { channel commits at 2024-08-09 by alice completes x }"
    )
    v = status_of(ev, at="2024-08-06")
    assert v.status == "OPEN" and "reopened" in v.flags
    v = status_of(ev, at="2024-08-10")
    assert (v.status, v.closed_by, v.tier) == ("SATISFIED", "c2", "explicit")
    assert "reopened" in v.flags


def test_agent_cannot_reopen():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        "event r1 { channel commits at 2024-08-05 by bot reopens x }"
    )
    v = status_of(ev)
    assert v.status == "SATISFIED" and "reopened" not in v.flags


def test_contradiction_reopens_before_the_bound_only():
    base = BASE.replace("want backup", "deadline 2024-08-20\n want backup")
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event c2 { channel commits at 2024-08-10 set backup.backend = "SQLite" }'
    )
    v = status_of(ev, base=base)
    assert v.status == "OPEN" and "reopened" in v.flags
    late = ev.replace("2024-08-10", "2024-08-25")
    v = status_of(late, base=base)
    assert v.status == "SATISFIED"
    assert any(r.detail == "after_bound" for r in v.reasons)


def test_contradiction_does_not_reopen_other_closes():
    ev = (
        "event c1 { channel commits at 2024-08-01 by alice waives x }\n"
        'event c2 { channel commits at 2024-08-10 set backup.backend = "SQLite" }'
    )
    assert status_of(ev).status == "WAIVED"


def test_closing_is_decided_before_reopening_at_one_instant():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        "event r1 { channel commits at 2024-08-01 by alice reopens x }"
    )
    v = status_of(ev)
    assert v.status == "OPEN" and "reopened" in v.flags


def test_reopen_while_open_does_nothing():
    ev = "event r1 { channel commits at 2024-08-01 by alice reopens x }"
    v = status_of(ev)
    assert v.status == "OPEN" and "reopened" not in v.flags


# --- outcomes ---------------------------------------------------------------------------------


def test_failed_outcome_is_no_evidence():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" '
        "outcome failed }"
    )
    v = status_of(ev)
    assert v.status == "OPEN"
    assert any(r.detail == "failed_outcome" for r in v.reasons)


def test_unknown_outcome_makes_unknown_until_confirmed():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" '
        "outcome unknown }"
    )
    v = status_of(ev)
    assert (v.status, v.confidence) == ("UNKNOWN", "UNKNOWN")
    assert any(r.code == "unconfirmed_effect" for r in v.reasons)
    confirmed = (
        ev + '\nevent c2 { channel commits at 2024-08-03 set backup.backend = "PostgreSQL" }'
    )
    assert status_of(confirmed).status == "SATISFIED"


def test_marker_on_a_task_spreads_except_completes():
    source = """
task t { opened 2024-07-01 principal alice
         obligation a { title "one" } obligation b { title "two" } }
event w { channel commits at 2024-08-01 by alice waives t }
event c { channel commits at 2024-08-02 by alice completes t }
"""
    res = resolve_text(source, at="2024-09-01")
    assert verdict(res, "a").status == "WAIVED"
    assert verdict(res, "b").status == "WAIVED"
    source2 = source.replace("waives t", "reports_pending t")
    res = resolve_text(source2, at="2024-09-01")
    assert verdict(res, "a").status == "OPEN"


def test_oracle_opening_not_reported_before_it_is_visible():
    base = BASE.replace("opened_by open-1", "opened 2024-07-10")
    v = status_of("", at="2024-07-01", base=base)
    assert (v.status, v.opened_at) == ("NOT_OPENED", None)


def test_an_effective_reopen_is_not_also_a_rejection():
    ev = (
        'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        "event r1 { channel commits at 2024-08-05 by alice reopens x }"
    )
    v = status_of(ev)
    assert not any(r.event == "r1" and r.code == "candidate_rejected" for r in v.reasons)
    assert any(r.event == "r1" and r.code == "reopened" for r in v.reasons)


# --- an agent's own word is a claim (SPEC 3) ---------------------------------------------------


def test_an_agents_own_set_is_a_claim_below_verify():
    """An agent's `set` of the wanted value off an authoritative channel is tier textual at
    most: claimed_unverified below the default verify, satisfying only `verify textual`."""
    ev = 'event c1 { channel commits at 2024-08-01 by bot set backup.backend = "PostgreSQL" }'
    v = status_of(ev)
    assert v.status == "OPEN" and "claimed_unverified" in v.flags
    assert [(r.code, r.detail) for r in v.reasons if r.event == "c1"] == [
        ("below_verify", "textual")
    ]
    lax = BASE.replace("want backup", "verify textual\n want backup")
    assert (status_of(ev, base=lax).status, status_of(ev, base=lax).tier) == (
        "SATISFIED",
        "textual",
    )


def test_an_agents_own_strong_text_is_a_claim():
    ev = 'event c1 { channel commits at 2024-08-01 by bot text "Moved the backups to PostgreSQL" }'
    v = status_of(ev)
    assert v.status == "OPEN" and "claimed_unverified" in v.flags


def test_on_an_authoritative_channel_an_agents_record_counts():
    base = "channel ci work authoritative\n" + BASE
    ev = 'event c1 { channel ci at 2024-08-01 by bot set backup.backend = "PostgreSQL" }'
    v = status_of(ev, base=base)
    assert (v.status, v.closed_by, v.tier) == ("SATISFIED", "c1", "state")


def test_an_agents_superseding_state_supersedes_nothing():
    base = BASE.replace("want backup", 'superseded_when store.kind = "s3"\n want backup')
    v = status_of(
        'event c1 { channel commits at 2024-08-01 by bot set store.kind = "s3" }', base=base
    )
    assert v.status == "OPEN"
    assert [(r.code, r.detail) for r in v.reasons if r.event == "c1"] == [
        ("candidate_rejected", "agent_claim")
    ]
    v = status_of(
        'event c1 { channel commits at 2024-08-01 by alice set store.kind = "s3" }', base=base
    )
    assert (v.status, v.closed_by) == ("SUPERSEDED", "c1")


def test_an_agent_may_still_reopen_by_contradiction():
    ev = (
        'event c1 { channel commits at 2024-08-01 by alice set backup.backend = "PostgreSQL" }\n'
        'event c2 { channel commits at 2024-08-02 by bot set backup.backend = "SQLite" }'
    )
    v = status_of(ev)
    assert v.status == "OPEN" and "reopened" in v.flags


def test_the_explanation_says_why_an_agents_record_is_a_claim():
    from resolver import api
    from resolver.faces.explanation.text import phrase, render_text
    from resolver.verdicts import explanation
    from tests.helpers import prepare_text

    ev = 'event c1 { channel commits at 2024-08-01 by bot set backup.backend = "PostgreSQL" }'
    prepared = prepare_text(BASE + ev)
    tree = explanation.explain_at(prepared, api.standpoint("2024-09-01"), "x")
    text = render_text(phrase(tree))
    assert "bot is an agent: its own report is a claim; a system of record must observe it" in text
    assert "would reach tier state" in text
