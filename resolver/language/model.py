"""The typed, immutable model of what users write: declarations, events and test blocks.

The parser (``language.py``) produces these objects; a project's events are held as columns
(``event_columns.py``, filled straight from JSON lines by ``eventlog.py``) that build an
:class:`Event` on access, so every consumer still reads events as these objects. Times are Unix
seconds (UTC) and durations are seconds; each object keeps the :class:`Location` it came from so
that messages and explanations can point back into the user's file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, count
from operator import lt
from typing import Any

from resolver.errors import Location

# The tiers and outcomes are re-exported: the parser and the log readers take them from here.
from resolver.vocabulary import CHANNEL_ROLES, MARKERS
from resolver.vocabulary import OUTCOMES as OUTCOMES
from resolver.vocabulary import TIERS as TIERS

#: A value on the right of ``key = value``.
Value = str | int | bool

#: Marker clauses an event may carry, in the order the spec lists them (the vocabulary's).
MARKER_KINDS = MARKERS
#: Clauses of an ``event`` block, which are also the fields of a JSON line (besides ``id``).
EVENT_CLAUSES = (
    "channel",
    "seq",
    "at",
    "recorded",
    "by",
    "kind",
    "text",
    "set",
    "files",
    *MARKER_KINDS,
    "outcome",
    "notes",
)
#: Channel roles (the vocabulary's).
ROLES = CHANNEL_ROLES


@dataclass(frozen=True)
class Assignment:
    """``key = value``: a wanted state, a state an event sets, or a ``superseded_when`` state."""

    key: str
    value: Value


@dataclass(frozen=True)
class Marker:
    """An event's marker clause naming one expectation or task (``completes intent-401``)."""

    kind: str
    target: str


@dataclass(frozen=True)
class Channel:
    """``channel NAME [mention|work] [authoritative]``; ``role`` is None when not declared."""

    name: str
    role: str | None
    authoritative: bool
    location: Location


@dataclass(frozen=True)
class Actor:
    """``actor NAME principal|agent``, or ``actor "PATTERN" ...`` (``*`` = any characters)."""

    name: str
    role: str
    location: Location
    #: Declared by a quoted pattern: applies to every ``by`` it matches that no plain
    #: declaration names (matched in ``resolver/facts/actor_patterns.py``).
    pattern: bool = False


@dataclass(frozen=True)
class Alias:
    """``alias WORD WORD...``: words the text linker treats as one (the first is canonical)."""

    words: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class Expectation:
    """An ``expectation`` block, or an ``obligation`` inside a task (``part_of`` set to it)."""

    id: str
    location: Location
    title: str | None = None
    opened_by: str | None = None
    opened: int | None = None
    want: Assignment | None = None
    before: str | None = None
    deadline: int | None = None
    verify: str | None = None
    search: tuple[str, ...] = ()
    superseded_when: Assignment | None = None
    requires: tuple[str, ...] = ()
    part_of: str | None = None
    principals: tuple[str, ...] = ()
    scope: str | None = None
    window: int | None = None
    matches: tuple[str, ...] = ()
    is_obligation: bool = False
    #: ``within DURATION``: a deadline that many seconds after the opening.
    within: int | None = None
    #: ``before next kind KIND``: bounded by the earliest visible event of that kind after the
    #: opening.
    before_next_kind: str | None = None
    #: ``want touches "GLOB"``: the wanted transition is a work event whose ``files`` match.
    want_touches: str | None = None


@dataclass(frozen=True)
class Task:
    """A ``task`` block; its obligations are also listed among the project's expectations."""

    id: str
    location: Location
    title: str | None = None
    opened_by: str | None = None
    opened: int | None = None
    principals: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    scope: str | None = None
    obligations: tuple[str, ...] = ()
    #: ``task ID from TEMPLATE``: the template its obligations were expanded from.
    template: str | None = None


