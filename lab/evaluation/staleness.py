"""Maintained vs derived: the real ledger against on-demand derivation.

Quality: for every standpoint the canonical experiments use, a ledger refreshed there must hold
exactly the verdict that derivation gives, for every expectation, and list exactly the
expectations derivation finds open.

Staleness: the release history's log grows cycle by cycle (each cycle's file holds the events
recorded by then, as a live log would), while closing evidence lands between refreshes. Two
maintenance policies run through :mod:`resolver.ledger` in their own databases: a list refreshed
once and never re-checked, and a list re-verified (refreshed) at every cycle before it is read.
At each cycle after the first, the list is compared with derivation on the log as it stands: a
cycle is *stale-open* when the list still shows an expectation that derivation has closed.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from lab.evaluation import canonical, mentions
from lab.evaluation.histories import Histories
from lab.evaluation.rows import Row, ratio
from resolver import api, ledger, times
from resolver.verdicts.resolution import ExpectationVerdict
from resolver.vocabulary import OPEN_LIKE_STATUSES, upper

#: The statuses a reader of open items lists (still owed, as far as the log shows).
_OPEN_LIKE = upper(OPEN_LIKE_STATUSES)

SECTION = "Maintained vs derived"
#: Refresh cycles of the simulation: one before the backups' closing evidence, three after.
CYCLES = ("2024-08-23", "2024-08-28", "2024-09-04", "2024-09-11")
#: How old a check may be before the list calls it stale (one cycle).
STALE_AFTER = 7 * 86_400


def _standpoints() -> list[tuple[str, str, str | None]]:
    """Every (fixture, at, known) the canonical experiments read, once each."""
    labels = [
        *canonical.FOUR_FUTURES,
        *canonical.RELEASE,
        *canonical.THREE_STANDPOINTS,
        *canonical.LATE_NEWS,
        *canonical.DEADLINE,
        *canonical.FOOTPRINT,
        *canonical.GAP,
        *canonical.SECOND_DOMAIN,
    ]
    seen = dict.fromkeys((x.fixture, x.at, x.known) for x in labels)
    seen[("mentions", mentions.END, None)] = None
    seen[("perfect-history", "2024-08-23", None)] = None
    seen[("perfect-history", "2024-08-29T12:00", None)] = None
    return list(seen)


def _same(check: ledger.Verdict, derived: ExpectationVerdict) -> bool:
    return (check.status, check.confidence, check.closed_by, check.tier, check.flags) == (
        derived.status,
        derived.confidence,
        derived.closed_by,
        derived.tier,
        derived.flags,
    )


def quality_row(histories: Histories) -> Row:
    """Ledger and derivation agree on every canonical expectation at every canonical standpoint."""
    agree = total = 0
    lists_agree = lists = 0
    disagreements: list[str] = []
    with tempfile.TemporaryDirectory(prefix="openloop-eval-") as folder:
        read: dict[str, ledger.History] = {}
        for k, (name, at, known) in enumerate(_standpoints()):
            if name not in read:
                read[name] = ledger.read([histories.path(name)])
            db = Path(folder) / f"q{k}.db"
            ledger.refresh(db, read[name], at=at, known=known)
            derived = histories.status(name, at, known)
            for verdict in derived.expectations:
                checks = ledger.history(db, verdict.id)
                total += 1
                if checks and _same(checks[-1].verdict, verdict):
                    agree += 1
                else:
                    disagreements.append(f"{name} {verdict.id} at {at}")
            listed = [e.id for e in ledger.open_list(db, check_log=False)]
            is_open = [x.id for x in derived.expectations if x.status in _OPEN_LIKE]
            lists += 1
            lists_agree += listed == sorted(is_open)
    return Row(
        SECTION,
        "Quality: maintained list vs full derivation",
        "agrees exactly on every canonical expectation",
        f"{ratio(agree, total)} verdicts, {ratio(lists_agree, lists)} open lists identical",
        f"{len({s[0] for s in _standpoints()})} canonical fixtures, {lists} standpoints",
        agree == total and lists_agree == lists,
        (agree, total, lists_agree, lists),
        tuple(disagreements[:5]),
    )


def _grow(source: Path, target: Path, until: int) -> None:
    """Write the log as it stood at ``until``: the events recorded by then, in file order."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.strip():
            event = json.loads(line)
            recorded = times.parse_time(event.get("recorded", event["at"]))
            if recorded <= until:
                lines.append(line)
    text = "\n".join(lines) + ("\n" if lines else "")
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        temporary = target.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)


def simulate(histories: Histories, fixture: str = "release") -> dict[str, object]:
    """Run both policies over :data:`CYCLES`; per cycle, what the list shows and what is true."""
    source = histories.path(fixture)
    cycles: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="openloop-eval-") as folder:
        work = Path(folder) / fixture
        shutil.copytree(source, work, ignore=shutil.ignore_patterns("*.jsonl"))
        logs = sorted(source.glob("*.jsonl"))
        never, always = Path(folder) / "never.db", Path(folder) / "always.db"
        first_open: list[str] = []
        for k, cycle in enumerate(CYCLES):
            now = times.parse_time(cycle)
            for log in logs:
                _grow(log, work / log.name, now)
            if k == 0:
                ledger.refresh(never, [work], at=now, checked_at=now)
            ledger.refresh(always, [work], at=now, checked_at=now)
            derived = api.status(api.prepare([work]), at=now, reasons=False)
            closed = {x.id for x in derived.expectations if x.status not in _OPEN_LIKE}
            stale = ledger.open_list(never, stale_after=STALE_AFTER, now=now, paths=[work])
            fresh = ledger.open_list(always, stale_after=STALE_AFTER, now=now, paths=[work])
            if k == 0:
                first_open = [e.id for e in stale]
            cycles.append(
                {
                    "cycle": cycle,
                    "post_closure": k > 0 and bool(closed & set(first_open)),
                    "never": [e.id for e in stale if e.id in closed],
                    "never_flagged": [e.id for e in stale if not e.fresh],
                    "always": [e.id for e in fresh if e.id in closed],
                    "always_flagged": [e.id for e in fresh if not e.fresh],
                }
            )
    return {"fixture": fixture, "first_open": first_open, "cycles": cycles}


def staleness_rows(histories: Histories) -> list[Row]:
    """The never-rechecked list and the re-verified list, over the post-closure cycles."""
    result = simulate(histories)
    post = [c for c in result["cycles"] if c["post_closure"]]
    never = sum(bool(c["never"]) for c in post)
    always = sum(bool(c["always"]) for c in post)
    flagged = sum(bool(c["never_flagged"]) for c in post if c["never"])
    fixture = f"fixtures/{result['fixture']} (log grown per cycle)"
    notes = tuple(
        f"{c['cycle']}: never re-checked lists as open {', '.join(c['never']) or 'nothing'} "
        f"that derivation has closed; re-verified lists {', '.join(c['always']) or 'nothing'}"
        for c in result["cycles"]
    )
    return [
        Row(
            SECTION,
            "Staleness: list never re-checked",
            "3 of 3 post-closure cycles stale-open",
            f"{ratio(never, len(post))} post-closure cycles stale-open "
            f"({ratio(flagged, never)} flagged stale by the ledger)",
            fixture,
            len(post) == 3 and never == 3,
            (never, len(post)),
            notes,
        ),
        Row(
            SECTION,
            "Staleness: mandatory re-verification",
            "repairs all three",
            f"{ratio(always, len(post))} post-closure cycles stale-open",
            fixture,
            len(post) == 3 and always == 0,
            (always, len(post)),
        ),
    ]
