"""rules/vocabulary.lp: the spec's words, named once; resolver/vocabulary.py says the same."""

from __future__ import annotations

from resolver import vocabulary
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