@dataclass(frozen=True)
class Event:
    """One event of the log, from an ``event`` block or a JSON line.

    ``recorded`` is always filled: it defaults to ``at`` when the source leaves it out.
    """

    id: str
    channel: str
    at: int
    recorded: int
    location: Location
    seq: int | None = None
    by: str | None = None
    kind: str | None = None
    text: str | None = None
    sets: tuple[Assignment, ...] = ()
    markers: tuple[Marker, ...] = ()
    outcome: str = "confirmed"
    #: Paths the event touched (``files``), duplicates dropped, in the order given.
    files: tuple[str, ...] = ()
    #: Words the event attaches to keys (JSON ``"notes": {KEY: TEXT}``, ``note KEY "TEXT"``):
    #: an importer's human wording of what a key stands for (a TODO comment's own words), read
    #: by a policy title's ``$note`` (SPEC §5.1). ``(key, text)`` pairs in the order given.
    notes: tuple[tuple[str, str], ...] = ()

    def note(self, key: str) -> str | None:
        """The text this event attaches to ``key``, if any."""
        for name, text in self.notes:
            if name == key:
                return text
        return None

    def content(self) -> tuple:
        """Everything but the location: two records of one event agree iff these are equal."""
        return (
            self.id,
            self.channel,
            self.at,
            self.recorded,
            self.seq,
            self.by,
            self.kind,
            self.text,
            tuple(sorted(self.sets, key=repr)),
            tuple(sorted(self.markers, key=repr)),
            self.outcome,
            tuple(sorted(self.files)),
            tuple(sorted(self.notes)),
        )


@dataclass(frozen=True)
class Condition:
    """One ``when`` condition of a policy, on one event.

    ``kind`` is ``channel``, ``kind``, ``by`` (``operand`` a name), ``set`` (``operand`` a key,
    or a key prefix ending in ``*``; ``value`` the wanted value when ``has_value``), ``touches``
    (``operand`` a glob) or ``text`` (``operand`` a phrase). ``negated`` for ``when not ...``.
    """

    kind: str
    operand: str
    location: Location
    negated: bool = False
    has_value: bool = False
    value: Value | None = None


@dataclass(frozen=True)
class Policy:
    """``policy ID { when ... CLAUSES }``: every trigger event opens one instance.

    ``shape`` holds the clauses each instance gets (its id is the policy's; keys, values and
    the title may hold ``$`` substitutions). ``opens`` names a template instead: each trigger
    then opens a task instance. ``keyed`` is the index in ``conditions`` of the ``when set``
    condition that ``$key``, ``$value`` and ``$1`` read (the first positive one), if any.
    """

    id: str
    location: Location
    conditions: tuple[Condition, ...]
    shape: Expectation
    opens: str | None = None
    opens_location: Location | None = None
    keyed: int | None = None
    #: The index in ``conditions`` of the ``when touches`` whose matched paths each open an
    #: instance (``POLICY/EVENT/PATH``), when ``$path`` or ``$1``, ... read it; None: one
    #: instance per trigger (or per key).
    path_cond: int | None = None

    @property
    def per_key(self) -> bool:
        """One instance per matched key: the keyed pattern ends in ``*``."""
        return self.keyed is not None and self.conditions[self.keyed].operand.endswith("*")


@dataclass(frozen=True)
class Template:
    """``template ID { ... obligation NAME { ... } }``: a task shape.

    ``task`` holds the task-level clauses (title, opening, principal, requires, scope);
    ``obligations`` the obligation shapes, each with its local NAME as id, ``requires`` naming
    siblings by NAME, and ``$task`` substitutions left in keys and values.
    """

    id: str
    location: Location
    task: Task
    obligations: tuple[Expectation, ...]


@dataclass(frozen=True)
class StandpointClause:
    """``at T [known K|latest]`` as written in a test block.

    Here ``known`` None means "same as at" and ``known_latest`` marks ``known latest``; the test
    runner turns a clause into the engine's ``Standpoint`` (where ``known`` None means latest).
    """

    at: int
    known: int | None
    known_latest: bool
    location: Location


