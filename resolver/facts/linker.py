"""The deterministic text linker: how strongly an event's text points at an expectation.

The rules decide closure tiers; this module only measures text, in Python, and hands the
measurements to the rules as integer facts (see ``facts.py``):

* ``overlap(X, E, Source, Shared, Total)``: ``Shared`` of the ``Total`` content words of the
  expectation's title (Source 1) or of its opening event's text (Source 2) occur in the event's
  text. The rules call a text *linked* when ``Shared >= 2`` (or the id or a phrase is named)
  and the link *strong* when also ``2 * Shared > Total`` (SPEC §3, Candidates and tier 3). One
  shared word never links, so no overlap with ``Shared < 2`` is written, and an event whose
  text shares fewer than two words with both sources and names neither the id nor a phrase is
  no link at all (:data:`MIN_SHARED`): the facts, and the rules grounded over them, follow the
  links that can decide something.
* ``covered(X, E, InOpening, Own)``: ``InOpening`` of the ``Own`` distinct content words of the
  event's text occur in the opening event's text (written when there is an opening text). The
  rules call the text a *restatement* when ``InOpening = Own``: it links weakly at most.
* ``merge_kind(E)``: the event's kind is ``merge`` (its text repeats what it merges; the rules
  never let it link strongly).
* ``phrase_hit(X, E)``: the text contains one of the expectation's ``matches`` phrases (strong).
* ``names_value(X, E)``: the text names the wanted value (or an alias of it).
* ``names_id(X, E)``: the text names the expectation's id.
* ``done_cue(E)``: the text makes a done-style claim ("done", "finished", "resolved", ...), as
  :mod:`resolver.facts.done_claims` reads one (no ``merge``, no negated done word).

Words are normalised (Unicode NFKC, case folded, split on anything that is not a letter or digit),
stop words dropped, a light suffix-stripping stemmer applied, and ``alias`` words mapped to the
first word of their alias line. A word found in the texts of more than ``COMMON_WORD_EVENTS``
events (100) is not a linking word: it never counts as shared, but it still counts in the total
of the title or opening text it belongs to. ``TextLinker(..., common=None)`` is the exact rule
of SPEC §3 (every content word links); it is not the default because, measured, it makes every
event sharing frequent words a link and a candidate: quadratic on formulaic histories, and less
accurate on a real one (``docs/design/performance.md``, "The text linker").

Events are indexed by token (``text_index.py``): each token's texts, in event-id order. An
expectation's overlaps are counted by walking the lists of its own linking words, so the work is
the sum of those lists' lengths: it grows with the links found, never with expectations times
events. Phrases, the wanted value and the id are only checked on events holding their rarest
word. Given the expectations it will be asked about (``asked``), the linker searches the texts
for their few words instead of indexing every text's words when that is cheaper (a scope: one
task's group, as the hook asks), with the same links.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from itertools import compress, islice
from operator import le
from typing import NamedTuple

from resolver.facts.done_claims import claims_done
from resolver.facts.interning import check_int
from resolver.facts.text_index import FullIndex, ScanIndex, WordTokens
from resolver.facts.tokens import (
    DONE_CUES,
    DONE_WORDS,
    STOP_WORDS,
    Vocabulary,
    stem,
    words,
)
from resolver.language.event_columns import EventColumns
from resolver.language.model import Alias, Event, Expectation

__all__ = [
    "COMMON_WORD_EVENTS",
    "DONE_CUES",
    "DONE_WORDS",
    "MIN_SHARED",
    "SCAN_TOKENS",
    "STOP_WORDS",
    "Link",
    "TextLinker",
    "Vocabulary",
    "stem",
    "words",
]


class Link(NamedTuple):
    """Everything the linker measured between one expectation and one event."""

    expectation: str
    event: str
    title_overlap: tuple[int, int] | None  # (shared, total)
    opening_overlap: tuple[int, int] | None
    phrase_hit: bool
    names_value: bool
    names_id: bool
    #: (distinct content words of the event's text found in the opening text, all of them);
    #: None when the expectation has no opening text.
    coverage: tuple[int, int] | None = None


#: A word in the texts of more than this many events is not a linking word (the default cut-off).
COMMON_WORD_EVENTS = 100

#: Shared content words a text needs with a title or an opening text to link (SPEC §3): an
#: overlap below it is never written (the rules ask ``S >= 2`` all the same).
MIN_SHARED = 2


def _contains(sequence: tuple | list, phrase: tuple) -> bool:
    width = len(phrase)
    if width == 0:
        return False
    first = phrase[0]
    return any(
        sequence[i] == first and tuple(sequence[i : i + width]) == phrase
        for i in range(len(sequence) - width + 1)
    )


#: :meth:`TextLinker.linking_counts` of a word in more than ``common`` texts.
COMMON = -1

#: The most distinct content words the expectations asked may hold for the linker to search the
#: texts for them rather than index every text's words. Searching for one word costs about a
#: hundredth of indexing them all, at 10k as at 100k events (the index is cheaper from about 100
#: words on), so a scope searches at a fraction of the index's cost; more words, the index.
SCAN_TOKENS = 60


def counts_in(index: FullIndex | ScanIndex, tokens: Iterable[str]) -> dict[str, int]:
    """Per token, how many of ``index``'s texts hold it (see :meth:`TextLinker.linking_counts`)."""
    counts = {}
    for token in tokens:
        held = index.linking(token)
        counts[token] = len(held) if held else (COMMON if index.known([token]) else 0)
    return counts


