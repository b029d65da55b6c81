"""The plan of a synthetic history: its event skeleton, declarations and the events that act.

:class:`Planner` draws, from one ``random.Random(seed)`` over lists (never sets), the instants,
channels, ids and sequence numbers of every event, then each expectation and task with its
clauses and a plan carried out by later events (see :mod:`lab.bench.generate`, which writes
the plan out as ``project.ol`` and ``events.jsonl``).
"""

from __future__ import annotations

import bisect
import json
import random
import time
from dataclasses import dataclass

from lab.bench import vocabulary as vocab

#: The first instant of every history (2023-01-02T08:00:00Z) and its length.
START = 1_672_646_400
SPAN = 365 * 86_400

#: (channel, id prefix, share of events, has seq)
CHANNELS = (
    ("commits", "commit", 0.36, True),
    ("reviews", "review", 0.12, True),
    ("issues", "issue", 0.14, True),
    ("sessions", "session", 0.18, True),
    ("deploys", "deploy", 0.07, True),
    ("decisions", "adr", 0.01, True),
    ("ci", "ci", 0.12, False),
)
#: Channels an expectation's closing evidence may come from.
WORK = ("commits", "reviews", "issues", "deploys", "decisions")
PRINCIPALS = ("alice", "bob", "carol")
AGENTS = ("bot-1", "bot-2", "review-bot")
HUMANS = PRINCIPALS + vocab.words(
    """dave erin frank grace heidi ivan judy ken liam mia noor omar priya quinn rosa sam tara
    uma victor wen xavier yara zoe"""
)

KINDS = {
    "commits": "commit",
    "reviews": "review",
    "issues": "issue",
    "sessions": "session",
    "deploys": "deploy",
    "decisions": "decision",
    "ci": "build",
}
#: Per channel: (filler words from, to), chance to name a component, an object, a verb, a
#: value, a done word.
TEXT_MIX = {
    "commits": (3, 8, 0.35, 0.08, 0.03, 0.03, 0.12),
    "reviews": (3, 7, 0.30, 0.06, 0.02, 0.02, 0.15),
    "issues": (4, 9, 0.40, 0.10, 0.03, 0.03, 0.04),
    "sessions": (5, 12, 0.30, 0.08, 0.03, 0.03, 0.06),
    "deploys": (1, 3, 0.80, 0.02, 0.01, 0.05, 0.05),
    "decisions": (4, 9, 0.40, 0.10, 0.03, 0.03, 0.02),
    "ci": (1, 3, 0.50, 0.00, 0.00, 0.00, 0.10),
}


def stamp(unix: int) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))


def _date(unix: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(unix))


def _literal(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)


@dataclass
class _Item:
    """One expectation or obligation being generated."""

    id: str
    position: int  # index of the event (or instant) at which it opens
    clauses: list[str]
    title_words: list[str]
    want: tuple[str, str | int | bool] | None
    principals: tuple[str, ...]


@dataclass
class _TaskItem:
    id: str
    position: int
    clauses: list[str]
    obligations: list[_Item]
    principals: tuple[str, ...]


