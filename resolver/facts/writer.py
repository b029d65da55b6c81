"""Turning a :class:`~resolver.language.model.Project` into clingo facts made only of integers.

Every id, key, value, channel and actor is interned to an integer (``interning.py``: events even,
in the log's reading order, ``numbering.py``; every other name odd, in the order first met, the
events' names in reading order too, so that an append shifts no number); the only
symbolic constants written are the fixed vocabulary of the language (tiers, marker kinds, roles),
which come from this module and never from input. Times are encoded by ``times.encode`` and every
integer is range-checked, so no input can change or break the program.

Facts fall into three texts, each built once per history:

* ``declarations``: channels, actors, expectations and tasks (read by both parts);
* ``events``: the events that matter to the standpoint-independent rules (``prepare`` part);
* ``links``: the text linker's measurements (``prepare``, and explanations at a standpoint);
* ``channel_log``: per-channel times and sequence numbers in blocks, for footprints and gaps
  (``standpoint``; see ``channel_log.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import cast

from resolver import times
from resolver.facts.actor_patterns import matches_by_pattern
from resolver.facts.channel_log import DEFAULT_BLOCK_SIZE, ChannelLog
from resolver.facts.event_rows import relevant_event_ids, rows_to_read
from resolver.facts.interning import INT_MAX, INT_MIN, Interner, check_int
from resolver.facts.linker import Link, TextLinker, Vocabulary
from resolver.facts.names import Names
from resolver.facts.numbering import event_numbers, reading_order
from resolver.facts.policies import Ids, PolicyFacts, measure
from resolver.language.event_columns import NO_SEQ, EventColumns
from resolver.language.model import MARKER_KINDS, OUTCOMES, TIERS, Expectation, Project, Value

_CONSTANTS = (
    frozenset(MARKER_KINDS)
    | frozenset(TIERS)
    | frozenset(OUTCOMES)
    | {"mention", "work", "principal", "agent"}
)


def _const(word: str) -> str:
    """A symbolic constant from the language's fixed vocabulary (never from user text)."""
    if word not in _CONSTANTS:
        raise ValueError(f"{word!r} is not part of the fixed vocabulary")
    return word


def _time(unix: int) -> int:
    return times.encode(unix)


#: The range of encoded instants (the event columns hold times encoded).
_LOWEST, _HIGHEST = times.encode(times.MIN_UNIX), times.encode(times.MAX_UNIX)


def _columns(project: Project) -> EventColumns:
    """The project's events as columns (``Project`` converts any sequence it is given)."""
    return cast(EventColumns, project.events)


@dataclass
class FactBase(Names):
    """The integer facts of one history and the interner that maps them back to text."""

    interner: Interner
    declarations: str
    events: str
    channel_log: ChannelLog
    links: str = ""
    #: Per word of the expectations' titles and opening texts, how many texts hold it
    #: (:meth:`TextLinker.linking_counts`): what an append needs of the linker's index.
    word_counts: dict[str, int] | None = None


