"""A TimeChain cut at a standpoint: a few blocks that the rules can judge from their bounds.

Every row lies in exactly one block, in order; a block that is not detailed is wholly seen or
wholly unseen at ``(T, K)`` (the rules' constraint has no answer for a partial block without its
rows); the cut gives one block seen whole at most, and details only rows with ``at <= T``.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from resolver.facts.candidate_log import BlockNumbers, CandidateLog, TimeChain

ROWS = st.lists(st.tuples(st.integers(0, 30), st.integers(-5, 10)), min_size=0, max_size=40).map(
    lambda rows: sorted((at, at + late) for at, late in rows)
)


@given(ROWS, st.integers(-2, 35), st.integers(-2, 45))
def test_a_cut_covers_the_rows_with_blocks_the_rules_can_judge(rows, at, known) -> None:
    chain = TimeChain([a for a, _ in rows], [r for _, r in rows])
    blocks = chain.cut(at, known)
    assert [i for start, stop, _ in blocks for i in range(start, stop)] == list(range(len(rows)))
    seen_whole = 0
    for start, stop, detailed in blocks:
        assert start < stop
        part = rows[start:stop]
        assert chain.bounds(start, stop) == (
            min(a for a, _ in part),
            max(a for a, _ in part),
            min(r for _, r in part),
            max(r for _, r in part),
        )
        visible = [a <= at and r <= known for a, r in part]
        if detailed:
            assert all(a <= at for a, _ in part), "only rows up to T are ever detailed"
        else:
            assert all(visible) or not any(visible), (start, stop)
            at_min, at_max, rec_min, rec_max = chain.bounds(start, stop)
            whole = at_max <= at and rec_max <= known
            none = at_min > at or rec_min > known
            assert whole or none, "the rules would find this block partial"
            seen_whole += whole
    assert seen_whole <= 1


def test_known_latest_cuts_a_chain_into_at_most_two_blocks() -> None:
    chain = TimeChain(range(100), [a + 2 for a in range(100)])
    assert chain.cut(50, 10**6) == [(0, 51, False), (51, 100, False)]
    # Known before T: the rows recorded after K but happened before it are detailed; those
    # that happened after K (and were recorded after it) are one unseen block.
    assert chain.cut(50, 40) == [(0, 39, False), (39, 41, True), (41, 51, False), (51, 100, False)]


def test_a_block_keeps_its_number_from_one_standpoint_to_the_next() -> None:
    """The same rows of the same chain are the same block (and so the same clingo symbols) at
    every standpoint; other rows, or another chain, are another block."""
    numbers = BlockNumbers()
    first = numbers.number(0, 0, 5)
    assert numbers.number(0, 5, 9) != first and numbers.number(1, 0, 5) != first
    assert numbers.number(0, 0, 5) == first
    assert len({numbers.number(c, s, s + 2) for c in range(3) for s in range(4)}) == 12


def test_candidate_blocks_cut_alike_are_written_alike() -> None:
    # the first chain is cut in two at 320 and seen whole at 600; the second, later chain is
    # one unseen block at both: the same rows, so the same block, whatever came before it
    log = CandidateLog(
        [(10, 1, e, 100 * e, 100 * e) for e in range(1, 6)]
        + [(11, 1, e, 1000 + 100 * e, 1000 + 100 * e) for e in range(1, 6)],
        block_size=128,
    )

    def block_of(item: int, text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(f"cblock({item},")]

    early, later = log.details(320, 320), log.details(600, 600)
    assert len(block_of(10, early)) == 2 and len(block_of(10, later)) == 1
    assert (
        block_of(11, early)
        == block_of(11, later)
        == [f"cblock(11,1,{log._blocks.number(1, 0, 5)},5,1100,1500,1100,1500)."]
    )
    assert log.details(320, 320) == early, "the same standpoint, the same text"


def test_asking_the_same_standpoints_again_numbers_no_new_block() -> None:
    """A long-lived process that is asked standpoints it has seen writes no new block: the
    symbols clingo keeps for the life of the process stop growing (docs/design/performance.md)."""
    rows = [(10 + e % 3, 1, e, 50 * e, 50 * e + (200 if e % 7 == 0 else 0)) for e in range(1, 60)]
    log = CandidateLog(rows, block_size=128)
    points = [(t, t) for t in range(0, 3200, 170)] + [(1500, 900), (2500, 3300)]
    first = [log.details(at, known) for at, known in points]
    numbered = len(log._blocks._numbers)
    assert [log.details(at, known) for at, known in points] == first
    assert len(log._blocks._numbers) == numbered
