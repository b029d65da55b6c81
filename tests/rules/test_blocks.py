"""rules/standpoint/blocks.lp: a block is seen whole, not at all, or in part (then detailed)."""

from __future__ import annotations

import pytest

from tests.rules.harness import Answer, standpoint, unseen_block

#: Events at 100..200, recorded at 100..200.
SPAN = "span(k,1,100,200,100,200). "


def _judged(answer: Answer) -> set[str]:
    """The judgements of every block, as atoms (a block that is none has none)."""
    names = ("block_full", "block_later", "block_partial")
    return {atom for name in names for atom in answer.named(name)}


def test_a_block_wholly_visible_is_full() -> None:
    assert _judged(standpoint(SPAN, now=200, known=200)) == {"block_full(k,1)"}
    assert _judged(standpoint(SPAN, now=300, known=300)) == {"block_full(k,1)"}


def test_a_block_after_the_standpoint_or_unrecorded_is_none() -> None:
    for now, known in ((50, 300), (300, 50), (50, 50)):
        answer = standpoint(SPAN, now=now, known=known)
        assert _judged(answer) == set() and unseen_block(answer, "k", 1)


def test_a_block_straddling_the_standpoint_is_partial_and_needs_its_details() -> None:
    for now, known in ((150, 300), (300, 150)):
        detailed = standpoint(SPAN + "block_detailed(k,1).", now=now, known=known)
        assert _judged(detailed) == {"block_partial(k,1)"}
        with pytest.raises(AssertionError, match="no answer"):
            standpoint(SPAN, now=now, known=known)


def test_a_kind_that_counts_known_records_is_later_when_all_are_known() -> None:
    kind = "counts_known(k). "
    later = standpoint(kind + SPAN, now=50, known=300)
    assert _judged(later) == {"block_later(k,1)"}
    assert _judged(standpoint(kind + SPAN, now=50, known=50)) == set(), "none known: none"
    # nothing happened by T, but some records are known and some not: partial
    some = standpoint(kind + SPAN + "block_detailed(k,1).", now=50, known=150)
    assert _judged(some) == {"block_partial(k,1)"}
    with pytest.raises(AssertionError, match="no answer"):
        standpoint(kind + SPAN, now=50, known=150)
    # a kind that does not count them sees none of it
    assert _judged(standpoint(SPAN, now=50, known=150)) == set()
    # one event visible, and some records known: partial, as for any kind
    assert _judged(standpoint(kind + SPAN + "block_detailed(k,1).", now=150, known=300)) == {
        "block_partial(k,1)"
    }


def test_kinds_and_blocks_are_judged_apart() -> None:
    facts = SPAN + "span(k,2,300,400,300,400). span(j,1,300,400,300,400). "
    facts += "counts_known(j). span(j,2,100,200,100,200). "
    assert _judged(standpoint(facts, now=250, known=450)) == {
        "block_full(k,1)",
        "block_later(j,1)",
        "block_full(j,2)",
    }
