"""The deterministic text linker: how strongly an event's text points at an expectation.

The rules decide closure tiers; this module only measures text, in Python, and hands the
measurements to the rules as integer facts (see ``facts.py``):

* ``overlap(X, E, Source, Shared, Total)``: ``Shared`` of the ``Total`` content words of the
  expectation's title (Source 1) or of its opening event's text (Source 2) occur in the event's
  text. The rules call a link *strong* when ``Shared >= 2`` and ``2 * Shared > Total`` and *weak*
  when ``Shared >= 1`` (SPEC §3, tier 3).
* ``covered(X, E, InOpening, Own)``: ``InOpening`` of the ``Own`` distinct content words of the
  event's text occur in the opening event's text (written when there is an opening text). The
  rules call the text a *restatement* when ``InOpening = Own``: it links weakly at most.
* ``merge_kind(E)``: the event's kind is ``merge`` (its text repeats what it merges; the rules
  never let it link strongly).
* ``phrase_hit(X, E)``: the text contains one of the expectation's ``matches`` phrases (strong).
* ``names_value(X, E)``: the text names the wanted value (or an alias of it).
* ``names_id(X, E)``: the text names the expectation's id.
* ``done_cue(E)``: the text makes a done-style claim ("done", "finished", "resolved", ...).

Words are normalised (Unicode NFKC, case folded, split on anything that is not a letter or digit),
stop words dropped, a light suffix-stripping stemmer applied, and ``alias`` words mapped to the
first word of their alias line. A word found in the texts of more than ``COMMON_WORD_EVENTS``
events (100) is not a linking word: it never counts as shared, but it still counts in the total
of the title or opening text it belongs to (a frequent word is no evidence of a link, and leaving
it out of the total would let two rare words be "more than half" of a longer text).
Events are indexed by token, so the linker only compares an expectation with events sharing one
of its words: the work grows with the links found, never with expectations times events.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from resolver.language.model import Alias, Event, Expectation

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

#: Function words that carry no content.
STOP_WORDS = frozenset(
    """
    a an and are as at be been before being but by can could did do does doing for from had has
    have having he her here his how i if in into is it its itself just let lets me more most must
    my need needs no nor not now of off on once only or other our ours out over own same shall she
    should so some still such than that the their them then there these they this those through to
    too under until up very via was we were what when where which while who whom why will with
    would yet you your after again all also am any because both each few further
    """.split()  # noqa: SIM905
)

#: Done-style cue words: the textual tier needs one of them (compared after stemming).
DONE_WORDS = (
    "done",
    "finished",
    "finish",
    "completed",
    "complete",
    "resolved",
    "resolve",
    "fixed",
    "fix",
    "closed",
    "close",
    "shipped",
    "merged",
    "landed",
    "delivered",
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
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _WORD.findall(folded)


#: Stems of the done-style cue words.
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


@dataclass(frozen=True)
class Link:
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


def _contains(sequence: list[str], phrase: tuple[str, ...]) -> bool:
    width = len(phrase)
    if width == 0:
        return False
    return any(tuple(sequence[i : i + width]) == phrase for i in range(len(sequence) - width + 1))


#: A word in the texts of more than this many events is not a linking word: in a large log it
#: would link every expectation to a fixed share of all events (quadratic work) while telling
#: nothing about any of them. Below it, every content word links.
COMMON_WORD_EVENTS = 100


class TextLinker:
    """Links expectations to events through a token index built once per history."""

    def __init__(self, events: Iterable[Event], aliases: Iterable[Alias]) -> None:
        self.vocabulary = Vocabulary.from_aliases(aliases)
        self._tokens: dict[str, list[str]] = {}
        self._index: dict[str, list[str]] = defaultdict(list)
        self._texts: dict[str, str] = {}
        self._merges: set[str] = set()
        for event in events:
            if event.kind == "merge":
                self._merges.add(event.id)
            if not event.text:
                continue
            tokens = self.vocabulary.tokens(event.text)
            self._tokens[event.id] = tokens
            self._texts[event.id] = event.text
            for token in set(tokens):
                self._index[token].append(event.id)
        self.common = frozenset(
            token for token, ids in self._index.items() if len(ids) > COMMON_WORD_EVENTS
        )

    def is_merge(self, event_id: str) -> bool:
        """The event's kind is ``merge``."""
        return event_id in self._merges

    def done_cue_events(self) -> Iterator[str]:
        """Ids of events whose text makes a done-style claim."""
        for event_id, tokens in self._tokens.items():
            if DONE_CUES.intersection(tokens):
                yield event_id

    def _rarest(self, tokens: Iterable[str]) -> str | None:
        known = [t for t in tokens if t in self._index]
        return min(known, key=lambda t: len(self._index[t]), default=None)

    def links(self, expectation: Expectation, opening_text: str | None) -> Iterator[Link]:
        """Every event whose text shares a content word, a phrase or the id with the expectation."""
        vocab = self.vocabulary
        title_all = vocab.token_set(expectation.title)
        title = title_all - self.common
        opening_all = vocab.token_set(opening_text)
        opening = opening_all - self.common
        phrases = [p for p in (vocab.phrase(m) for m in expectation.matches) if p]
        value_tokens = self._value_tokens(expectation)
        id_words = tuple(words(expectation.id))
        probe = set(title) | set(opening)
        for anchor in [*(self._rarest(p) for p in phrases), self._id_anchor(id_words)]:
            if anchor is not None:
                probe.add(anchor)
        seen: set[str] = set()
        for token in probe:
            seen.update(self._index.get(token, ()))
        for event_id in sorted(seen):
            if event_id == expectation.opened_by:
                continue
            tokens = self._tokens[event_id]
            token_set = set(tokens)
            title_shared = len(title & token_set)
            opening_shared = len(opening & token_set)
            link = Link(
                expectation=expectation.id,
                event=event_id,
                title_overlap=(title_shared, len(title_all)) if title_shared else None,
                opening_overlap=(opening_shared, len(opening_all)) if opening_shared else None,
                phrase_hit=any(_contains(tokens, p) for p in phrases),
                names_value=bool(value_tokens) and _contains(tokens, value_tokens),
                names_id=bool(id_words) and _contains_words(self._texts[event_id], id_words),
                coverage=(len(token_set & opening_all), len(token_set)) if opening_all else None,
            )
            if link.title_overlap or link.opening_overlap or link.phrase_hit or link.names_id:
                yield link

    def _id_anchor(self, id_words: tuple[str, ...]) -> str | None:
        tokens = [
            self.vocabulary.canonical.get(stem(w), stem(w)) for w in id_words if w not in STOP_WORDS
        ]
        return self._rarest(tokens)

    def _value_tokens(self, expectation: Expectation) -> tuple[str, ...]:
        if expectation.want is None or isinstance(expectation.want.value, bool):
            return ()
        return tuple(self.vocabulary.tokens(str(expectation.want.value)))


def _contains_words(text: str, id_words: tuple[str, ...]) -> bool:
    return _contains(words(text), id_words)
