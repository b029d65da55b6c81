"""``openloop explain``: the derivation tree read from the rules' atoms (rules/query/explain.lp).

Each test names the rule or reason it guards; removing that rule makes it fail.
"""

from __future__ import annotations

import json

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.engine.prepared import Prepared
from resolver.errors import InputError
from resolver.faces.explanation.text import line, phrase, render_text, to_json
from resolver.verdicts import explanation
from resolver.verdicts.explanation import Node, walk
from resolver.verdicts.resolution import Resolution
from tests.helpers import prepare_text


def explain(*args: object) -> Node:
    """The phrased tree (the tree is built in verdicts/, its words come from faces/)."""
    return phrase(explanation.explain(*args))  # type: ignore[arg-type]


def explain_at(*args: object) -> Node:
    return phrase(explanation.explain_at(*args))  # type: ignore[arg-type]


def key_reason(prepared: Prepared, resolution: Resolution, ident: str) -> str:
    return line(explanation.key_reason_of(prepared, resolution, ident))


BASE = """
expectation x {
  title "Move the nightly backups to PostgreSQL"
  opened_by open-1
  want backup.backend = "PostgreSQL"
}
event open-1 { channel sessions at 2024-07-17T09:00 text "backups still on sqlite" }
"""


def tree(
    extra: str = "",
    at: str = "2024-09-01",
    known: str | None = None,
    why_not: str | None = None,
    ident: str = "x",
    base: str = BASE,
) -> Node:
    history = prepare_text(base + extra)
    return explain_at(history, api.standpoint(at, known), ident, why_not)


def candidate(node: Node, event: str) -> Node:
    found = [n for n in walk(node) if n.kind == "candidate" and n.event == event]
    assert found, f"no candidate {event} in\n{render_text(node)}"
    return found[0]


def kinds(node: Node, kind: str) -> list[Node]:
    return [n for n in walk(node) if n.kind == kind]


# --- every rejection reason is named ------------------------------------------------------------

REJECTIONS = [
    (
        "mention_channel",
        'event c { channel sessions at 2024-08-01 set backup.backend = "PostgreSQL" }',
    ),
    (
        "before_opening",
        'event c { channel commits at 2024-07-01 set backup.backend = "PostgreSQL" }',
    ),
    ("wrong_value", 'event c { channel commits at 2024-08-01 set backup.backend = "MySQL" }'),
    (
        "value_not_named",
        'event c { channel commits at 2024-08-01 text "Move the nightly backups" }',
    ),
    ("no_done_cue", 'event c { channel commits at 2024-08-01 text "backups are slow to move" }'),
    ("no_link", 'event c { channel commits at 2024-08-01 text "see x" }'),
    ("claim_only", "event c { channel commits at 2024-08-01 claims_complete x }"),
    (
        "failed_outcome",
        'event c { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" '
        "outcome failed }",
    ),
    ("proposal", "event c { channel commits at 2024-08-01 by bot cancels x }"),
    ("below_verify", "event c { channel commits at 2024-08-01 by bot completes x }"),
    (
        "unconfirmed_effect",
        'event c { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" '
        "outcome unknown }",
    ),
    (
        "already_closed",
        'event b { channel commits at 2024-07-30 set backup.backend = "PostgreSQL" }\n'
        'event c { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }',
    ),
    (
        "lost_tie",
        'event b { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event c { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }',
    ),
]


@pytest.mark.parametrize(("code", "history"), REJECTIONS, ids=[c for c, _ in REJECTIONS])
def test_each_rejected_candidate_names_its_reason(code, history):
    node = candidate(tree(history), "c")
    assert code in node.data["outcomes"]
    assert node.text.startswith("c (")


def test_every_rejection_in_the_release_fixture_is_explained():
    history = api.prepare(["fixtures/release"])
    for at in ("2024-07-20", "2024-08-23", "2024-08-28", "2024-08-31"):
        resolution = api.status(history, at=at)
        for verdict in resolution.expectations:
            node = explain(history, resolution, verdict.id)
            for reason in verdict.reasons:
                if reason.code != "candidate_rejected":
                    continue
                shown = candidate(node, reason.event)
                assert reason.detail in shown.data["outcomes"], (verdict.id, reason)
                assert f"[{reason.detail}]" in render_text(node)


