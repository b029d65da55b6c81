"""The order of the first screen (SPEC §4): which items are outstanding, in what order they are
listed (earliest bound first, then ids in natural order), and the one summary line that counts
every status. Shared by the table, the Markdown face and ``check``'s text.

Nothing here decides a status: the outstanding statuses are the rules' ``unsettled_status``
class (``rules/vocabulary.lp``, mirrored in :mod:`resolver.vocabulary`); the order is
presentation.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from resolver import vocabulary
from resolver.verdicts.resolution import ExpectationVerdict, Resolution, TaskVerdict
from resolver.vocabulary import CLOSED_STATUSES, STATUSES, TASK_STATUSES, UNSETTLED_STATUSES, upper

#: Outstanding expectation statuses: the rules' ``unsettled_status`` class (OPEN, UNKNOWN,
#: NOT_OPENED), upper case as output prints them.
OUTSTANDING = frozenset(upper(UNSETTLED_STATUSES))
#: A task is outstanding until it is COMPLETE: INCOMPLETE, or UNKNOWN (an obligation's verdict
#: is unknown), just as an UNKNOWN expectation is outstanding.
TASK_DONE = vocabulary.TASK_DONE.upper()
#: The statuses of an outstanding task.
OUTSTANDING_TASK = frozenset(upper(vocabulary.TASK_OUTSTANDING))
_DIGITS = re.compile(r"([0-9]+)")
#: The summary counts outstanding statuses first, then the closed ones (then any other).
_ORDER = (
    *UNSETTLED_STATUSES,
    *CLOSED_STATUSES,
    *(w for w in STATUSES if w not in UNSETTLED_STATUSES + CLOSED_STATUSES),
)


def natural_key(ident: str) -> tuple:
    """Ids in natural order: runs of digits compare as numbers (``issue-9`` < ``issue-10``),
    the raw id breaks ties (``a01`` and ``a1``)."""
    parts = _DIGITS.split(ident)  # alternates text, digits, text, ...: the types line up
    return (tuple(int(p) if i % 2 else p for i, p in enumerate(parts)), ident)


def _bound_key(bound: int | None, ident: str) -> tuple:
    """Earliest bound first, unbounded last, then natural id order."""
    return (bound is None, bound or 0, natural_key(ident))


def task_bound(resolution: Resolution, task: TaskVerdict) -> int | None:
    """The earliest bound among a task's outstanding obligations (None: none is bounded)."""
    bounds = []
    for ident in task.outstanding:
        verdict = resolution.expectation(ident)
        if verdict is not None and verdict.bound is not None:
            bounds.append(verdict.bound)
    return min(bounds, default=None)


def outstanding_items(resolution: Resolution) -> list[ExpectationVerdict | TaskVerdict]:
    """Outstanding expectations and tasks, earliest bound first, then ids in natural order."""
    keyed: list[tuple[tuple, ExpectationVerdict | TaskVerdict]] = [
        (_bound_key(v.bound, v.id), v) for v in resolution.expectations if v.status in OUTSTANDING
    ]
    keyed += [
        (_bound_key(task_bound(resolution, t), t.id), t)
        for t in resolution.tasks
        if t.status != TASK_DONE
    ]
    return [item for _, item in sorted(keyed, key=lambda pair: pair[0])]


def closed_items(resolution: Resolution) -> list[ExpectationVerdict | TaskVerdict]:
    """Closed expectations, then complete tasks, each in natural id order."""
    done = [v for v in resolution.expectations if v.status not in OUTSTANDING]
    tasks = [t for t in resolution.tasks if t.status == TASK_DONE]
    return [
        *sorted(done, key=lambda v: natural_key(v.id)),
        *sorted(tasks, key=lambda t: natural_key(t.id)),
    ]


def _counts(statuses: Iterable[str], order: Iterable[str]) -> str:
    counted = Counter(statuses)
    return ", ".join(f"{counted[w.upper()]:,} {w.upper()}" for w in order if counted[w.upper()])


def summary_line(resolution: Resolution) -> str:
    """``32 outstanding; 168 expectations: 32 OPEN, 115 SATISFIED, 21 SUPERSEDED; 1 task: 1
    INCOMPLETE``: every status counted, closed ones included, in the spec's order; one line
    (wider than 80 columns only when many statuses occur at once)."""
    parts = [f"{len(outstanding_items(resolution)):,} outstanding"]
    xs = resolution.expectations
    parts.append(f"{noun(len(xs), 'expectation')}: {_counts((v.status for v in xs), _ORDER)}")
    if resolution.tasks:
        tasks = _counts((t.status for t in resolution.tasks), TASK_STATUSES)
        parts.append(f"{noun(len(resolution.tasks), 'task')}: {tasks}")
    if resolution.findings:
        parts.append(noun(len(resolution.findings), "finding"))
    return "; ".join(parts).replace(": ;", ";").rstrip(": ")


def noun(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