class TextLinker:
    """Links expectations to events through a token index of the events' texts.

    ``common``: a word in more than this many events' texts never counts as shared (None: every
    word links, the exact rule). ``asked``: the (expectation, opening text) pairs that will be
    asked about, when known; with few words among them the texts are searched rather than
    indexed whole (:data:`SCAN_TOKENS`). Any expectation may be asked about either way.
    """

    def __init__(
        self,
        events: Iterable[Event] | EventColumns,
        aliases: Iterable[Alias],
        common: int | None = COMMON_WORD_EVENTS,
        asked: Iterable[tuple[Expectation, str | None]] | None = None,
    ) -> None:
        self.vocabulary = Vocabulary.from_aliases(aliases)
        self._merges: set[str] = set()
        #: Per event number (events with a text, in id order): its id and text.
        self._ids, self._texts = self._texted(events)
        tokens = WordTokens(self.vocabulary)
        if asked is not None and len(self._asked_tokens(asked)) <= SCAN_TOKENS:
            self._index: FullIndex | ScanIndex = ScanIndex(
                self._texts, tokens, self.vocabulary, common
            )
        else:
            self._index = FullIndex(self._texts, tokens, common)

    def linking_words(self, asked: Iterable[tuple[Expectation, str | None]]) -> set[str]:
        """The words by which a text may share content with ``asked``: their titles' and
        opening texts' (the words whose counts :meth:`linking_counts` gives)."""
        vocab, found = self.vocabulary, set()
        for expectation, opening_text in asked:
            found |= vocab.token_set(expectation.title) | vocab.token_set(opening_text)
        return found

    def linking_counts(self, tokens: Iterable[str]) -> dict[str, int]:
        """Per token, how many texts hold it: 0 when none does, :data:`COMMON` when more than
        ``common`` do (it links nowhere). An append's texts can take a word over the cut-off
        and unlink it everywhere (:mod:`resolver.engine.touched`): the store keeps these."""
        return counts_in(self._index, tokens)

    def _asked_tokens(self, asked: Iterable[tuple[Expectation, str | None]]) -> set[str]:
        """Every content word the linker would look up for ``asked``."""
        vocab, found = self.vocabulary, set()
        for expectation, opening_text in asked:
            found |= vocab.token_set(expectation.title) | vocab.token_set(opening_text)
            for phrase in expectation.matches:
                found.update(vocab.tokens(phrase))
            found.update(self._value_tokens(expectation))
            found.update(self._id_tokens(tuple(words(expectation.id))))
        return found

    def _texted(self, events: Iterable[Event] | EventColumns) -> tuple[list[str], list[str]]:
        """Ids and texts of the events with a text, in id order (stable); notes the merges on
        the way. Columns are read whole (``compress``), as most rows have a text."""
        if isinstance(events, EventColumns):
            merge = events.find_string("merge")
            if merge is not None:
                self._merges.update(compress(events.ids, map(merge.__eq__, events.kind)))
            ids = list(compress(events.ids, events.texts))
            texts: list[str] = list(filter(None, events.texts))
        else:
            ids, texts = [], []
            for event in events:
                if event.kind == "merge":
                    self._merges.add(event.id)
                if event.text:
                    ids.append(event.id)
                    texts.append(event.text)
        if all(map(le, ids, islice(ids, 1, None))):
            return ids, texts
        order = sorted(range(len(ids)), key=ids.__getitem__)
        return [ids[n] for n in order], [texts[n] for n in order]

    def is_merge(self, event_id: str) -> bool:
        """The event's kind is ``merge``."""
        return event_id in self._merges

    def done_cue_events(self, among: Collection[str] | None = None) -> Iterator[str]:
        """Ids of events (of ``among``, if given, in id order) whose text makes a done-style
        claim: the fact writer asks for its relevant events only, so only their texts are read."""
        ids, texts = self._ids, self._texts
        if among is None:
            for ident, text in zip(ids, texts, strict=True):
                if claims_done(text):
                    yield ident
            return
        for ident in sorted(among):
            number = bisect_left(ids, ident)
            while number < len(ids) and ids[number] == ident:
                if claims_done(texts[number]):
                    yield ident
                number += 1

    def links(self, expectation: Expectation, opening_text: str | None) -> Iterator[Link]:
        """Every event whose text links to the expectation: it shares at least
        :data:`MIN_SHARED` content words with the title or the opening text, or holds a
        phrase or the id. An overlap below :data:`MIN_SHARED` is left out of the link."""
        vocab, index = self.vocabulary, self._index
        title_all = vocab.token_set(expectation.title)
        opening_all = vocab.token_set(opening_text)
        title_total = check_int(len(title_all), "words in a title")
        opening_total = check_int(len(opening_all), "words in an opening text")
        title_count = self._count(title_all)
        opening_count = self._count(opening_all)
        phrases = [p for p in map(vocab.phrase, expectation.matches) if p and index.known(p)]
        phrase_holders: set[int] = set()
        for phrase in phrases:
            phrase_holders.update(index.holders(phrase))
        value = self._value_tokens(expectation)
        value_holders = set(index.holders(value)) if value and index.known(value) else set()
        id_words = tuple(words(expectation.id))
        id_holders = self._id_holders(id_words)
        seen = {n for n, c in title_count.items() if c >= MIN_SHARED}
        seen.update(n for n, c in opening_count.items() if c >= MIN_SHARED)
        seen |= phrase_holders | id_holders
        opener = expectation.opened_by
        for number in sorted(seen):
            event_id = self._ids[number]
            if event_id == opener:
                continue
            title_shared = title_count.get(number, 0)
            opening_shared = opening_count.get(number, 0)
            if title_shared < MIN_SHARED:
                title_shared = 0
            if opening_shared < MIN_SHARED:
                opening_shared = 0
            phrase_hit = number in phrase_holders and any(
                _contains(index.tokens(number), p) for p in phrases
            )
            names_id = number in id_holders and _contains(words(self._texts[number]), id_words)
            if not (title_shared or opening_shared or phrase_hit or names_id):
                continue
            coverage = None
            if opening_all:
                distinct = index.distinct(number)
                coverage = (len(opening_all & distinct), len(distinct))
            yield Link(
                expectation.id,
                event_id,
                (title_shared, title_total) if title_shared else None,
                (opening_shared, opening_total) if opening_shared else None,
                phrase_hit,
                number in value_holders and _contains(index.tokens(number), value),
                names_id,
                coverage,
            )

    def _count(self, tokens: Iterable[str]) -> Counter[int]:
        """Per event number: how many of ``tokens`` (linking words only) its text holds."""
        count: Counter[int] = Counter()
        for token in tokens:
            count.update(self._index.linking(token))
        return count

    def _id_tokens(self, id_words: Sequence[str]) -> list[str]:
        canonical = self.vocabulary.canonical
        return [canonical.get(stem(w), stem(w)) for w in id_words if w not in STOP_WORDS]

    def _id_holders(self, id_words: tuple[str, ...]) -> set[int]:
        """Events that may name the id: those holding its rarest content word.

        An id made of stop words only (no content word to look up) is searched in every text.
        """
        if not id_words:
            return set()
        tokens = self._id_tokens(id_words)
        if not tokens:
            return set(range(len(self._ids)))
        return set(self._index.holders(tokens)) if self._index.known(tokens) else set()

    def _value_tokens(self, expectation: Expectation) -> tuple[str, ...]:
        if expectation.want is None or isinstance(expectation.want.value, bool):
            return ()
        return tuple(self.vocabulary.tokens(str(expectation.want.value)))