# --- the opening ------------------------------------------------------------------------------


def test_opening_names_evidence_time_and_knowledge_time():
    base = BASE.replace("at 2024-07-17T09:00", "at 2024-07-17T09:00 recorded 2024-07-18")
    opening = kinds(tree(base=base), "opening")[0]
    assert opening.event == "open-1"
    assert "2024-07-17T09:00:00Z" in opening.text and "known from 2024-07-18" in opening.text


def test_opening_not_yet_happened():  # opening_hidden(X, not_yet)
    opening = kinds(tree(at="2024-07-01"), "opening")[0]
    assert opening.code == "not_yet" and "after the standpoint" in opening.text


def test_opening_happened_but_unrecorded():  # opening_hidden(X, unrecorded)
    base = BASE.replace("at 2024-07-17T09:00", "at 2024-07-17T09:00 recorded 2024-07-20")
    opening = kinds(tree(at="2024-07-18", base=base), "opening")[0]
    assert opening.code == "unrecorded" and "recorded 2024-07-20" in opening.text


def test_no_opening_at_all():  # no_opening(X)
    base = BASE.replace("opened_by open-1", "")
    opening = kinds(tree(base=base), "opening")[0]
    assert opening.code == "no_opening"


def test_opening_through_the_task():  # opened_by_source(X, T)
    base = """
task t { opened 2024-07-10 }
expectation x { title "Move backups" part_of t want backup.backend = "PostgreSQL" }
"""
    opening = kinds(tree(base=base), "opening")[0]
    assert "with its task t" in opening.text and opening.data["source"] == "t"


# --- the timeline: winning transition, ties, reopenings ----------------------------------------


def test_winner_and_tie_broken_by_strength():  # tie(..., stronger)
    node = tree(
        "event a { channel commits at 2024-08-01 by alice completes x }\n"
        'event b { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }'
    )
    transition = kinds(node, "transition")[0]
    assert transition.event == "b" and transition.data["tier"] == "state"
    tie = kinds(node, "tie")[0]
    assert (tie.code, tie.event, tie.data["winner"]) == ("stronger", "a", "b")


def test_tie_broken_by_lower_id():  # tie(..., lower_id)
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event b { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }'
    )
    tie = kinds(node, "tie")[0]
    assert (tie.code, tie.event, tie.data["winner"]) == ("lower_id", "b", "a")


def test_reopening_and_second_close_are_in_order():  # took_close, took_reopen
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event b { channel commits at 2024-08-02 set backup.backend = "MySQL" }\n'
        'event c { channel commits at 2024-08-03 set backup.backend = "PostgreSQL" }'
    )
    closing = kinds(node, "closing")[0]
    assert [(c.kind, c.event) for c in closing.children] == [
        ("transition", "a"),
        ("reopening", "b"),
        ("transition", "c"),
    ]
    assert "reopened by b" in render_text(node)


def test_unrecorded_transition_is_shown():  # unrecorded(X, E)
    node = tree(
        "event a { channel commits at 2024-08-01 recorded 2024-08-10 "
        'set backup.backend = "PostgreSQL" }',
        at="2024-08-05",
    )
    assert [n.event for n in kinds(node, "unrecorded")] == ["a"]
    assert kinds(node, "verdict")[0].code == "open"


# --- authority behind markers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("by", "basis"), [("alice", "principal"), ("bot", "agent"), ("bob", "not_principal")]
)
def test_authority_behind_each_marker(by, basis):  # explain_authority (explain_prepare.lp)
    node = candidate(tree(f"event c {{ channel commits at 2024-08-01 by {by} cancels x }}"), "c")
    authority = [n for n in node.children if n.kind == "authority"]
    assert authority[0].code == basis
    if basis == "not_principal":
        assert "(alice)" in authority[0].text  # principal_of


def test_authority_without_principals():
    source = (
        "actor bot agent\nchannel sessions mention\nchannel commits work\n"
        + BASE
        + "event c { channel commits at 2024-08-01 by bob cancels x }"
    )
    history = prepare_text(source, preamble=False)
    node = candidate(explain_at(history, api.standpoint("2024-09-01"), "x"), "c")
    assert [n.code for n in node.children if n.kind == "authority"] == ["unrestricted"]


