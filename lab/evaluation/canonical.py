"""The open-loops study's canonical experiments, run on the bundled fixtures.

Each experiment is a list of oracle labels (the status, closing event, tier and flags the study
reports for one expectation at one standpoint); openloop's verdicts are read through
:mod:`resolver.api` and compared with them label by label. Nothing here derives a status.
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.evaluation.histories import Histories, describe
from lab.evaluation.rows import Row, ratio
from resolver.faces.table import snapshot_notes
from resolver.verdicts.resolution import ExpectationVerdict

SECTION = "Canonical fixtures"


@dataclass(frozen=True)
class Label:
    """What the study says one expectation's verdict is at one standpoint."""

    fixture: str
    ident: str
    at: str
    status: str
    known: str | None = None
    by: str | None = None
    tier: str | None = None
    confidence: str | None = None
    has: tuple[str, ...] = ()
    lacks: tuple[str, ...] = ()

    def met_by(self, verdict: ExpectationVerdict) -> bool:
        """Whether openloop's verdict is exactly as labelled."""
        return (
            verdict.status == self.status
            and (self.by is None or verdict.closed_by == self.by)
            and (self.tier is None or verdict.tier == self.tier)
            and (self.confidence is None or verdict.confidence == self.confidence)
            and all(f in verdict.flags for f in self.has)
            and not any(f in verdict.flags for f in self.lacks)
        )


def score(histories: Histories, labels: list[Label]) -> tuple[int, list[str]]:
    """How many labels openloop meets, and one line per label with the verdict it gave."""
    hits, lines = 0, []
    for label in labels:
        verdict = histories.verdict(label.fixture, label.ident, label.at, label.known)
        ok = label.met_by(verdict)
        hits += ok
        known = f" known {label.known}" if label.known else ""
        lines.append(f"{label.ident} at {label.at}{known}: {describe(verdict)}")
    return hits, lines


def _row(
    histories: Histories, experiment: str, study: str, labels: list[Label], fixture: str
) -> Row:
    hits, lines = score(histories, labels)
    total = len(labels)
    measured = f"{ratio(hits, total)} as labelled (accuracy {hits / total:.2f})"
    return Row(
        SECTION, experiment, study, measured, fixture, hits == total, (hits, total), tuple(lines)
    )


FOUR_FUTURES = [
    Label("four-futures/satisfied", "ff-sat/backups", "2024-08-31", "SATISFIED",
          by="ff-sat/commit-114", tier="state", lacks=("late",)),
    Label("four-futures/cancelled", "ff-can/backups", "2024-08-31", "CANCELLED",
          by="ff-can/adr-008"),
    Label("four-futures/superseded", "ff-sup/backups", "2024-08-31", "SUPERSEDED",
          by="ff-sup/commit-113"),
    Label("four-futures/open", "ff-open/backups", "2024-08-31", "OPEN",
          confidence="CORROBORATED_OPEN", has=("deadline_passed",)),
]  # fmt: skip

RELEASE = [
    Label("release", "event-store-migration", "2024-08-31", "SATISFIED", by="commit-116",
          tier="state"),
    Label("release", "intent-401", "2024-08-31", "SATISFIED", by="commit-118", tier="state"),
    Label("release", "docs-update", "2024-08-31", "SATISFIED", by="commit-113", tier="semantic"),
    Label("release", "bench-fixtures", "2024-08-31", "SATISFIED", by="commit-114", tier="state"),
    Label("release", "tune-041", "2024-08-31", "SUPERSEDED", by="commit-116"),
    Label("release", "staging-backups", "2024-08-31", "CANCELLED", by="adr-008"),
]  # fmt: skip

THREE_STANDPOINTS = [
    Label("release", "intent-401", "2024-07-20", "OPEN", has=("blocked",)),
    Label("release", "intent-401", "2024-08-23", "OPEN", confidence="CORROBORATED_OPEN"),
    Label("release", "intent-401", "2024-08-28", "SATISFIED", by="commit-118", tier="state"),
]

LATE_NEWS = [
    Label("late-news", "ln/audit-log", "2024-08-11", "OPEN", confidence="CORROBORATED_OPEN"),
    Label("late-news", "ln/audit-log", "2024-08-11", "SATISFIED", known="latest",
          by="ln/commit-302", tier="state"),
]  # fmt: skip

DEADLINE = [
    Label("token-rotation", "tr/deploy-token", "2024-08-25", "OPEN", lacks=("deadline_passed",)),
    Label("token-rotation", "tr/deploy-token", "2024-09-01T00:00:00Z", "OPEN",
          lacks=("deadline_passed",)),
    Label("token-rotation", "tr/deploy-token", "2024-09-02", "OPEN", has=("deadline_passed",)),
]  # fmt: skip

