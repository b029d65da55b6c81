"""The mention baseline against openloop: "Open is not a keyword" and the perfect history.

On ``fixtures/mentions`` (the canonical texts) the baseline's flagged items are scored against
the oracle labels, the expectations the fixture declares: an item is a genuine find when one of
its events opens a declared expectation. On ``fixtures/perfect-history`` a history-only reader
(the last value each key was set to) passes every reconstructive check, while the mention
reader keeps the backup task open forever and openloop settles it.
"""

from __future__ import annotations

from lab.evaluation import mention_baseline as baseline
from lab.evaluation.histories import Histories
from lab.evaluation.rows import Row, ratio
from resolver import times
from resolver.language.model import Event, Project
from resolver.vocabulary import OPEN_LIKE_STATUSES, upper

#: The statuses a reader of open items lists (still owed, as far as the log shows).
_OPEN_LIKE = upper(OPEN_LIKE_STATUSES)

SECTION = "Mention baseline"
#: The end of the canonical texts' history, where every genuine obligation is settled.
END = "2024-09-02"


def _openings(project: Project) -> dict[str, str]:
    """Opening event id -> expectation id, for every labelled (declared) expectation."""
    return {x.opened_by: x.id for x in project.expectations if x.opened_by}


def _found(mention: baseline.Mention, openings: dict[str, str]) -> str | None:
    return next((openings[e] for e in mention.events if e in openings), None)


def rows(histories: Histories) -> list[Row]:
    """Detection (both strengths), the planted errors, and what each reader lists at the end."""
    name = "mentions"
    fixture = histories.label(name)
    project = histories.prepared(name).project
    openings = _openings(project)
    genuine = sorted(set(openings.values()))
    mentions = baseline.detect(project.events)
    found = {m.event: _found(m, openings) for m in mentions}
    hits = sorted({x for x in found.values() if x})
    false = [e for e, x in found.items() if x is None]
    precision = len(hits) / len(mentions) if mentions else 0.0
    missed = [x for x in genuine if x not in hits]
    closing = baseline.detect_with_closure(project.events)
    closing_hits = sorted({x for m in closing if (x := _found(m, openings))})
    closing_precision = len(closing_hits) / len(closing) if closing else 0.0
    dupes = [f"{m.event} repeated by {', '.join(m.repeats)}" for m in mentions if m.repeats]
    detection = Row(
        SECTION,
        "Mention only: genuine mentions found",
        "4 of 5 at precision 0.8",
        f"{ratio(len(hits), len(genuine))} at precision {precision:.2f}",
        fixture,
        (len(hits), len(genuine)) == (4, 5) and round(precision, 2) == 0.8,
        (len(hits), len(genuine), round(precision, 2)),
        (f"flagged: {', '.join(m.event for m in mentions)}", *dupes),
    )
    redis = [e for e in false if "redis" in (project.event(e).text or "").lower()]
    planted_fp = Row(
        SECTION,
        "Never-accepted suggestion (Redis)",
        "flagged open although never accepted",
        f"flagged: {', '.join(false) or 'none'}",
        fixture,
        bool(redis) and len(false) == 1,
        tuple(false),
    )
    planted_miss = Row(
        SECTION,
        "Issue-worded obligation (SQLite tuning)",
        "missed entirely",
        f"missed: {', '.join(missed) or 'none'}",
        fixture,
        missed == ["mn/tune"],
        tuple(missed),
    )
    second = Row(
        SECTION,
        "Mention plus closure words: genuine mentions found",
        "4 of 5 at precision 0.8",
        f"{ratio(len(closing_hits), len(genuine))} at precision {closing_precision:.2f}; closes "
        + (", ".join(f"{m.event} by {m.closed_by}" for m in closing if m.closed_by) or "none"),
        fixture,
        (len(closing_hits), len(genuine)) == (4, 5) and round(closing_precision, 2) == 0.8,
        (len(closing_hits), len(genuine), round(closing_precision, 2)),
    )
    return [detection, planted_fp, planted_miss, second, _listed_open(histories, name)]