def test_completes_from_an_agent_is_a_claim():
    node = candidate(tree("event c { channel commits at 2024-08-01 by bot completes x }"), "c")
    assert [n.code for n in node.children if n.kind == "authority"] == ["agent"]


def test_text_link_measurements_are_shown():  # link/3, link_overlap/5
    node = candidate(
        tree(
            'event c { channel commits at 2024-08-01 text "Moved the backups to PostgreSQL: done" }'
        ),
        "c",
    )
    link = next(n for n in node.children if n.kind == "link").text
    assert "content words of its title" in link
    assert "names the wanted value" in link and "done-style claim" in link


# --- footprint, bound, flags ------------------------------------------------------------------


def test_gap_and_unknown_verdict():
    node = tree(
        "event a { channel commits seq 1 at 2024-07-01 }\n"
        "event b { channel commits seq 3 at 2024-08-01 }"
    )
    gap = kinds(node, "gap")[0]
    assert gap.code == "relevant" and gap.data["gap"] == [2, 2]
    verdict = kinds(node, "verdict")[0]
    assert verdict.code == "unknown" and verdict.children[0].code == "gap"


def test_bound_from_deadline_and_pending_before():  # bound_from, bound_pending
    base = BASE.replace("want", "deadline 2024-08-30 before rel want")
    bound = kinds(tree(base=base), "bound")[0]
    assert bound.data["from"] == ["deadline"] and bound.data["pending"] == ["rel"]
    later = tree("event rel { channel commits at 2024-08-20 }", base=base)
    assert kinds(later, "bound")[0].data["from"] == ["before"]


def test_blocked_names_the_precondition():  # blocked_by
    base = BASE.replace("want", "requires y want") + "expectation y { opened 2024-07-01 }\n"
    flag = next(n for n in kinds(tree(base=base), "flag") if n.code == "blocked")
    assert "requires y, which is OPEN" in flag.text


def test_precondition_unmet_names_what_was_open():  # unmet_by
    base = BASE.replace("want", "requires y want") + "expectation y { opened 2024-07-01 }\n"
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }', base=base
    )
    flag = next(n for n in kinds(node, "flag") if n.code == "precondition_unmet")
    assert "y was not closed" in flag.text


# --- why not ----------------------------------------------------------------------------------


def test_why_not_satisfied_names_missing_state_and_nearest():  # why_not, nearest
    node = tree(
        'event a { channel commits at 2024-08-01 text "backups are slow to move" }\n'
        'event b { channel commits at 2024-08-02 text "backup cleanup moved" }\n'
        'event c { channel commits at 2024-09-10 set backup.backend = "PostgreSQL" }',
        why_not="satisfied",
    )
    answer = kinds(node, "why_not")[0]
    codes = [c.code for c in answer.children]
    assert codes == ["no_transition", "later", "nearest"]
    assert 'sets backup.backend = "PostgreSQL"' in answer.children[0].text
    assert answer.children[-1].event == "b"  # the latest visible candidate that took no effect
    assert "(sets nothing)" in answer.children[-1].text


def test_nearest_prefers_candidates_bearing_on_the_status():  # bears/3
    node = tree(
        "event a { channel commits at 2024-08-01 by bot cancels x }\n"
        'event b { channel commits at 2024-08-02 text "backups are slow to move" }',
        why_not="cancelled",
    )
    nearest = [n for n in kinds(node, "nearest")]
    assert nearest[0].event == "a"


def test_why_not_closed_first():
    node = tree("event a { channel commits at 2024-08-01 by alice cancels x }", why_not="satisfied")
    codes = [c.code for c in kinds(node, "why_not")[0].children]
    assert "closed_first" in codes


def test_why_not_unrecorded():
    node = tree(
        "event a { channel commits at 2024-08-01 recorded 2024-08-10 "
        'set backup.backend = "PostgreSQL" }',
        at="2024-08-05",
        why_not="satisfied",
    )
    codes = [c.code for c in kinds(node, "why_not")[0].children]
    assert "unrecorded" in codes


@pytest.mark.parametrize(
    ("status", "code"), [("open", "already"), ("unknown", "no_doubt"), ("not_opened", "opened")]
)
def test_why_not_other_statuses(status, code):
    answer = kinds(tree(why_not=status), "why_not")[0]
    assert next(c.code for c in answer.children) == code


