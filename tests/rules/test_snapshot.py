"""rules/standpoint/snapshot.lp: a snapshot adds reasons to open verdicts, never a status."""

from __future__ import annotations

from tests.rules.harness import standpoint

BASE = "expectation(10). opening(10,100,100). want(10,30,31). superseded_when(10,40,41). "


def test_the_snapshot_speaks_to_open_and_unknown_verdicts() -> None:
    a = standpoint(BASE + "snapshot_state(30,31).")
    assert a.has("snapshot_says(10,suggests_done)") and a.shows("status(10,open)")
    assert a.shows("reason(10,snapshot,0,suggests_done)")
    b = standpoint(BASE + "snapshot_state(30,99). snapshot_state(40,41). unknown_because(10,gap).")
    assert b.has("snapshot_says(10,agrees_open(99))") and b.has(
        "snapshot_says(10,suggests_superseded)"
    )
    closed = standpoint(
        BASE + "snapshot_state(30,31). evt(6,200,200,0). close(10,6,cancelled,none,6)."
    )
    assert not closed.named("snapshot_says")