class Planner:
    """Draws the skeleton of the log, then the declarations and the events that act on them."""

    def __init__(self, events: int, expectations: int, seed: int) -> None:
        self.n = events
        self.count = expectations
        self.rng = random.Random(seed)
        rng = self.rng
        self.filler = vocab.filler_words()
        self.components = vocab.components(max(40, expectations // 2))
        self.at = sorted(START + rng.randrange(SPAN) for _ in range(events))
        names = [c[0] for c in CHANNELS]
        self.channel = rng.choices(range(len(CHANNELS)), [c[2] for c in CHANNELS], k=events)
        self.by_channel: dict[str, list[int]] = {name: [] for name in names}
        self.seq: list[int | None] = [None] * events
        self.ids: list[str] = [""] * events
        gap_at = self._gaps()
        counters = [rng.randrange(1, 500) for _ in CHANNELS]
        for i, c in enumerate(self.channel):
            name, prefix, _, numbered = CHANNELS[c]
            self.by_channel[name].append(i)
            counters[c] += 1
            if numbered:
                if i in gap_at:
                    counters[c] += rng.randint(1, 3)  # a few records never reached the log
                self.seq[i] = counters[c]
            self.ids[i] = f"{prefix}-{counters[c]}"
        self.text: dict[int, str] = {}
        self.sets: dict[int, list[tuple[str, str | int | bool]]] = {}
        self.markers: dict[int, list[tuple[str, str]]] = {}
        self.by: dict[int, str] = {}
        self.kind: dict[int, str] = {}
        self.outcome: dict[int, str] = {}
        self.keys = self._keys()
        self.releases = [i for i in self.by_channel["deploys"] if rng.random() < 0.06]
        for number, i in enumerate(self.releases):
            self.kind[i] = "release"
            self.text[i] = f"Release {number // 10 + 1}.{number % 10}"
        self.openers: set[int] = set()
        self.tasks: list[_TaskItem] = []
        self.items: list[_Item] = []

    # -- skeleton helpers -------------------------------------------------------------------

    def _gaps(self) -> set[int]:
        """Where records are missing: one gap on a work channel early in the history (it makes
        the open verdicts of expectations opened before it UNKNOWN), and a few on the session
        channel (which no expectation searches, so they only show in footprints)."""
        rng = self.rng
        work = [i for i in range(int(self.n * 0.1), int(self.n * 0.2)) if self._name(i) in WORK]
        sessions = [i for i, c in enumerate(self.channel) if CHANNELS[c][0] == "sessions"]
        chosen = set(rng.sample(work, 1)) if work else set()
        few = max(1, len(str(self.n)) - 2)
        chosen.update(rng.sample(sessions, min(few, len(sessions))))
        return chosen

    def _keys(self) -> list[tuple[str, str]]:
        """A few hundred (component, setting) keys: the state the history changes."""
        wanted = min(300, max(12, self.n // 40))
        pairs = [(c, s) for c in self.components for s in vocab.SETTINGS]
        return sorted(self.rng.sample(pairs, min(wanted, len(pairs))))

    def _next(self, channel: str, after: int, free_text: bool = False) -> int | None:
        """The first event of ``channel`` after index ``after`` (without a text yet if asked)."""
        slots = self.by_channel[channel]
        k = bisect.bisect_right(slots, after)
        while k < len(slots):
            if not free_text or slots[k] not in self.text:
                return slots[k]
            k += 1
        return None

    def _later(self, after: int, channels: tuple[str, ...], free_text: bool = False) -> int | None:
        """A work event some time after ``after``, skewed towards soon after it."""
        span = self.n - after - 1
        if span <= 0:
            return None
        start = after + int(self.rng.random() ** 2 * span)
        return self._next(self.rng.choice(channels), start, free_text)

    def _name(self, i: int) -> str:
        return CHANNELS[self.channel[i]][0]

    def _mark(self, i: int, kind: str, target: str, by: str) -> None:
        self.markers.setdefault(i, []).append((kind, target))
        self.by.setdefault(i, by)

    # -- declarations -----------------------------------------------------------------------

    def plan(self) -> None:
        """Draw tasks, expectations and obligations, and the events that act on them."""
        rng = self.rng
        task_count = max(1, self.count // 30) if self.count >= 5 else 0
        budget = min(self.count // 4, task_count * 5)
        for t in range(1, task_count + 1):
            self.tasks.append(self._task(f"task-{t}"))
        per_task = [0] * task_count
        for k in range(budget):
            per_task[k % task_count if k < 2 * task_count else rng.randrange(task_count)] += 1
        for task, size in zip(self.tasks, per_task, strict=True):
            for j in range(1, size + 1):
                task.obligations.append(self._expectation(f"{task.id}/ob-{j}", task))
        for x in range(1, self.count - budget + 1):
            self.items.append(self._expectation(f"intent-{x}", None))
        for task in self.tasks:
            self._task_claims(task)

    def _opener(self) -> int:
        """An unused session or issue event in the first 90% of the history."""
        rng = self.rng
        for _ in range(50):
            channel = "sessions" if rng.random() < 0.6 else "issues"
            i = self._next(channel, rng.randrange(max(1, int(self.n * 0.9))) - 1, free_text=True)
            if i is not None and i not in self.openers:
                self.openers.add(i)
                return i
        return self.rng.randrange(self.n)

    def _task(self, ident: str) -> _TaskItem:
        rng = self.rng
        component, obj = rng.choice(self.components), rng.choice(vocab.OBJECTS)
        clauses = [f'title "Prepare the {component} {obj} release"']
        if rng.random() < 0.7:
            position = self._opener()
            clauses.append(f"opened_by {self.ids[position]}")
            self.text[position] = f"Checklist: {component} {obj}"
        else:
            position = rng.randrange(int(self.n * 0.9))
            clauses.append(f"opened {_date(self.at[position])}")
        principals: tuple[str, ...] = ()
        if rng.random() < 0.5:
            principals = (rng.choice(PRINCIPALS),)
            clauses.append(f"principal {principals[0]}")
        return _TaskItem(ident, position, clauses, [], principals)

    def _expectation(self, ident: str, task: _TaskItem | None) -> _Item:
        rng = self.rng
        component, obj = rng.choice(self.components), rng.choice(vocab.OBJECTS)
        want = None
        title_words: list[str]
        if rng.random() < 0.75:
            c, setting = rng.choice(self.keys)
            component = c
            value = rng.choice(vocab.SETTINGS[setting])
            want = (f"{c}.{setting}", value)
            if isinstance(value, bool):
                title_words = ["Enable" if value else "Disable", "the", component, obj]
            elif isinstance(value, int):
                title_words = ["Scale", "the", component, obj, "to", str(value), "replicas"]
            else:
                verb = rng.choice(vocab.VERBS).capitalize()
                title_words = [verb, "the", component, obj, "to", value]
        else:
            title_words = [rng.choice(vocab.VERBS).capitalize(), "the", component, obj]
        title = " ".join(title_words)
        clauses = [f"title {json.dumps(title)}"]

        if task is not None and rng.random() < 0.5:
            position = task.position  # opens with its task
        elif rng.random() < 0.9:
            position = self._opener()
            clauses.append(f"opened_by {self.ids[position]}")
            # Only stop words around the title: an opening text full of common words would
            # link the expectation weakly to much of the log (the linker links on any word).
            if self._name(position) == "sessions":
                self.text[position] = f"We still need to {title[0].lower()}{title[1:]}."
            else:
                self.text[position] = title
        else:
            position = rng.randrange(int(self.n * 0.9))
            clauses.append(f"opened {stamp(self.at[position])}")
        opened_at = self.at[position]

        if want is not None:
            clauses.append(f"want {want[0]} = {_literal(want[1])}")
        if rng.random() < 0.25:
            k = bisect.bisect_right(self.releases, position)
            if k < len(self.releases):
                release = self.releases[min(len(self.releases) - 1, k + rng.randrange(3))]
                clauses.append(f"before {self.ids[release]}")
        if rng.random() < 0.45:
            clauses.append(f"deadline {_date(opened_at + rng.randrange(5, 120) * 86_400)}")
        verify = rng.random()
        for share, tier in (
            (0.15, "state"),
            (0.25, "explicit"),
            (0.40, "textual"),
            (0.45, "semantic"),
        ):
            if verify < share:
                clauses.append(f"verify {tier}")
                break
        if rng.random() < 0.25:
            chosen = sorted(
                rng.sample(("commits", "reviews", "issues", "deploys"), rng.randint(1, 3))
            )
            clauses.append(f"search {', '.join(chosen)}")
        if rng.random() < 0.05:
            c, setting = rng.choice(self.keys)
            clauses.append(
                f"superseded_when {c}.{setting} = {_literal(rng.choice(vocab.SETTINGS[setting]))}"
            )
        earlier = self.items if task is None else task.obligations
        if earlier and rng.random() < 0.08:
            clauses.append(f"requires {rng.choice(earlier).id}")
        principals = task.principals if task is not None else ()
        if rng.random() < 0.15:
            principals = (rng.choice(PRINCIPALS),)
            clauses.append(f"principal {principals[0]}")
        if rng.random() < 0.2:
            clauses.append(f"scope {rng.choice(('production', 'staging'))}")
        if rng.random() < 0.15:
            clauses.append(f"window {rng.choice(('36h', '2d', '1w'))}")
        if rng.random() < 0.08:
            clauses.append(f'matches "{component} {obj}", "nightly {obj} job"')
        item = _Item(ident, position, clauses, title_words, want, principals or PRINCIPALS)
        self._act(item, component)
        return item

    # -- events acting on declarations --------------------------------------------------------

    def _act(self, item: _Item, component: str) -> None:
        """Write the events that close, contradict, reopen or claim ``item``."""
        rng = self.rng
        after = item.position
        plan = rng.random()
        closer: int | None = None
        if plan < 0.30 and item.want is not None:
            closer = self._later(after, ("commits", "deploys"))
            if closer is not None:
                self.sets.setdefault(closer, []).append(item.want)
                luck = rng.random()
                if luck < 0.04:
                    self.outcome[closer] = "unknown"
                elif luck < 0.07:
                    self.outcome[closer] = "failed"
        elif plan < 0.42:
            closer = self._later(after, ("commits", "reviews", "decisions"))
            if closer is not None:
                who = rng.choice(AGENTS) if rng.random() < 0.15 else rng.choice(HUMANS)
                self._mark(closer, "completes", item.id, who)
        elif plan < 0.55:
            closer = self._later(after, ("commits", "reviews"), free_text=True)
            if closer is not None:
                words = " ".join(item.title_words)
                self.text[closer] = f"{words}: {' '.join(rng.choices(self.filler, k=3))}"
        elif plan < 0.65:
            closer = self._later(after, ("commits", "reviews", "issues"), free_text=True)
            if closer is not None:
                self.text[closer] = (
                    f"{rng.choice(vocab.DONE_WORDS).capitalize()}: {component} "
                    f"{' '.join(rng.choices(self.filler, k=3))}"
                )
                if rng.random() < 0.5:
                    self._mark(closer, "completes", item.id, rng.choice(AGENTS))
        elif plan < 0.75:
            kind = "cancels" if plan < 0.70 else "waives" if plan < 0.73 else "supersedes"
            closer = self._later(after, ("issues", "decisions", "commits"))
            if closer is not None:
                # One in five comes from someone without authority: a proposal.
                who = (
                    rng.choice(item.principals)
                    if rng.random() < 0.8
                    else rng.choice(AGENTS + HUMANS[3:])
                )
                self._mark(closer, kind, item.id, who)
        if closer is not None and rng.random() < 0.05:
            again = self._later(closer, ("issues", "decisions"))
            if again is not None:
                self._mark(again, "reopens", item.id, rng.choice(item.principals))
        if item.want is not None and rng.random() < 0.06:
            other = self._later(closer if closer is not None else after, ("commits", "deploys"))
            key, value = item.want
            setting = key.rsplit(".", 1)[1]
            different = [v for v in vocab.SETTINGS[setting] if v != value]
            if other is not None and different:
                self.sets.setdefault(other, []).append((key, rng.choice(different)))
        if rng.random() < 0.03:
            claim = self._later(after, ("sessions", "issues"))
            if claim is not None:
                self._mark(claim, "claims_complete", item.id, rng.choice(AGENTS))
        if rng.random() < 0.02:
            pending = self._later(after, ("sessions", "issues"))
            if pending is not None:
                self._mark(pending, "reports_pending", item.id, rng.choice(HUMANS))

    def _task_claims(self, task: _TaskItem) -> None:
        if self.rng.random() < 0.6:
            claim = self._later(task.position, ("sessions",))
            if claim is not None:
                self._mark(claim, "claims_complete", task.id, self.rng.choice(AGENTS))