# --- key reason, tasks, json, cli -------------------------------------------------------------


def test_key_reason_lines():  # key_reason/3
    history = prepare_text(BASE + 'event a { channel commits at 2024-08-01 text "backups moved" }')
    resolution = api.status(history, at="2024-09-01")
    assert key_reason(history, resolution, "x").startswith(
        "no closing evidence; nearest candidate a: rejected [no_done_cue]"
    )
    early = api.status(history, at="2024-07-01")
    assert "not visible" in key_reason(history, early, "x")


def test_task_explanation_names_deciding_obligation_and_findings():  # task_because
    history = api.prepare(["fixtures/release"])
    resolution = api.status(history, at="2024-08-23")
    node = explain(history, resolution, "release-prep")
    deciding = [n.data["id"] for n in kinds(node, "obligation") if n.data["decides"]]
    assert deciding == ["intent-401"]
    finding = kinds(node, "finding")[0]
    assert finding.event == "claim-9" and finding.data["outstanding"] == ["intent-401"]


def test_json_is_the_same_tree():
    node = tree('event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }')
    data = json.loads(json.dumps(to_json(node)))
    assert data["kind"] == "expectation" and data["data"]["status"] == "SATISFIED"
    assert [c["kind"] for c in data["children"]][:3] == ["standpoint", "opening", "want"]


def test_cli_explain_text_and_json(capsys):
    assert (
        main(
            [
                "explain",
                "intent-401",
                "fixtures/release",
                "--at",
                "2024-08-23",
                "--why-not",
                "SATISFIED",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith('intent-401 "Move backups to PostgreSQL before release" is OPEN')
    assert "why not SATISFIED?" in out and "commit-118" in out
    assert (
        main(
            [
                "explain",
                "release-prep",
                "fixtures/release",
                "--at",
                "2024-08-23",
                "--format",
                "json",
            ]
        )
        == 0
    )
    document = json.loads(capsys.readouterr().out)
    assert document["kind"] == "explain" and document["tree"]["kind"] == "task"


def test_cli_unknown_id_is_bad_input(capsys):
    assert main(["explain", "intent-40", "fixtures/release", "--at", "2024-08-23"]) == 2
    err = capsys.readouterr().err
    assert "no expectation or task named 'intent-40'" in err and "intent-401" in err


def test_unknown_why_not_status_is_bad_input():
    history = prepare_text(BASE)
    with pytest.raises(InputError):
        explain_at(history, api.standpoint("2024-09-01"), "x", "finished")


def test_why_not_on_a_task_is_bad_input(capsys):
    args = ["explain", "release-prep", "fixtures/release", "--at", "2024-08-23"]
    assert main([*args, "--why-not", "satisfied"]) == 2
    assert "applies to expectations" in capsys.readouterr().err


# --- the remaining explain.lp rules, each with the case that needs it ---------------------------


def test_explain_all_explains_every_item_in_one_solve():  # explained via explain_all
    from resolver.verdicts.explanation import query_facts
    from resolver.verdicts.resolution import resolve

    history = api.prepare(["fixtures/release"])
    point = api.standpoint("2024-08-23")
    atoms = resolve(history, point, query_facts(history, everything=True)).atoms
    explained = {history.facts.item_id(x) for (x,) in atoms.get("explained")}
    tasks = {history.facts.item_id(t) for (t,) in atoms.get("explained_task")}
    assert explained == {x.id for x in history.project.expectations}
    assert tasks == {"release-prep"}


def test_winners_are_never_nearest():  # took_effect/2 (closes)
    node = tree(
        'event a { channel commits at 2024-08-01 text "backups are slow to move" }\n'
        'event b { channel commits at 2024-08-05 set backup.backend = "PostgreSQL" }',
        why_not="cancelled",
    )
    assert kinds(node, "nearest")[0].event == "a"


def test_reopeners_are_never_nearest():  # took_effect/2 (reopenings)
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event b { channel commits at 2024-08-02 text "backups are slow to move" }\n'
        'event c { channel commits at 2024-08-05 set backup.backend = "MySQL" }',
        why_not="satisfied",
    )
    assert kinds(node, "nearest")[0].event == "b"


def test_unrecorded_reopening_is_shown():  # transition_event via reopen/3
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        "event c { channel commits at 2024-08-05 recorded 2024-08-20 "
        'set backup.backend = "MySQL" }',
        at="2024-08-10",
    )
    assert [n.event for n in kinds(node, "unrecorded")] == ["c"]


def test_phrase_and_id_links_are_shown():  # link(X, E, phrase), link(X, E, id)
    base = BASE.replace("want", 'matches "nightly dump" want')
    node = tree(
        'event c { channel commits at 2024-08-01 text "fix nightly dump for x" }', base=base
    )
    link = next(n for n in candidate(node, "c").children if n.kind == "link").text
    assert "a `matches` phrase" in link and "names its id" in link


TASK_PRECONDITION = """
task t { opened 2024-07-01 obligation y { title "y" } }
expectation x {
  title "Move backups" opened 2024-07-01 requires t want backup.backend = "PostgreSQL"
}
"""


def test_blocked_by_a_task():  # blocked_by via task(Y)
    flag = next(n for n in kinds(tree(base=TASK_PRECONDITION), "flag") if n.code == "blocked")
    assert "requires t, which is INCOMPLETE" in flag.text


def test_precondition_unmet_by_a_task_obligation():  # unmet_by(X, Y, Z) via task(Y)
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }',
        base=TASK_PRECONDITION,
    )
    flag = next(n for n in kinds(node, "flag") if n.code == "precondition_unmet")
    assert "y was not closed (an obligation of t)" in flag.text