def _listed_open(histories: Histories, name: str) -> Row:
    """Items each reader still lists as open once every genuine obligation is settled."""
    project = histories.prepared(name).project
    at = times.parse_time(END)
    only = baseline.open_items(baseline.detect(project.events, at))
    closing = baseline.open_items(baseline.detect_with_closure(project.events, at))
    resolution = histories.status(name, END)
    derived = [x.id for x in resolution.expectations if x.status in _OPEN_LIKE]
    closed = ", ".join(f"{x.id} {x.status}" for x in resolution.expectations)
    return Row(
        SECTION,
        f"Listed open at {END} (all settled)",
        "status repairs the planted false-positive, silent-completion and supersession cases",
        f"mention {len(only)}, mention+closure {len(closing)}, openloop {len(derived)}",
        histories.label(name),
        not derived and len(only) > len(closing) > 0,
        (len(only), len(closing), len(derived)),
        (f"openloop: {closed}",),
    )


def historian(events: tuple[Event, ...], at: int) -> dict[str, object]:
    """A history-only reader: the last confirmed value each key was set to by time ``at``."""
    state: dict[str, object] = {}
    for event in sorted(events, key=lambda e: (e.at, e.id)):
        if event.at <= at and event.outcome == "confirmed":
            for assignment in event.sets:
                state[assignment.key] = assignment.value
    return state


#: Reconstructive checks on the perfect history: (time, key, the value the history says).
RECONSTRUCTIVE = (
    ("2024-07-16", "staging.event_store.backend", "PostgreSQL"),
    ("2024-07-16", "event_store.backend", None),
    ("2024-08-23", "event_store.backend", "PostgreSQL"),
    ("2024-08-23", "backup.backend", None),
    ("2024-08-29T12:00", "backup.backend", "PostgreSQL"),
)
#: The seed's answer for the perfect history's migration on 2024-08-23 (status, closing
#: event): the row scores openloop's verdict, derived by the rules, against it; nothing is
#: decided here.
MIGRATION_ANSWER = ("SATISFIED", "ph/commit-116")
#: Where the mention reader is asked again: after the work, after the release, years later.
LATER = ("2024-08-29T12:00", "2024-08-31", "2030-01-01")


def perfect_history_row(histories: Histories) -> Row:
    """Every reconstructive check passes, the mention reader keeps the backups open forever."""
    name = "perfect-history"
    project = histories.prepared(name).project
    passed = sum(
        historian(project.events, times.parse_time(at)).get(key) == value
        for at, key, value in RECONSTRUCTIVE
    )
    migration = histories.verdict(name, "ph/store-migration", "2024-08-23")
    passed += (migration.status, migration.closed_by) == MIGRATION_ANSWER
    checks = len(RECONSTRUCTIVE) + 1
    reader_open = 0
    for at in LATER:
        items = baseline.open_items(
            baseline.detect_with_closure(project.events, times.parse_time(at))
        )
        reader_open += any("ph/session-051" in m.events for m in items)
    cut = histories.status(name, "2024-08-23")
    after = [histories.verdict(name, "ph/backups", at).status for at in LATER]
    caught = [f.event for f in cut.findings if f.kind == "FALSE_COMPLETION"]
    measured = (
        f"reconstructive {ratio(passed, checks)}; mention reader open at {ratio(reader_open, 3)} "
        f"later standpoints; openloop: {', '.join(sorted(set(after)))} at all three"
    )
    ok = passed == checks and reader_open == 3 and set(after) == {"SATISFIED"} and bool(caught)
    task = cut.task("ph/release-prep")
    return Row(
        "Canonical fixtures",
        "Perfect history, failed colleague",
        "every reconstructive check passes; mention reader keeps the backup task open forever",
        measured,
        histories.label(name),
        ok,
        (passed, checks, reader_open, tuple(after)),
        (
            f"at 2024-08-23 openloop: task {task.status if task else '?'}, "
            f"FALSE_COMPLETION {', '.join(caught) or 'none'}",
        ),
    )
