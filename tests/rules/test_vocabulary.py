"""rules/vocabulary.lp: the spec's words, named once; resolver/vocabulary.py says the same."""

from __future__ import annotations

import re

from resolver import vocabulary
from resolver.engine import prepared as engine
from tests.rules.harness import prepare


def _words(answer, name: str) -> set[str]:
    return {a[len(name) + 1 : -1] for a in answer.named(name)}


def test_python_vocabulary_matches_the_rules() -> None:
    words = prepare("")
    assert _words(words, "status_word") == set(vocabulary.STATUSES)
    assert _words(words, "closed_status") == set(vocabulary.CLOSED_STATUSES)
    assert _words(words, "unsettled_status") == set(vocabulary.UNSETTLED_STATUSES)
    assert _words(words, "pending_status") == set(vocabulary.PENDING_STATUSES)
    assert _words(words, "open_like_status") == set(vocabulary.OPEN_LIKE_STATUSES)
    assert _words(words, "task_status_word") == set(vocabulary.TASK_STATUSES)
    assert _words(words, "flag_word") == set(vocabulary.FLAGS)
    assert _words(words, "confidence_word") == set(vocabulary.CONFIDENCE)
    assert _words(words, "marker_word") == set(vocabulary.MARKERS)
    assert _words(words, "ending_marker") == set(vocabulary.ENDING_MARKERS)
    assert _words(words, "default_verify") == {vocabulary.DEFAULT_VERIFY}
    ranks = {a[len("tier_rank(") : -1] for a in words.named("tier_rank")}
    assert ranks == {f"{t},{i}" for i, t in enumerate(vocabulary.TIERS, 1)}
    claims = {a[len("claim_marker(") : -1] for a in words.named("claim_marker")}
    assert claims == {f"{k},{v}" for k, v in vocabulary.CLAIM_FINDINGS.items()}


def test_spreading_markers_and_marker_statuses() -> None:
    words = prepare("")
    assert _words(words, "spreading_marker") == {"cancels", "supersedes", "waives", "reopens"}
    assert words.named("marker_status") == {
        "marker_status(cancels,cancelled)",
        "marker_status(supersedes,superseded)",
        "marker_status(waives,waived)",
        "marker_status(reopens,open)",
    }


def test_close_ranks_order_ties_after_the_satisfied_tiers() -> None:
    words = prepare("")
    assert words.named("close_rank") == {
        "close_rank(superseded,5)",
        "close_rank(cancelled,6)",
        "close_rank(waived,7)",
    }
    assert words.named("satisfied_rank") == {f"satisfied_rank({r})" for r in (1, 2, 3, 4)}


def test_the_derived_lists_match_the_rules() -> None:
    words = prepare("")
    assert _words(words, "spreading_marker") == set(vocabulary.SPREADING_MARKERS)
    pairs = {a[len("marker_status(") : -1] for a in words.named("marker_status")}
    assert pairs == {f"{m},{s}" for m, s in vocabulary.MARKER_STATUSES.items()}
    ranks = {a[len("close_rank(") : -1] for a in words.named("close_rank")}
    after = len(vocabulary.TIERS) + 1
    assert ranks == {f"{s},{r}" for r, s in enumerate(vocabulary.LATER_CLOSES, after)}
    assert vocabulary.CLOSE_ORDER[1:] == vocabulary.LATER_CLOSES
    assert set(vocabulary.CLOSE_ORDER) == set(vocabulary.CLOSED_STATUSES)
    # satisfied, first, ranks by its tier (1..4, before every later close)
    assert _heads(r"close\(X, E, (\w+), T, R\)\s*:-[^.]*tier_rank\(T, R\)") == {"satisfied"}
    assert _words(words, "sat_rejection") == set(vocabulary.SAT_REJECTIONS)
    assert _words(words, "narrative_rejection") == set(vocabulary.NARRATIVE_REJECTIONS)
    closing = {m for m, s in vocabulary.MARKER_STATUSES.items() if s in vocabulary.CLOSED_STATUSES}
    assert set(vocabulary.CLOSING_MARKERS) == closing


def test_every_status_is_closed_or_unsettled_and_a_task_is_done_when_complete() -> None:
    closed, unsettled = set(vocabulary.CLOSED_STATUSES), set(vocabulary.UNSETTLED_STATUSES)
    assert closed | unsettled == set(vocabulary.STATUSES) and not closed & unsettled
    # the status every task has unless an obligation keeps it incomplete or unknown
    assert _heads(r"task_status\(T, (\w+)\)\s*:-\s*task\(T\)") == {vocabulary.TASK_DONE}
    assert {vocabulary.TASK_DONE, *vocabulary.TASK_OUTSTANDING} == set(vocabulary.TASK_STATUSES)


def _rule_text() -> str:
    return engine._rules_program()


def _heads(pattern: str) -> set[str]:
    """The words a rule head names in the place of ``(\\w+)`` in ``pattern``."""
    return set(re.findall(pattern, _rule_text()))


def test_the_lists_other_rule_files_name_match_them() -> None:
    """Outcomes, channel roles and the audit's words are named by the rule files that read
    them, not by vocabulary.lp: each tuple holds the words those rules spell."""
    default, *others = vocabulary.OUTCOMES
    assert _heads(r"\boutcome\(E, (\w+)\)") == set(others)
    assert default == "confirmed"  # no outcome(E, _) atom: confirmed(E) (candidates.lp)
    assert _heads(r"#show (\w+)\(C\) : \1\(C\)\.") >= set(vocabulary.CHANNEL_ROLES)
    assert _heads(r"audit_verdict\(E, Y, (\w+)\)\s*:-") == set(vocabulary.AUDIT_VERDICTS)
    assert _heads(r"audit_state\(E, Y, (\w+)\)\s*:-") == set(vocabulary.AUDIT_STATES)
    assert _heads(r"audit_now_state\(Y, (\w+)\)\s*:-") == set(vocabulary.AUDIT_STATES)
    assert set(vocabulary.UNSUPPORTED_VERDICTS) < set(vocabulary.AUDIT_VERDICTS)