class _Writer:
    """Collects fact lines with every integer checked."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def fact(self, name: str, *args: int | str) -> None:
        parts = []
        for arg in args:
            if isinstance(arg, int):
                parts.append(str(check_int(arg, name)))
            else:
                parts.append(_const(arg))
        self.lines.append(f"{name}({','.join(parts)}).")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def build(project: Project, reduce: bool = True, block_size: int | None = None) -> FactBase:
    """Intern the project and render its three fact texts.

    With ``reduce`` (the default) the ``prepare`` part sees only the events that could touch an
    expectation (:func:`relevant_event_ids`); without it, every event (the plain path that the
    equivalence tests compare against).
    """
    columns = _columns(project)
    order = reading_order(columns, project.sources)
    interner, numbers = event_numbers(columns, order)

    def item(ident: str) -> int:
        return interner.intern(("item", ident))

    def channel(name: str) -> int:
        return interner.intern(("channel", name))

    def actor(name: str | None) -> int:
        return 0 if name is None else interner.intern(("actor", name))

    def key(name: str) -> int:
        return interner.intern(("key", name))

    def value(raw: Value) -> int:
        return interner.intern(("value", type(raw).__name__, raw))

    def event(ident: str) -> int:
        return interner.intern(("event", ident))

    decl = _Writer()
    for declared in project.channels:
        number = channel(declared.name)
        decl.fact("channel", number)
        decl.fact("declared_channel", number)
        if declared.role:
            decl.fact("declared_role", number, _const(declared.role))
        if declared.authoritative:
            decl.fact("authoritative", number)
    for declared in project.actors:
        if declared.pattern:
            continue
        number = actor(declared.name)
        decl.fact("actor", number)
        decl.fact("actor_role", number, _const(declared.role))
    _actor_patterns(decl, project, interner, actor)

    for task in project.tasks:
        number = item(task.id)
        decl.fact("task", number)
        _opening(decl, number, task.opened_by, task.opened, event)
        for name in task.principals:
            decl.fact("principal", number, actor(name))
        for required in task.requires:
            decl.fact("requires", number, item(required))

    for expectation in project.expectations:
        _expectation(decl, expectation, item, event, channel, actor, key, value)
        _new_clauses(decl, expectation, item(expectation.id), interner.intern)

    policy = PolicyFacts()
    if project.policies or any(x.want_touches or x.before_next_kind for x in project.expectations):
        ids = Ids(item, event, channel, actor, key, value, interner.intern)
        policy = measure(project, ids, Vocabulary.from_aliases(project.aliases))
    asked = _asked(project, columns, policy.linkable)
    # Told what it will be asked, the linker searches a scope's few words instead of indexing
    # every text's words (the same links).
    linker = TextLinker(columns, project.aliases, asked=asked)
    linked: set[str] = set(policy.relevant)
    links = _Writer()
    for expectation, opening_text in asked:
        number = item(expectation.id)
        for link in linker.links(expectation, opening_text):
            linked.add(link.event)
            _link_facts(links.lines, number, event(link.event), link)
    for event_id in sorted(linked):
        if linker.is_merge(event_id):
            links.fact("merge_kind", event(event_id))
    relevant = relevant_event_ids(project, linked) if reduce else None
    # A cue is written for relevant events only, so only their texts are read for one.
    for event_id in sorted(linker.done_cue_events(relevant)):
        links.fact("done_cue", event(event_id))

    evs = _Writer()
    chans = _event_lines(
        evs, columns, (numbers, order), relevant, (channel, actor, key, value, item)
    )
    # After the rows: a `sessions` channel only the log names is interned where it first does.
    if "sessions" in {c.name for c in project.channels} | columns.channel_names():
        decl.fact("sessions_channel", channel("sessions"))
    evs.fact("actor", 0)
    evs.lines.extend(policy.lines)
    for name in sorted(columns.channel_names()):
        decl.fact("channel", channel(name))
    if block_size is None:
        block_size = DEFAULT_BLOCK_SIZE if reduce else 1
    log = ChannelLog.from_columns(chans, columns.seq, columns.at, columns.recorded, block_size)
    counts = linker.linking_counts(linker.linking_words(asked))
    return FactBase(interner, decl.text(), evs.text(), log, links.text(), counts)


def _asked(
    project: Project, columns: EventColumns, linkable: list[tuple[Expectation, str | None]]
) -> list[tuple[Expectation, str | None]]:
    """Every expectation the linker measures (declared, then policies' would-be instances), with
    the text of its opening event (an instance's comes with it)."""
    declared = [(x, None) for x in project.expectations]
    pairs = [*declared, *linkable]
    sources = {
        expectation.opened_by or _task_opener(project, expectation)
        for expectation, instance_opening in pairs
        if instance_opening is None
    }
    ids = columns.ids
    rows = compress(range(len(ids)), map(sources.__contains__, ids))
    openers = {ids[row]: row for row in rows}  # the last record of an id
    asked = []
    for expectation, instance_opening in pairs:
        opening_text = instance_opening
        source = expectation.opened_by or _task_opener(project, expectation)
        if instance_opening is None and source and source in openers:
            opening_text = columns.texts[openers[source]]
        asked.append((expectation, opening_text))
    return asked


def _link_facts(lines: list[str], number: int, ev: int, link: Link) -> None:
    """The facts of one measured link, written directly (one line per fact, the hot path).

    Both ids come checked from the interner; every count is of words in one text, and the
    linker checks each text's word count (titles, opening texts, event texts) against clingo's
    integer range.
    """
    if link.title_overlap:
        lines.append(f"overlap({number},{ev},1,{link.title_overlap[0]},{link.title_overlap[1]}).")
    if link.opening_overlap:
        shared, total = link.opening_overlap
        lines.append(f"overlap({number},{ev},2,{shared},{total}).")
    if link.phrase_hit:
        lines.append(f"phrase_hit({number},{ev}).")
    if link.names_value:
        lines.append(f"names_value({number},{ev}).")
    if link.names_id:
        lines.append(f"names_id({number},{ev}).")
    if link.coverage:
        lines.append(f"covered({number},{ev},{link.coverage[0]},{link.coverage[1]}).")


def _actor_patterns(decl: _Writer, project: Project, interner: Interner, actor) -> None:
    """``pattern_role(P, Role)`` and ``pattern_match(P, A)`` for every quoted actor pattern."""
    patterns = [a for a in project.actors if a.pattern]
    if not patterns:
        return
    matched = matches_by_pattern(patterns, _columns(project).actors())
    for declared in patterns:
        number = interner.intern(("pattern", declared.name))
        decl.fact("pattern_role", number, _const(declared.role))
        for by in matched[declared.name]:
            decl.fact("actor", actor(by))
            decl.fact("pattern_match", number, actor(by))


def _event_lines(evs: _Writer, columns: EventColumns, numbering, relevant, ids) -> list[int]:
    """The ``event`` facts (and their sets, markers, outcomes) of the relevant events, read
    from the columns; returns each row's interned channel, for the channel log.

    The rows are read in the log's reading order (``numbering``: each row's event number and
    the rows in that order, None when they are), and names interned as each row meets them
    (channels, then that event's actor, keys, values and marker targets): an appended event's
    names come after every name of the events before it. Only the relevant rows and each
    channel's first row are read one by one when every time and sequence number is in range
    (checked on whole columns); otherwise every row is, so that the first row out of range
    raises as it always did.
    """
    event_numbers, order = numbering
    channel, actor, key, value, item = ids
    strings, values = columns.strings, columns.values
    by_column, outcome_column = columns.by, columns.outcome
    set_keys, set_values = columns.set_key, columns.set_value
    kinds, targets = columns.marker_kind, columns.marker_target
    ats, recs, seqs, channels = columns.at, columns.recorded, columns.seq, columns.channel
    idents = columns.ids
    confirmed = columns.find_string("confirmed")
    channel_numbers: dict[int, int] = {}
    #: The events written at each instant (id, number): the instants two share get ranks.
    at_instant: dict[int, list[tuple[str, int]]] = {}
    for row in rows_to_read(columns, relevant, order, event_numbers):
        ident = idents[row]
        number = event_numbers[row]
        c = channels[row]
        ch = channel_numbers.get(c)
        if ch is None:
            ch = channel_numbers[c] = channel(strings[c])
        at, rec = ats[row], recs[row]
        if not (_LOWEST <= at <= _HIGHEST and _LOWEST <= rec <= _HIGHEST):
            _time(times.decode(at))  # raises: the instant cannot be encoded
            _time(times.decode(rec))
        if relevant is None or ident in relevant:
            b = by_column[row]
            by = None if b < 0 else strings[b]
            evs.fact("event", number, ch, at, rec, actor(by))
            at_instant.setdefault(at, []).append((ident, number))
            if by is not None:
                evs.fact("actor", actor(by))
            if outcome_column[row] != confirmed:
                evs.fact("outcome", number, _const(strings[outcome_column[row]]))
            for j in columns.set_rows(row):
                evs.fact("sets", number, key(strings[set_keys[j]]), value(values[set_values[j]]))
            for j in columns.marker_rows(row):
                evs.fact("marker", number, _const(strings[kinds[j]]), item(strings[targets[j]]))
        seq = seqs[row]
        if seq != NO_SEQ and not INT_MIN + 1 < seq < INT_MAX - 1:
            check_int(seq + 1, "seq")
            check_int(seq - 1, "seq")
    _same_instant_ranks(evs, at_instant)
    return list(map(channel_numbers.__getitem__, channels))


def _same_instant_ranks(evs: _Writer, at_instant: dict[int, list[tuple[str, int]]]) -> None:
    """``same_instant_rank(E, K)``: the rank ``K`` (from 1) of E's id among the events written
    at E's instant, for every instant two or more share. The spec's tie order (the lower event
    id wins among equals) reaches the rules as this fact rather than through the order of
    event numbers, so that the numbers need not follow the ids (an event alone at its instant
    needs no rank: nothing ties with it)."""
    for found in at_instant.values():
        if len(found) > 1:
            found.sort()
            for rank, (_, number) in enumerate(found, 1):
                evs.lines.append(f"same_instant_rank({number},{rank}).")


def _task_opener(project: Project, expectation: Expectation) -> str | None:
    if expectation.opened is not None or not expectation.part_of:
        return None
    task = project.task(expectation.part_of)
    return task.opened_by if task else None


def _opening(writer: _Writer, number: int, opened_by, opened, event) -> None:
    if opened_by is not None:
        writer.fact("opened_by", number, event(opened_by))
    if opened is not None:
        writer.fact("opened_time", number, _time(opened))


def _expectation(decl, x: Expectation, item, event, channel, actor, key, value) -> None:
    number = item(x.id)
    decl.fact("expectation", number)
    _opening(decl, number, x.opened_by, x.opened, event)
    if x.want is not None:
        decl.fact("want", number, key(x.want.key), value(x.want.value))
    if x.superseded_when is not None:
        decl.fact(
            "superseded_when", number, key(x.superseded_when.key), value(x.superseded_when.value)
        )
    if x.before is not None:
        decl.fact("before", number, event(x.before))
    if x.deadline is not None:
        decl.fact("deadline", number, _time(x.deadline))
    if x.verify is not None:
        decl.fact("verify", number, _const(x.verify))
    for name in x.search:
        decl.fact("search", number, channel(name))
    for required in x.requires:
        decl.fact("requires", number, item(required))
    if x.part_of is not None:
        decl.fact("part_of", number, item(x.part_of))
    for name in x.principals:
        decl.fact("principal", number, actor(name))
    if x.window is not None:
        decl.fact("window", number, check_int(x.window, "window"))


def _new_clauses(decl: _Writer, x: Expectation, number: int, tag) -> None:
    """``within``, ``before next kind`` and ``want touches`` (SPEC 5.1) of a declaration."""
    if x.within is not None:
        decl.fact("within", number, check_int(x.within, "within"))
    if x.before_next_kind is not None:
        decl.fact("next_kind", number, tag(("kind", x.before_next_kind)))
    if x.want_touches is not None:
        decl.fact("want_touches", number, tag(("glob", x.want_touches)))
