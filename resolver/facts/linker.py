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

Tokens are interned to integers and events indexed by token (posting lists, in event-id order).
An expectation's overlaps are counted by walking the posting lists of its own linking words, so
the work is the sum of those lists' lengths: it grows with the links found, never with
expectations times events. Phrases, the wanted value and the id are only checked on events
holding their rarest word.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from resolver.facts.done_claims import claims_done
from resolver.facts.interning import check_int
from resolver.language.event_columns import EventColumns
from resolver.language.model import Alias, Event, Expectation

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

#: Function words, and the pieces of contractions (``there's``, ``doesn't``): no content (measured
#: on Lark, ``s`` and ``t`` linked many a TODO to long messages, ``docs/design/accuracy.md``).
STOP_WORDS = frozenset(
    """
    a an and are as at be been before being but by can could did do does doing for from had has
    have having he her here his how i if in into is it its itself just let lets me more most must
    my need needs no nor not now of off on once only or other our ours out over own same shall she
    should so some still such than that the their them then there these they this those through to
    too under until up very via was we were what when where which while who whom why will with
    would yet you your after again all also am any because both each few further
    never s t d ll m re ve doesn didn isn wasn aren weren hasn haven hadn wouldn shouldn couldn
    """.split()  # noqa: SIM905
)

#: Done-style words, stemmed, as an agent's stop report is read (``resolver.agents``, the bench
#: vocabulary). The linker's own ``done_cue`` is measured by :mod:`resolver.facts.done_claims`.
DONE_WORDS = tuple(
    """
    done finished finish completed complete resolved resolve fixed fix closed close shipped
    merged landed delivered
    """.split()  # noqa: SIM905
)

_SUFFIXES = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ingly",
    "ings",
    "ing",
    "edly",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
    "e",
)


@cache
def stem(word: str) -> str:
    """Strip one common English suffix, keeping at least three letters of stem."""
    if word.isdigit() or len(word) <= 3:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if suffix == "ies" or suffix == "ied":
                base += "y"
            return base
    return word


def words(text: str) -> list[str]:
    """Case-folded word tokens of ``text`` after Unicode normalisation."""
    if text.isascii():  # NFKC leaves ASCII as it is, and folds its case as lower() does
        return _WORD.findall(text.lower())
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _WORD.findall(folded)


#: Stems of :data:`DONE_WORDS`.
DONE_CUES = frozenset(stem(w) for w in DONE_WORDS)


@dataclass(frozen=True)
class Vocabulary:
    """Maps raw words to canonical content tokens, honouring the project's ``alias`` lines."""

    canonical: dict[str, str]

    @classmethod
    def from_aliases(cls, aliases: Iterable[Alias]) -> Vocabulary:
        """Build the alias table: every word of an alias line maps to its first word's stem."""
        table: dict[str, str] = {}
        for alias in aliases:
            stems = [stem(w) for raw in alias.words for w in words(raw)]
            if not stems:
                continue
            head = table.get(stems[0], stems[0])
            for token in stems:
                table.setdefault(token, head)
        return cls(table)

    def tokens(self, text: str | None) -> list[str]:
        """Content tokens of ``text`` in order: stop words dropped, stems aliased."""
        if not text:
            return []
        out = []
        for word in words(text):
            if word in STOP_WORDS:
                continue
            token = stem(word)
            out.append(self.canonical.get(token, token))
        return out

    def token_set(self, text: str | None) -> frozenset[str]:
        """The set of content tokens of ``text``."""
        return frozenset(self.tokens(text))

    def phrase(self, text: str) -> tuple[str, ...]:
        """A phrase as a token sequence (stop words kept out, as in texts)."""
        return tuple(self.tokens(text))


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