FOOTPRINT = [
    Label("footprint/all-channels", "fp-all/bench-fixtures", "2024-08-23", "OPEN",
          confidence="CORROBORATED_OPEN"),
    Label("footprint/missing-issues", "fp-miss/bench-fixtures", "2024-08-23", "OPEN",
          confidence="INCOMPLETE_SEARCH"),
]  # fmt: skip

GAP = [
    Label("gap", "gap/backups", "2024-08-23", "UNKNOWN", confidence="UNKNOWN"),
    Label("gap", "gap/runbook", "2024-08-23", "SATISFIED", by="gap/commit-205", tier="state"),
    Label("gap", "gap/lock-errors", "2024-08-23", "OPEN", confidence="CORROBORATED_OPEN"),
]

SECOND_DOMAIN = [
    Label("flag-disable", "fd/disable-new-checkout", "2024-10-02T09:16", "OPEN",
          confidence="CORROBORATED_OPEN"),
    Label("flag-disable", "fd/disable-new-checkout", "2024-10-02T09:30", "UNKNOWN",
          confidence="UNKNOWN"),
    Label("flag-disable", "fd/disable-new-checkout", "2024-10-02T09:45", "SATISFIED",
          by="fd/config-881", tier="state"),
]  # fmt: skip


def rows(histories: Histories) -> list[Row]:
    """Every canonical experiment except the perfect history and the snapshot."""
    out = [
        _row(histories, "Four futures: one opening, four trajectories",
             "all four resolved as labelled", FOUR_FUTURES, "fixtures/four-futures/*"),
        _row(histories, "Release scenario: six expectations, one history",
             "accuracy 1.0 on six", RELEASE, "fixtures/release"),
        _row(histories, "Backup obligation at three standpoints",
             "open, open, then satisfied", THREE_STANDPOINTS, "fixtures/release"),
        _row(histories, "Late-arriving completion, the day after",
             "two answers: believed open, actually satisfied", LATE_NEWS, "fixtures/late-news"),
        _row(histories, "Deadline: both sides of the bound",
             "open without, then with deadline_passed", DEADLINE, "fixtures/token-rotation"),
        _row(histories, "Planted sequence gap", "UNKNOWN, never a confident OPEN", GAP,
             "fixtures/gap"),
        _row(histories, "Second domain: flag disablement after an incident",
             "passes", SECOND_DOMAIN, "fixtures/flag-disable"),
    ]  # fmt: skip
    out.insert(5, footprint_row(histories))
    return out


def footprint_row(histories: Histories) -> Row:
    """The same status from two searches; only the confidence and the footprint differ."""
    hits, lines = score(histories, FOOTPRINT)
    verdicts = [histories.verdict(x.fixture, x.ident, x.at) for x in FOOTPRINT]
    searched = [ratio(*v.searched_count) for v in verdicts]
    same_status = len({v.status for v in verdicts}) == 1
    differs = verdicts[0].confidence != verdicts[1].confidence
    measured = (
        f"status {verdicts[0].status} in both; searched {searched[0]} vs {searched[1]}, "
        f"{verdicts[0].confidence} vs {verdicts[1].confidence}"
    )
    ok = hits == len(FOOTPRINT) and same_status and differs
    return Row(
        SECTION,
        "Footprint: same verdict, two searches",
        "status identical, auditability differs",
        measured,
        "fixtures/footprint/*",
        ok,
        (same_status, searched[0], searched[1]),
        tuple(lines),
    )


def snapshot_row(histories: Histories) -> Row:
    """A current-state snapshot changes reasons (confidence metadata), never a status."""
    snapshot = histories.path("gap") / "snapshot.json"
    plain = histories.status("gap", "2024-08-23")
    seen = histories.status("gap", "2024-08-23", snapshot=snapshot)
    changed = [x.id for x in plain.expectations if seen.expectation(x.id).status != x.status]
    added = [(x.id, note) for x in seen.expectations for note in snapshot_notes(x)]
    total = len(plain.expectations)
    measured = (
        f"{ratio(total - len(changed), total)} statuses unchanged; "
        f"{len(added)} snapshot reason(s) added"
    )
    return Row(
        "Maintained vs derived",
        "Snapshot condition",
        "confidence metadata only, never status",
        measured,
        "fixtures/gap (+ snapshot.json)",
        not changed and bool(added),
        (len(changed), len(added)),
        tuple(f"{ident}: {detail}" for ident, detail in added),
    )
