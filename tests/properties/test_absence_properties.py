"""Properties of absence reasoning over generated histories (hypothesis).

* A hole in a search channel after the opening never leaves a confident OPEN.
* Adding a channel that was missing (and closes nothing) never changes a status; it can only
  turn INCOMPLETE_SEARCH into CORROBORATED_OPEN.
* Confidence, status and footprint always agree with one another.

Histories are small: a commit channel with consecutive sequence numbers, two expectations
opened by a remark, and a mix of events that close, fail, stay unconfirmed or merely touch.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from resolver import api
from resolver.verdicts.resolution import Resolution

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HEADER = """
channel sessions mention
channel commits work
actor alice principal
actor bot agent

expectation x {
  title "Move backups to PostgreSQL"
  opened_by remark
  want backup.backend = "PostgreSQL"
}

expectation y {
  title "Archive cold partitions"
  opened_by remark
  want archive.kind = "cold"
  search commits, issues
}
"""

#: What a commit may do. Most kinds leave the expectations open, so that absence matters.
KINDS = {
    "plain": 'text "Tune pool sizes"',
    "weak": 'text "Backup cleanup"',
    "wrong": 'set backup.backend = "SQLite"',
    "failed": 'set backup.backend = "PostgreSQL" outcome failed',
    "unknown": 'set archive.kind = "cold" outcome unknown',
    "agent": "by bot completes x",
    "satisfy": 'set backup.backend = "PostgreSQL"',
    "supersede": "by alice supersedes y",
}
OPENISH = ["plain", "plain", "weak", "wrong", "failed", "agent"]


@dataclass(frozen=True)
class History:
    """Commits 1..n on consecutive days; the remark opens both expectations on day ``opening``
    (before commit ``opening``); ``late`` commits are recorded a week after they happen."""

    kinds: tuple[str, ...]
    opening: int
    late: frozenset[int]

    def text(
        self, drop: frozenset[int] = frozenset(), issues: int = 0, declare_issues: bool = True
    ) -> str:
        lines = [HEADER]
        if declare_issues:
            lines.append("channel issues work")
        lines.append(
            f"event remark {{ channel sessions at {day(self.opening)}T09:00 "
            f'text "backups and archives still owed" }}'
        )
        for i, kind in enumerate(self.kinds):
            if i in drop:
                continue
            recorded = f" recorded {day(i + 7)}T10:00" if i in self.late else ""
            lines.append(
                f"event c{i:02d} {{ channel commits seq {i + 1} at {day(i)}T10:00"
                f"{recorded} {KINDS[kind]} }}"
            )
        for j in range(issues):
            lines.append(
                f"event i{j:02d} {{ channel issues seq {j + 1} at {day(j)}T12:00 "
                f'text "Rotate the on-call schedule" }}'
            )
        return "\n".join(lines) + "\n"


def day(offset: int) -> str:
    """2024-08-01 plus ``offset`` days, as a date."""
    return f"2024-08-{offset + 1:02d}" if offset < 31 else f"2024-09-{offset - 30:02d}"


def resolve(source: str, at: str, known: str | None = None) -> Resolution:
    with tempfile.TemporaryDirectory(prefix="openloop-prop-") as folder:
        (Path(folder) / "h.ol").write_text(source, encoding="utf-8")
        prepared = api.prepare([folder])
    return api.status(prepared, at=at, known=known)


@st.composite
def histories(draw, kinds: list[str] | None = None, min_size: int = 3) -> History:
    pool = kinds if kinds is not None else list(KINDS)
    commits = draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=8))
    opening = draw(st.integers(0, len(commits) - 1))
    late = draw(st.frozensets(st.integers(0, len(commits) - 1), max_size=2))
    return History(tuple(commits), opening, late)


@SETTINGS
@given(history=histories(), data=st.data())
def test_a_hole_after_the_opening_never_leaves_a_confident_open(history, data):
    """Delete a sequence-numbered event between two others, after the opening: no
    CORROBORATED_OPEN, and nothing OPEN at all (it becomes UNKNOWN)."""
    n = len(history.kinds)
    candidates = [i for i in range(max(1, history.opening), n - 1)]
    assume(candidates)
    dropped = data.draw(st.sampled_from(candidates))
    source = history.text(drop=frozenset({dropped}))
    at = day(n + 8)  # everything, including late records, is visible
    for verdict in resolve(source, at).expectations:
        assert verdict.confidence != "CORROBORATED_OPEN", verdict
        assert verdict.status != "OPEN", verdict
        assert verdict.channels["commits"].relevant_gaps == ((dropped + 1, dropped + 1),)


@SETTINGS
@given(
    history=histories(kinds=[*OPENISH, *KINDS]),
    issues=st.integers(1, 4),
    declare=st.booleans(),
    shift=st.integers(0, 9),
    known_latest=st.booleans(),
)
def test_adding_a_missing_channel_never_changes_a_status(
    history, issues, declare, shift, known_latest
):
    """The footprint experiment as a property: the issue tracker's events (which touch no
    expectation and have no gap) change confidence at most, never a status."""
    at = day(shift)
    known = "latest" if known_latest else None
    without = resolve(history.text(declare_issues=declare), at, known)
    with_channel = resolve(history.text(issues=issues), at, known)
    for before, after in zip(without.expectations, with_channel.expectations, strict=True):
        assert before.status == after.status
        assert before.closed_by == after.closed_by
        if before.confidence != after.confidence:
            assert (before.confidence, after.confidence) == (
                "INCOMPLETE_SEARCH",
                "CORROBORATED_OPEN",
            )


@SETTINGS
@given(
    history=histories(),
    shift=st.integers(0, 16),
    known_latest=st.booleans(),
    drop=st.frozensets(st.integers(0, 7), max_size=2),
)
def test_confidence_status_and_footprint_agree(history, shift, known_latest, drop):
    """SPEC §3 Absence, read backwards from any verdict."""
    resolution = resolve(history.text(drop=drop), day(shift), "latest" if known_latest else None)
    for v in resolution.expectations:
        searched_all = all(fp.searched for fp in v.channels.values())
        relevant = any(fp.relevant_gaps for fp in v.channels.values())
        assert v.footprint_complete == (searched_all and not relevant)
        for fp in v.channels.values():
            assert set(fp.relevant_gaps) <= set(fp.gaps)
            assert fp.searched == (fp.through is not None)
        if v.status in ("OPEN", "UNKNOWN"):
            assert v.confidence is not None
            assert (v.status == "UNKNOWN") == (v.confidence == "UNKNOWN")
            assert (v.confidence == "CORROBORATED_OPEN") == v.footprint_complete or (
                v.status == "UNKNOWN"
            )
            if relevant:
                assert v.status == "UNKNOWN"
        else:
            assert v.confidence is None
