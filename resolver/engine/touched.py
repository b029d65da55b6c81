"""What an append touches: the groups whose verdicts the appended events can change.

Stage 3 of appends (``docs/design/increments.md``) re-derives only the groups (as
:mod:`resolver.engine.groups` draws them) that new events can touch and keeps the others' stored
atoms. This module finds that set from the history before the append (:class:`Before`, built
once and kept) and the appended events, reading only declarations, the event columns and the
linker's index; it decides no verdict. When it cannot tell, it says *everything*.

An appended event touches, at any standpoint:

* the items whose opening or ``before`` bound it is (its id is their ``opened_by``, their task's
  ``opened_by`` or their ``before``), and those bounded by the next event of its ``kind``;
* the items its markers name (a task: its group, obligations included; an undeclared name: the
  derived group, when policies or templates may make it), so markers naming two groups together
  merge them and both are touched;
* the items wanting, or ``superseded_when``, a key it sets, and those whose ``want touches``
  glob one of its ``files`` matches;
* the items its text links to, by the linker's own rule (:meth:`TextLinker.links` over the new
  texts, with every word linking: a superset of the links in the whole history), and every item
  whose title or opening text holds a word the new texts make common (in more than
  ``COMMON_WORD_EVENTS`` texts: it stops linking, for old events' links too);
* the items searching its channel when it may change the channel's gaps (a ``seq`` that is not
  the next one after a record visible whenever it is) or whether the channel is searched at some
  standpoint (no earlier record on the channel is visible whenever it is: a new channel too);
* the derived group when a policy could trigger on it (each positive ``when`` condition measured
  by :class:`~resolver.facts.policy_index.EventIndex`; a negated one is taken as met) or it
  touches a would-be instance (``Project.derived``; unknown when the facts were not built:
  then always).

Then the closure: every group holding a touched item, and the items an old opening event ties to
the item it opens (its markers' targets: a TODO's ``reports_pending`` finding reads the status of
the expectation the same event opens). A channel's own summary (searched, ``through``, its gap
list) is shared by every item searching it and is read from the channel log at a standpoint:
:attr:`Touched.channels` lists the channels whose summary the new events may change.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, count
from operator import itemgetter

from resolver.engine import groups as grouping
from resolver.facts.linker import COMMON, COMMON_WORD_EVENTS, TextLinker, counts_in
from resolver.facts.policy_index import EventIndex
from resolver.facts.text_index import FullIndex, WordTokens
from resolver.facts.tokens import Vocabulary, words
from resolver.language.event_columns import NO_SEQ, EventColumns
from resolver.language.globs import GlobError, compile_glob
from resolver.language.model import Event, Expectation, Project, Task
from resolver.times import EPOCH_UNIX

__all__ = ["Before", "Touched"]

#: The marker groups.py gives the group of everything policies and templates touch.
DERIVED = grouping._DERIVED


@dataclass(frozen=True)
class Touched:
    """The groups (of the history before the append) to derive again, or all of them."""

    everything: bool
    #: The touched groups, each sorted, in the order :func:`groups` lists them.
    groups: tuple[tuple[str, ...], ...]
    #: Channels whose summary (searched, ``through``, gaps) the new events may change.
    channels: frozenset[str]

    @property
    def items(self) -> frozenset[str]:
        """Every item of a touched group (the derived group's marker included)."""
        return frozenset(item for group in self.groups for item in group)


def _matcher(glob: str) -> Callable[[str], object]:
    """A glob's whole-path match; a glob that is no glob is taken to match every path (when in
    doubt, touched)."""
    try:
        return compile_glob(glob).fullmatch
    except GlobError:
        return bool


class _Channel:
    """One channel's records before the append: enough to tell whether a new record can
    change whether the channel is searched, or its gaps, at some standpoint."""

    __slots__ = ("ats", "least_recorded", "top_holders", "top_seq")

    def __init__(self, rows: list[tuple[int, int]], seqs: list[tuple[int, int, int]]) -> None:
        rows.sort()
        self.ats = [at for at, _ in rows]
        #: Per prefix of the records in ``at`` order, the least ``recorded``.
        self.least_recorded = list(accumulate((rec for _, rec in rows), min))
        self.top_seq = max((s for s, _, _ in seqs), default=None)
        self.top_holders = [(at, rec) for s, at, rec in seqs if s == self.top_seq]

    def seen_with(self, at: int, recorded: int) -> bool:
        """Some record is visible at every standpoint where one at ``(at, recorded)`` is."""
        number = bisect_right(self.ats, at)
        return number > 0 and self.least_recorded[number - 1] <= recorded


class Before:
    """What is kept of the history before an append to say what the append touches.

    Built from the loaded project (declarations, event columns, and, when the facts were built,
    the policies' would-be instances); ``common`` is the linker's cut-off for common words.
    """

    def __init__(
        self,
        project: Project,
        common: int | None = COMMON_WORD_EVENTS,
        counts: Mapping[str, int] | None = None,
        appended: Collection[int] = (),
    ) -> None:
        """``counts``: the linker's counts of the expectations' words in the history
        (:meth:`TextLinker.linking_counts`, kept by the store), instead of indexing every text
        again; a word they lack is taken to change (its items are touched when a new text
        holds it). ``appended``: rows of the project's events that are the append's own, read
        as if absent (the store hands the grown log whole rather than copy the rest)."""
        self._appended = appended
        self.groups = [tuple(group) for group in grouping.groups(project)]
        self._group_of = {item: n for n, group in enumerate(self.groups) for item in group}
        derived_group = self._group_of.get(DERIVED)
        self._policies = project.policies
        self._derived_unknown = bool(project.policies) and not project.derived
        self._aliases = project.aliases
        self.vocabulary = Vocabulary.from_aliases(project.aliases)
        self._common = common
        self._columns = columns = project.events
        assert isinstance(columns, EventColumns)
        self._roles = {c.name: c.role for c in project.channels}
        if derived_group is not None:  # would-be instances are of the derived group
            for ident in project.derived:
                self._group_of.setdefault(ident, derived_group)
        self._by_event: dict[str, set[str]] = defaultdict(set)
        self._by_kind: dict[str, set[str]] = defaultdict(set)
        self._by_key: dict[str, set[str]] = defaultdict(set)
        self._globs: list[tuple[Callable[[str], object], str]] = []
        self._searching: dict[str, set[str]] = defaultdict(set)
        self._default_search: set[str] = set()
        self._linkable: dict[str, tuple[Expectation, str | None]] = {}
        self._ties: dict[str, set[str]] = defaultdict(set)
        tasks = [*project.tasks, *(d for d in project.derived.values() if isinstance(d, Task))]
        for task in tasks:
            if task.opened_by is not None:
                self._by_event[task.opened_by].add(task.id)
                self._tie(task.id, task.opened_by)
        expectations = [
            *project.expectations,
            *(d for d in project.derived.values() if isinstance(d, Expectation)),
        ]
        for x in expectations:
            self._index(x, project)
        self._words(common, counts)
        self._channels: dict[str, _Channel | None] = {}

    def _index(self, x: Expectation, project: Project) -> None:
        """Index one expectation by everything of an event that can touch it."""
        for ident in (x.opened_by, x.before):
            if ident is not None:
                self._by_event[ident].add(x.id)
        if x.before_next_kind is not None:
            self._by_kind[x.before_next_kind].add(x.id)
        for assignment in (x.want, x.superseded_when):
            if assignment is not None:
                self._by_key[assignment.key].add(x.id)
        if x.want_touches is not None:
            self._globs.append((_matcher(x.want_touches), x.id))
        for channel in x.search:
            self._searching[channel].add(x.id)
        if not x.search:
            self._default_search.add(x.id)
        source = x.opened_by
        if source is None and x.part_of is not None:
            task = project.task(x.part_of)
            source = task.opened_by if task is not None else None
        text = None
        if source is not None:
            row = self._row(source)
            text = None if row is None else self._columns.texts[row]
            self._tie(x.id, source)
        self._linkable[x.id] = (x, text)

    def _tie(self, item: str, opener: str) -> None:
        """Tie ``item`` to what its (old) opening event's markers name."""
        row = self._row(opener)
        if row is None or not self._columns.has_markers(row):
            return
        strings, targets = self._columns.strings, self._columns.marker_target
        for position in self._columns.marker_rows(row):
            target = strings[targets[position]]
            self._ties[item].add(target)
            self._ties[target].add(item)

    def _row(self, ident: str) -> int | None:
        """The row of event ``ident`` before the append, if any."""
        row = self._columns.position(ident)
        return None if row in self._appended else row

    def _words(self, common: int | None, counts: Mapping[str, int] | None) -> None:
        """Per content word: the items it may link (for the linker's candidates), the items
        whose title or opening text hold it, and how many old texts hold it while it links."""
        vocab = self.vocabulary
        self._by_token: dict[str, set[str]] = defaultdict(set)
        self._by_linking_word: dict[str, set[str]] = defaultdict(set)
        self._always: set[str] = set()
        for ident, (x, opening) in self._linkable.items():
            linking = vocab.token_set(x.title) | vocab.token_set(opening)
            for token in linking:
                self._by_linking_word[token].add(ident)
            named = vocab.token_set(x.id)
            if not named and words(x.id):  # an id of stop words: searched in every text
                self._always.add(ident)
            for token in linking | named:
                self._by_token[token].add(ident)
            for phrase in x.matches:
                for token in vocab.tokens(phrase):
                    self._by_token[token].add(ident)
        #: Per linking word, how many texts hold it (absent: common already; None: unknown).
        self._counts: dict[str, int | None] = {}
        if common is None:
            return
        if counts is None:
            texts = [t for n, t in enumerate(self._columns.texts) if t and n not in self._appended]
            counts = counts_in(FullIndex(texts, WordTokens(vocab), common), self._by_linking_word)
        for token in self._by_linking_word:
            count = counts.get(token)
            if count != COMMON:
                self._counts[token] = count

    def _channel(self, name: str) -> _Channel | None:
        """The summary of channel ``name``'s records before the append (None: it has none),
        made when an appended event is on it."""
        if name not in self._channels:
            columns = self._columns
            number = columns.find_string(name)
            found = None
            if number is not None:
                rows = list(compress(count(), map(number.__eq__, columns.channel)))
                for row in sorted(self._appended, reverse=True):  # a few: taken out by place
                    place = bisect_left(rows, row)
                    if place < len(rows) and rows[place] == row:
                        del rows[place]
                if rows:
                    take = itemgetter(*rows) if len(rows) > 1 else lambda c: (c[rows[0]],)
                    ats, recs, seqs = take(columns.at), take(columns.recorded), take(columns.seq)
                    numbered = [s for s in zip(seqs, ats, recs, strict=True) if s[0] != NO_SEQ]
                    found = _Channel(list(zip(ats, recs, strict=True)), numbered)
            self._channels[name] = found
        return self._channels[name]

    # -- what an append touches ---------------------------------------------------------------

    def touched(self, added: Sequence[Event]) -> Touched:
        """The groups the events ``added`` after this history can touch."""
        ids = [event.id for event in added]
        channels = frozenset(event.channel for event in added)
        if len(set(ids)) != len(ids) or any(self._row(i) is not None for i in ids):
            return Touched(True, tuple(self.groups), channels)  # a repeated id: read afresh
        items: set[str] = set()
        derived = self._derived_unknown and bool(added)
        for event in added:
            items |= self._by_event.get(event.id, set())
            if event.kind is not None:
                items |= self._by_kind.get(event.kind, set())
            for assignment in event.sets:
                items |= self._by_key.get(assignment.key, set())
            if event.files:
                items.update(x for match, x in self._globs if any(map(match, event.files)))
            for marker in event.markers:
                if marker.target in self._group_of:
                    items.add(marker.target)
                else:  # an undeclared name: only a policy or template may make it
                    derived = True
        items |= self._searchers_touched(added)
        items |= self._linked([event for event in added if event.text])
        if not derived and self._policies:
            derived = self._policy_matches(added)
        if derived and DERIVED in self._group_of:
            items.add(DERIVED)
        return Touched(False, self._closure(items), channels)

    def _closure(self, items: Iterable[str]) -> tuple[tuple[str, ...], ...]:
        """The groups holding ``items`` or what old opening events tie them to."""
        seen: set[str] = set()
        stack = list(items)
        found: set[int] = set()
        while stack:
            item = stack.pop()
            if item in seen:
                continue
            seen.add(item)
            group = self._group_of.get(item)
            if group is not None and group not in found:
                found.add(group)
                stack.extend(self.groups[group])
            stack.extend(self._ties.get(item, ()))
        return tuple(self.groups[n] for n in sorted(found))

    def _searchers(self, channel: str) -> set[str]:
        """The items searching ``channel``: those that name it, and (a work channel) those that
        search every work channel."""
        role = self._roles.get(channel)
        mention = role == "mention" or (role is None and channel == "sessions")
        found = set(self._searching.get(channel, set()))
        return found if mention else found | self._default_search

    def _searchers_touched(self, added: Sequence[Event]) -> set[str]:
        """The searchers of every channel whose searched state or gaps the events may change."""
        changed: set[str] = set()
        numbered: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        for event in added:
            at, rec = event.at - EPOCH_UNIX, event.recorded - EPOCH_UNIX
            summary = self._channel(event.channel)
            if summary is None or not summary.seen_with(at, rec):
                changed.add(event.channel)
            if event.seq is not None:
                numbered[event.channel].append((event.seq, at, rec))
        for channel, rows in numbered.items():
            summary = self._channel(channel)
            top = None if summary is None else summary.top_seq
            holders = [] if summary is None else summary.top_holders
            for seq, at, rec in sorted(rows):
                # The next number after a record visible whenever this one is: no gap opens
                # or closes (SPEC §3, Absence); the first numbered record of a channel neither.
                after = top is None or (
                    seq == top + 1 and any(a <= at and r <= rec for a, r in holders)
                )
                if not after:
                    changed.add(channel)
                    break
                top, holders = seq, [(at, rec)]
        found: set[str] = set()
        for channel in changed:
            found |= self._searchers(channel)
        return found

    def _linked(self, texted: list[Event]) -> set[str]:
        """The items the new texts link to, and those whose words they make common."""
        if not texted:
            return set()
        held: Counter[str] = Counter()
        for event in texted:
            held.update(self.vocabulary.token_set(event.text))
        found: set[str] = set()
        if self._common is not None:
            for token, count in held.items():
                if token not in self._counts:  # common already: it links nowhere
                    continue
                old = self._counts[token]
                if old is None or old + count > self._common:
                    found |= self._by_linking_word[token]
        asked = set(self._always)
        for token in held:
            asked |= self._by_token.get(token, set())
        asked -= found
        if asked:
            linker = TextLinker(texted, self._aliases, common=None)
            for ident in sorted(asked):
                x, opening = self._linkable[ident]
                if next(linker.links(x, opening), None) is not None:
                    found.add(ident)
        return found

    def _policy_matches(self, added: Sequence[Event]) -> bool:
        """Some policy could trigger on some of the events (negated conditions taken as met)."""
        index = EventIndex(list(added), self.vocabulary)
        every = {event.id for event in added}
        for policy in self._policies:
            matched = set(every)
            for condition in policy.conditions:
                if not condition.negated:
                    matched &= index.condition_events(condition)
            if matched:
                return True
        return False