@dataclass(frozen=True)
class Assertion:
    """One ``expect`` line of a test block.

    ``kind`` is one of ``status`` (value: a status word, optional ``by`` and ``tier``),
    ``confidence`` (value: a class), ``has`` / ``lacks`` (value: a flag), ``task`` (value:
    COMPLETE|INCOMPLETE|UNKNOWN) or ``finding`` (value: false_completion|false_pending, target:
    the claim event). Words are normalised: statuses and classes upper case, flags and tiers
    lower case.
    """

    kind: str
    target: str
    value: str
    location: Location
    by: str | None = None
    tier: str | None = None


@dataclass(frozen=True)
class TestBlock:
    """``test "name" { ... }``: standpoints and assertions in source order."""

    name: str
    steps: tuple[StandpointClause | Assertion, ...]
    location: Location

    __test__ = False  # not a pytest class


@dataclass(frozen=True)
class Project:
    """Declarations and events: of one ``.ol`` file, or of every path a command names.

    The parser returns one file's in source order (``sources`` holds its name; obligations sit
    in ``expectations`` beside standalone expectations; tasks ``from`` a template are not
    expanded yet); the loader merges every file's and the JSON-lines logs' into one, validated.
    """

    channels: tuple[Channel, ...] = ()
    actors: tuple[Actor, ...] = ()
    aliases: tuple[Alias, ...] = ()
    tasks: tuple[Task, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    #: The events, as columns (``event_columns.py``): a sequence that builds each ``Event``
    #: on access; any sequence of events given here is converted.
    events: Sequence[Event] = ()
    tests: tuple[TestBlock, ...] = ()
    sources: tuple[str, ...] = field(default=())
    templates: tuple[Template, ...] = ()
    policies: tuple[Policy, ...] = ()
    #: Would-be policy instances (expectations, obligations and tasks with their substituted
    #: clauses), by id: filled when the facts are built (``resolver/facts/policies.py``), so that
    #: every face can read an instance like a declaration. Which of them exist at a standpoint
    #: is the rules' answer (``instance/3`` atoms), never this table's.
    derived: dict[str, Expectation | Task] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        from resolver.language.event_columns import EventColumns  # it imports this module

        if not isinstance(self.events, EventColumns):
            object.__setattr__(self, "events", EventColumns.from_events(self.events))

    def expectation(self, ident: str) -> Expectation | None:
        """The expectation or obligation with this id, if declared (or a policy instance)."""
        found = self._by_id[0].get(ident)
        derived = self.derived.get(ident)
        return found or (derived if isinstance(derived, Expectation) else None)

    def task(self, ident: str) -> Task | None:
        """The task with this id, if declared (or a task instance)."""
        found = self._by_id[1].get(ident)
        derived = self.derived.get(ident)
        return found or (derived if isinstance(derived, Task) else None)

    def event(self, ident: str) -> Event | None:
        """The event with this id, if present (the first, in a parsed file that repeats one)."""
        row = self.events.position(ident)  # type: ignore[attr-defined]
        return None if row is None else self.events[row]

    def marked_events(self) -> Iterator[Event]:
        """The events that carry a marker, in order (built for those rows only)."""
        events: Any = self.events
        # One C-level pass over the marker columns: the hook and the grouping ask on each claim.
        for row in compress(count(), map(lt, events.marker_start, events.marker_end)):
            yield events[row]

    @cached_property
    def _by_id(self) -> tuple[dict[str, Expectation], dict[str, Task]]:
        """Ids to declarations, built on first use: a lookup per reason must not scan them (it
        made ``status --format json`` of 100k events quadratic); events have their own index."""
        tables: tuple[dict, dict] = ({}, {})
        for table, items in zip(tables, (self.expectations, self.tasks), strict=True):
            for item in items:
                table.setdefault(item.id, item)
        return tables