@pytest.mark.parametrize(
    ("bearing", "event"),
    [
        ("below_verify", "event a { channel commits at 2024-08-01 by bot completes x }"),
        (
            "unconfirmed",
            'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" '
            "outcome unknown }",
        ),
        ("rejection", 'event a { channel commits at 2024-08-01 text "backups are slow to move" }'),
    ],
)
def test_nearest_for_satisfied_skips_later_proposals(bearing, event):  # bears(_, _, satisfied)
    node = tree(
        event + "\nevent p { channel commits at 2024-08-05 by bot cancels x }", why_not="satisfied"
    )
    assert kinds(node, "nearest")[0].event == "a", bearing


def test_nearest_for_cancelled_is_a_cancel_that_came_too_late():  # bears(X, E, S) via close/5
    node = tree(
        'event s { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        "event c { channel commits at 2024-08-02 by alice cancels x }\n"
        'event r { channel commits at 2024-08-05 text "backups are slow to move" }',
        why_not="cancelled",
    )
    assert kinds(node, "nearest")[0].event == "c"


def test_nearest_falls_back_to_the_latest_miss():  # pool/3 when nothing bears on S
    node = tree(
        'event a { channel commits at 2024-08-01 text "backups are slow to move" }\n'
        'event b { channel commits at 2024-08-02 text "backups still slow to move" }',
        why_not="waived",
    )
    assert kinds(node, "nearest")[0].event == "b"


def test_why_not_when_not_opened():  # why_not(X, S, not_opened, 0)
    answer = kinds(tree(at="2024-07-01", why_not="satisfied"), "why_not")[0]
    assert [c.code for c in answer.children] == ["not_opened"]


def test_why_not_open_when_closed():  # why_not(X, open, closed, E)
    node = tree("event a { channel commits at 2024-08-01 by alice cancels x }", why_not="open")
    missing = kinds(node, "missing")
    assert [(m.code, m.event) for m in missing] == [("closed", "a")]


def test_why_not_not_opened_for_an_oracle_opening():  # why_not(X, not_opened, opened, 0)
    answer = kinds(
        tree(base=BASE.replace("opened_by open-1", "opened 2024-07-01"), why_not="not_opened"),
        "why_not",
    )[0]
    assert [(c.code, c.event) for c in answer.children] == [("opened", None)]


def test_key_reason_for_closed_and_untouched():  # key_reason closed / no_candidate
    history = prepare_text(BASE + "event a { channel commits at 2024-08-01 by alice cancels x }")
    assert key_reason(history, api.status(history, at="2024-09-01"), "x").startswith("closed by a")
    quiet = prepare_text(BASE + "event z { channel commits at 2024-08-01 }")
    assert key_reason(quiet, api.status(quiet, at="2024-09-01"), "x") == (
        "no closing evidence: no visible candidate touches it"
    )