class TextLinker:
    """Links expectations to events through a token index built once per history.

    ``common``: a word in more than this many events' texts never counts as shared (None: every
    word links, the exact rule).
    """

    def __init__(
        self,
        events: Iterable[Event] | EventColumns,
        aliases: Iterable[Alias],
        common: int | None = COMMON_WORD_EVENTS,
    ) -> None:
        self.vocabulary = Vocabulary.from_aliases(aliases)
        self._token_ids: dict[str, int] = {}
        #: Per token id: the numbers of the events whose text holds it, ascending.
        self._postings: list[list[int]] = []
        #: Per event number (events with a text, in id order): id, text, tokens, distinct count.
        self._ids: list[str] = []
        self._texts: list[str] = []
        self._tokens: list[tuple[int, ...]] = []
        self._distinct: list[frozenset[int]] = []
        self._merges: set[str] = set()
        #: Event numbers whose text makes a done-style claim.
        self._claims: list[int] = []
        postings = self._postings
        texted = sorted(self._texted(events), key=lambda pair: pair[0])
        #: Per raw word: its token id, or -1 for a stop word (most words recur in most texts).
        word_ids: dict[str, int] = {}
        vocabulary = self.vocabulary
        for number, (ident, text) in enumerate(texted):
            sequence = []
            for word in words(text):
                token = word_ids.get(word)
                if token is None:
                    token = word_ids[word] = self._word_token(vocabulary, word)
                if token >= 0:
                    sequence.append(token)
            distinct = frozenset(sequence)
            check_int(len(sequence), "words in one text")
            for token in distinct:
                postings[token].append(number)
            self._ids.append(ident)
            self._texts.append(text)
            self._tokens.append(tuple(sequence))
            self._distinct.append(distinct)
            if claims_done(text):
                self._claims.append(number)
        #: Token ids that never count as shared.
        self.common = frozenset(
            ident
            for ident, found in enumerate(postings)
            if common is not None and len(found) > common
        )

    def _texted(self, events: Iterable[Event] | EventColumns) -> list[tuple[str, str]]:
        """(id, text) of every event with a text; notes the merges on the way."""
        if isinstance(events, EventColumns):
            ids, kinds = events.ids, events.kind
            merge = events.find_string("merge")
            if merge is not None:
                self._merges.update(ids[row] for row, kind in enumerate(kinds) if kind == merge)
            return [(ids[row], text) for row, text in enumerate(events.texts) if text]
        texted = []
        for event in events:
            if event.kind == "merge":
                self._merges.add(event.id)
            if event.text:
                texted.append((event.id, event.text))
        return texted

    def _word_token(self, vocabulary: Vocabulary, word: str) -> int:
        """The token id of a raw word (allocated on first sight), -1 for a stop word: as
        :meth:`Vocabulary.tokens` maps it."""
        if word in STOP_WORDS:
            return -1
        token = stem(word)
        token = vocabulary.canonical.get(token, token)
        ident = self._token_ids.get(token)
        if ident is None:
            ident = self._token_ids[token] = len(self._postings)
            self._postings.append([])
        return ident

    def is_merge(self, event_id: str) -> bool:
        """The event's kind is ``merge``."""
        return event_id in self._merges

    def done_cue_events(self) -> Iterator[str]:
        """Ids of events whose text makes a done-style claim."""
        for number in self._claims:
            yield self._ids[number]

    def _known(self, tokens: Iterable[str]) -> tuple[int, ...] | None:
        """The token ids of ``tokens``; None if one of them occurs in no event's text."""
        out = []
        for token in tokens:
            ident = self._token_ids.get(token)
            if ident is None:
                return None
            out.append(ident)
        return tuple(out)

    def _holders(self, tokens: tuple[int, ...] | None) -> set[int]:
        """Events holding the rarest of ``tokens``: a superset of those holding all of them."""
        if not tokens:
            return set()
        return set(min((self._postings[t] for t in tokens), key=len))

    def links(self, expectation: Expectation, opening_text: str | None) -> Iterator[Link]:
        """Every event whose text links to the expectation: it shares at least
        :data:`MIN_SHARED` content words with the title or the opening text, or holds a
        phrase or the id. An overlap below :data:`MIN_SHARED` is left out of the link."""
        vocab = self.vocabulary
        title_all = vocab.token_set(expectation.title)
        opening_all = vocab.token_set(opening_text)
        title_total = check_int(len(title_all), "words in a title")
        opening_total = check_int(len(opening_all), "words in an opening text")
        opening_ids = frozenset(self._token_ids[t] for t in opening_all if t in self._token_ids)
        title_count = self._count(title_all)
        opening_count = self._count(opening_all)
        phrases = [self._known(p) for p in (vocab.phrase(m) for m in expectation.matches) if p]
        phrases = [p for p in phrases if p]
        phrase_holders: set[int] = set()
        for phrase in phrases:
            phrase_holders |= self._holders(phrase)
        value = self._value_tokens(expectation)
        value_ids = self._known(value) if value else None
        value_holders = self._holders(value_ids)
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
            tokens = self._tokens[number]
            title_shared = title_count.get(number, 0)
            opening_shared = opening_count.get(number, 0)
            if title_shared < MIN_SHARED:
                title_shared = 0
            if opening_shared < MIN_SHARED:
                opening_shared = 0
            phrase_hit = number in phrase_holders and any(_contains(tokens, p) for p in phrases)
            names_id = number in id_holders and _contains(words(self._texts[number]), id_words)
            if not (title_shared or opening_shared or phrase_hit or names_id):
                continue
            yield Link(
                expectation.id,
                event_id,
                (title_shared, title_total) if title_shared else None,
                (opening_shared, opening_total) if opening_shared else None,
                phrase_hit,
                number in value_holders and _contains(tokens, value_ids),
                names_id,
                (len(opening_ids & self._distinct[number]), len(self._distinct[number]))
                if opening_all
                else None,
            )

    def _count(self, tokens: Iterable[str]) -> Counter[int]:
        """Per event number: how many of ``tokens`` (linking words only) its text holds."""
        count: Counter[int] = Counter()
        for token in tokens:
            ident = self._token_ids.get(token)
            if ident is not None and ident not in self.common:
                count.update(self._postings[ident])
        return count

    def _id_holders(self, id_words: tuple[str, ...]) -> set[int]:
        """Events that may name the id: those holding its rarest content word.

        An id made of stop words only (no content word to look up) is searched in every text.
        """
        if not id_words:
            return set()
        tokens = [
            self.vocabulary.canonical.get(stem(w), stem(w)) for w in id_words if w not in STOP_WORDS
        ]
        if not tokens:
            return set(range(len(self._ids)))
        return self._holders(self._known(tokens))

    def _value_tokens(self, expectation: Expectation) -> tuple[str, ...]:
        if expectation.want is None or isinstance(expectation.want.value, bool):
            return ()
        return tuple(self.vocabulary.tokens(str(expectation.want.value)))
