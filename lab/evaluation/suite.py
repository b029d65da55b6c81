"""Every reproduced row of the open-loops study, in the order the evaluation prints them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lab.evaluation import canonical, cost, mentions, staleness
from lab.evaluation.histories import Histories
from lab.evaluation.rows import Row, fixtures_dir


def open_loops(
    fixtures: str | Path | None = None,
    with_cost: bool = True,
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    """The mention baseline, the canonical fixtures, maintained vs derived, and the cost row."""
    histories = Histories(fixtures_dir(fixtures))
    say = progress or (lambda _: None)
    say("mention baseline")
    rows = mentions.rows(histories)
    say("canonical fixtures")
    rows += canonical.rows(histories)
    rows.append(mentions.perfect_history_row(histories))
    say("maintained vs derived (ledger)")
    rows.append(staleness.quality_row(histories))
    rows += staleness.staleness_rows(histories)
    rows.append(canonical.snapshot_row(histories))
    if with_cost:
        say("derivation cost (synthetic histories)")
        rows.append(cost.row())
    return rows