def test_task_unknown_names_the_unknown_obligation():  # task_because via status unknown
    history = prepare_text("""
task t { opened 2024-07-01 obligation y { title "y" want k = "v" } }
event a { channel commits at 2024-07-02 set k = "v" outcome unknown }
""")
    resolution = api.status(history, at="2024-07-05")
    node = explain(history, resolution, "t")
    assert node.code == "unknown"
    assert [n.data["id"] for n in kinds(node, "obligation") if n.data["decides"]] == ["y"]
    assert key_reason(history, resolution, "t") == "y is UNKNOWN so t is UNKNOWN"


def test_nearest_for_superseded_is_another_state():  # bears(X, E, superseded) via other_state
    base = BASE.replace("want", 'superseded_when store.kind = "cloud" want')
    node = tree(
        'event a { channel commits at 2024-08-01 set store.kind = "disk" }\n'
        'event b { channel commits at 2024-08-05 text "backups are slow to move" }',
        base=base,
        why_not="superseded",
    )
    assert kinds(node, "nearest")[0].event == "a"


def test_nearest_for_open_is_a_reopening_that_took_no_effect():  # bears(X, E, open)
    node = tree(
        "event a { channel commits at 2024-08-01 by alice cancels x }\n"
        'event c { channel commits at 2024-08-03 set backup.backend = "MySQL" }\n'
        'event b { channel commits at 2024-08-05 text "backups are slow to move" }',
        why_not="open",
    )
    assert kinds(node, "nearest")[0].event == "c"


def test_why_not_satisfied_after_a_reopening():  # undone_by, took_status
    node = tree(
        'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event c { channel commits at 2024-08-03 set backup.backend = "MySQL" }',
        why_not="satisfied",
    )
    missing = kinds(node, "missing")
    assert [(m.code, m.event) for m in missing] == [("undone_by", "c")]


def test_why_not_open_when_unknown():  # why_not(X, open, unknown_because, 0)
    node = tree(
        "event a { channel commits seq 1 at 2024-07-01 }\n"
        "event b { channel commits seq 3 at 2024-08-01 }",
        why_not="open",
    )
    assert [m.code for m in kinds(node, "missing")] == ["unknown_because"]


def test_why_not_unknown_when_closed():  # why_not(X, unknown, closed, E)
    node = tree("event a { channel commits at 2024-08-01 by alice cancels x }", why_not="unknown")
    assert [(m.code, m.event) for m in kinds(node, "missing")] == [("closed", "a")]


def test_key_reason_for_oracle_opening_and_unconfirmed_effect():  # key_reason not_opened/0, ...
    base = BASE.replace("opened_by open-1", "opened 2024-07-20")
    history = prepare_text(
        base + 'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" '
        "outcome unknown }"
    )
    assert key_reason(history, api.status(history, at="2024-07-10"), "x").startswith(
        "opening: opened at 2024-07-20"
    )
    assert key_reason(history, api.status(history, at="2024-09-01"), "x") == (
        "a would satisfy it at tier state, but its outcome is unknown"
    )


@pytest.mark.parametrize(
    ("channel", "basis"), [("decisions", "authoritative_channel"), ("commits", "non_agent")]
)
def test_authority_behind_completes(channel, basis):  # explain_authority(_, _, completes, _)
    base = "channel decisions work authoritative\n" + BASE
    node = tree(f"event c {{ channel {channel} at 2024-08-01 by bob completes x }}", base=base)
    authority = [n.code for n in candidate(node, "c").children if n.kind == "authority"]
    assert authority == [basis]


def test_key_reason_after_a_reopening_names_it():  # key_reason(X, reopened, E)
    history = prepare_text(
        BASE + 'event a { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }\n'
        'event n { channel commits at 2024-08-02 text "backups are slow to move" }\n'
        'event c { channel commits at 2024-08-03 set backup.backend = "MySQL" }'
    )
    line = key_reason(history, api.status(history, at="2024-09-01"), "x")
    assert line.startswith('reopened by c at 2024-08-03T00:00:00Z: sets backup.backend = "MySQL"')
