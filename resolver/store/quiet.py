"""An append that touches no item: the stored history carried over, not prepared again.

Most appends add events that no rule reads as more than a record on its channel: a commit whose
text links nothing, a record on a channel whose summary is all it moves. For those the prepared
history before the append is the prepared history after it, but for what the channel log says
(:mod:`resolver.engine.touched` names the groups an append can touch; here, none). So when the
log was read as an increment of the entry's own kept columns (:mod:`resolver.store.appends`)
and the appended events are *quiet*, the entry is carried over instead of building every fact
and solving the prepare part again (about 1.5 s at 100k events).

**Quiet**, all of it checked here: no policy, template, ``want touches`` or ``before next kind``
(whose measurements read every event); no appended event carries a marker, is on a channel the
log did not have, or has an actor a quoted actor pattern could newly match; every time and
sequence number is in range; and :meth:`Before.touched <resolver.engine.touched.Before.touched>`
over the history before the append finds no group (which covers the events an expectation or
task names, the keys they want, the texts that could link, the words a text could make common,
and the channels whose gaps or searched state could change).

**Why the carried entry is the fresh one.** Such an event is not relevant to the fact writer
(:func:`resolver.facts.event_rows.relevant_event_ids`: it is not linked, sets no wanted key,
carries no marker, is named by no declaration), so the writer gives it no fact of the prepare
part and interns no name for it but its event number; the declarations name no new channel or
actor; no link is added or lost (the linker's counts show no word made common). The three fact
texts the prepare part reads are therefore the same text, and so is its answer and the digest
they were kept under. What changes is carried exactly as the writer would make it: the events
are numbered on in reading order after the kept ones (:mod:`resolver.facts.numbering`), the
channel log takes the new records, the thresholds their times, the linker's counts their
words. ``tests/store/test_quiet.py`` holds every part of a carried entry to a fresh build's
over random histories and appends, and every answer to a fresh build's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import compress

from resolver.engine.prepared import Kept
from resolver.engine.touched import Before
from resolver.facts import standpoint_pack
from resolver.facts.channel_log import ChannelLog
from resolver.facts.event_rows import in_range
from resolver.facts.interning import Interner
from resolver.facts.linker import COMMON, COMMON_WORD_EVENTS
from resolver.facts.tokens import Vocabulary
from resolver.language.event_columns import NO_SEQ, EventColumns
from resolver.language.model import Project
from resolver.store import names
from resolver.store.appends import Increment
from resolver.store.entry import Found

__all__ = ["Carried", "carried"]


@dataclass(frozen=True)
class Carried:
    """The history after a quiet append: what a :class:`Prepared` reads, and the entry's new
    names table, thresholds and standpoint facts (the atoms are the kept ones)."""

    kept: Kept
    names: str
    thresholds: list[int]
    standpoint: bytes
    #: The thresholds the append added (the new events' times no kept threshold had).
    added: list[int]


def _quiet_project(project: Project) -> bool:
    """No declaration whose measurement reads every event (policies and the clauses
    :func:`resolver.facts.policy_index` measures)."""
    if project.policies or project.templates or project.derived:
        return False
    return not any(x.want_touches or x.before_next_kind for x in project.expectations)


def _quiet_rows(project: Project, log: EventColumns, rows: list[int], kept: list[bool]) -> bool:
    """The appended ``rows`` carry no marker, are on channels the kept rows (``kept``: a flag
    per row) are on, and bring no actor a quoted pattern could newly match; every number is in
    range."""
    if not rows or not in_range(log):
        return False
    channels = set(compress(log.channel, kept))
    actors = set(compress(log.by, kept)) if any(a.pattern for a in project.actors) else None
    for row in rows:
        if log.marker_end[row] > log.marker_start[row] or log.channel[row] not in channels:
            return False
        by = log.by[row]
        if actors is not None and by >= 0 and by not in actors and log.strings[by]:
            return False
    return True


def _interner(table: str, log: EventColumns, rows: list[int]) -> Interner | None:
    """The kept names (``table``) with the appended events numbered on after the kept ones, in
    the order they were read (their lines: they are the last rows read)."""
    found = names.parts(table, len(log.ids) - len(rows))
    if found is None:
        return None
    kept_numbers, rest = found
    first = len(kept_numbers)
    number_of = {log.ids[row]: 2 * (first + n) for n, row in enumerate(rows, 1)}
    # The kept ids keep their order among the grown log's ids (both sorted): their numbers
    # are read off in turn.
    old = iter(kept_numbers)
    try:
        numbers = [number_of.get(ident) or next(old) for ident in log.ids]
        interner = Interner.of_numbered([("event", ident) for ident in log.ids], numbers, rest)
    except (TypeError, ValueError, OverflowError, StopIteration):  # not a table written here
        return None
    interner.by_id = numbers
    return interner


def _channel_log(
    kept: ChannelLog, interner: Interner, log: EventColumns, rows: list[int]
) -> ChannelLog | None:
    """The kept channel log with the appended records, as the fact writer would make it."""
    strings, records = log.strings, []
    for row in rows:
        number = interner.get(("channel", strings[log.channel[row]]))
        if number is None:
            return None
        seq = log.seq[row]
        records.append((number, None if seq == NO_SEQ else seq, log.at[row], log.recorded[row]))
    return kept.extended(records)


def _counts(
    kept: dict[str, int], project: Project, log: EventColumns, rows: list[int]
) -> dict[str, int] | None:
    """The linker's counts with the appended texts' words counted in."""
    vocabulary = Vocabulary.from_aliases(project.aliases)
    added: dict[str, int] = {}
    for row in rows:
        for token in vocabulary.token_set(log.texts[row] or None):
            added[token] = added.get(token, 0) + 1
    counts = {}
    for token, held in kept.items():
        total = held + added.get(token, 0)
        if held != COMMON and total > COMMON_WORD_EVENTS:
            return None  # made common (touched says so for its items): not carried
        counts[token] = COMMON if held == COMMON else total
    return counts


def carried(found: Found, project: Project, log: EventColumns, read: Increment) -> Carried | None:
    """The history of ``project`` (its events ``log``, read as the increment ``read`` of the
    entry ``found``) carried over from ``found``, or None unless the append is quiet (see the
    module's docstring)."""
    if not read.added_rows or not _quiet_project(project):
        return None
    if found.names is None or found.thresholds is None or found.standpoint is None:
        return None
    facts = standpoint_pack.unpack(found.standpoint)
    if facts is None or facts.word_counts is None:
        return None
    rows = list(read.added_rows)
    held = [True] * len(log.ids)  # the rows kept before the append
    for row in rows:
        held[row] = False
    if not _quiet_rows(project, log, rows, held):
        return None
    before = Before(project, counts=facts.word_counts, appended=set(rows))
    touched = before.touched([log[row] for row in rows])
    if touched.everything or touched.groups:
        return None
    interner = _interner(found.names, log, rows)
    table = None if interner is None else names.pack(interner)
    channel_log = None if interner is None else _channel_log(facts.channel_log, interner, log, rows)
    if interner is None or table is None or channel_log is None:
        return None
    thresholds = set(found.thresholds)
    for row in rows:
        thresholds.update((log.at[row], log.recorded[row]))
    counts = _counts(facts.word_counts, project, log, rows)
    if counts is None:
        return None
    standpoint = standpoint_pack.pack(facts.declarations, facts.links, channel_log, counts)
    if standpoint is None:
        return None
    values = sorted(thresholds)
    moved = replace(facts, channel_log=channel_log, word_counts=counts)
    kept = Kept(found.text, found.ground_rules, interner, values, moved)
    added = sorted(thresholds.difference(found.thresholds))
    return Carried(kept, table, values, standpoint, added)
