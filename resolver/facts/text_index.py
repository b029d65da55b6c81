"""The text linker's index of event texts by content token: built whole, or searched per token.

The linker (``linker.py``) asks an index four things: the texts holding a token when it is a
linking word (in at most ``common`` texts), whether a token occurs at all, a superset of the
texts holding every token of a phrase, and one text's tokens. Two indexes answer them exactly
alike (``tests/facts/test_scan_index.py``):

* :class:`FullIndex` reads every text's words once and keeps each token's posting list: the
  cost of a history with many expectations, whose words cover most texts anyway.
* :class:`ScanIndex` tokenises nothing up front. It joins the texts once, normalised as
  :func:`~resolver.facts.tokens.words` normalises them, and finds a token's texts by
  searching that string for the token's spellings (C-speed ``str.find``): every word that makes
  a token begins with one of them (:mod:`resolver.facts.tokens`). Each hit at the start of a
  word is confirmed by that word's token, so the answer is exact, and a text is tokenised whole
  only when a phrase, the wanted value or a coverage needs its word order. The cost follows the
  tokens asked: one ``find`` over the joined texts per spelling, about a two-hundredth of
  building the full index (measured at 100k events), so a scope of one task, as the hook asks,
  reads a long history's words several times cheaper.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Collection, Sequence
from itertools import accumulate

from resolver.facts.interning import INT_MAX, check_int
from resolver.facts.tokens import _WORD, STOP_WORDS, Vocabulary, stem, words

__all__ = ["FullIndex", "ScanIndex", "WordTokens"]

_WORD_CHAR = re.compile(r"[^\W_]").match


class WordTokens:
    """A raw word's content token ("" for a stop word), cached: most words recur in most texts.

    Equal tokens are one string object, so the index's posting keys and token tuples share them.
    """

    def __init__(self, vocabulary: Vocabulary) -> None:
        self._canonical = vocabulary.canonical
        #: Per raw word met: its token ("" for a stop word).
        self.cache: dict[str, str] = {}
        self._shared: dict[str, str] = {}

    def token(self, word: str) -> str:
        """The content token of one raw (case-folded) word, as :meth:`Vocabulary.tokens` maps it."""
        token = self.cache.get(word)
        if token is None:
            if word in STOP_WORDS:
                token = ""
            else:
                stemmed = stem(word)
                token = self._canonical.get(stemmed, stemmed)
                token = self._shared.setdefault(token, token)
            self.cache[word] = token
        return token

    def sequence(self, text: str) -> tuple[str, ...]:
        """The content tokens of ``text`` in order (the words first met are mapped one by one,
        then the text is mapped whole, in C)."""
        found = words(text)
        cache = self.cache
        for word in set(found).difference(cache):
            self.token(word)
        return tuple(filter(None, map(cache.__getitem__, found)))


class _Texts:
    """The texts, and each one's token sequence made when first asked for and kept."""

    def __init__(self, texts: Sequence[str], tokens: WordTokens) -> None:
        self.texts = texts
        self._words = tokens
        self._sequences: dict[int, tuple[str, ...]] = {}
        _check_lengths(texts, tokens)

    def tokens(self, number: int) -> tuple[str, ...]:
        """The content tokens of text ``number`` in order."""
        sequence = self._sequences.get(number)
        if sequence is None:
            sequence = self._sequences[number] = self._words.sequence(self.texts[number])
        return sequence

    def distinct(self, number: int) -> frozenset[str]:
        """The set of content tokens of text ``number``."""
        return frozenset(self.tokens(number))


class FullIndex(_Texts):
    """Every text read once; per token, the ascending numbers of the texts holding it.

    Only the posting lists are kept for every text: a text's token sequence is made again (and
    kept) when a phrase, a value or a coverage asks for it, as for a few linked texts.
    """

    def __init__(self, texts: Sequence[str], tokens: WordTokens, common: int | None) -> None:
        super().__init__(texts, tokens)
        self._common = common
        postings: dict[str, list[int]] = defaultdict(list)
        cache, token = tokens.cache, tokens.token
        for number, text in enumerate(texts):
            found = set(words(text))
            for word in found.difference(cache):
                token(word)
            for held in set(map(cache.__getitem__, found)):
                postings[held].append(number)
        postings.pop("", None)  # the stop words' "token"
        self._postings = dict(postings)

    def linking(self, token: str) -> Sequence[int]:
        """The texts holding ``token`` if it is a linking word (in at most ``common`` texts)."""
        found = self._postings.get(token, ())
        if self._common is not None and len(found) > self._common:
            return ()
        return found

    def known(self, tokens: Sequence[str]) -> bool:
        """Every one of ``tokens`` occurs in some text."""
        return all(token in self._postings for token in tokens)

    def holders(self, tokens: Sequence[str]) -> Collection[int]:
        """Texts holding the rarest of ``tokens`` (all :meth:`known`): a superset of those
        holding all of them."""
        return min((self._postings[token] for token in tokens), key=len)


class ScanIndex(_Texts):
    """The same answers as :class:`FullIndex`, found by searching the joined texts per token."""

    def __init__(
        self,
        texts: Sequence[str],
        tokens: WordTokens,
        vocabulary: Vocabulary,
        common: int | None,
    ) -> None:
        super().__init__(texts, tokens)
        self._common = common
        #: Per token: the stems that map to it (itself, or the words of its alias line).
        self._stems: dict[str, list[str]] = {}
        for stemmed, head in vocabulary.canonical.items():
            self._stems.setdefault(head, []).append(stemmed)
        self._aliased = vocabulary.canonical
        #: Per token: the texts found holding it, and whether that is all of them.
        self._found: dict[str, tuple[list[int], bool]] = {}
        self._folded: str | None = None
        self._starts: list[int] = []

    def linking(self, token: str) -> Sequence[int]:
        found, complete = self._search(token, self._common)
        if not complete or (self._common is not None and len(found) > self._common):
            return ()  # a common word (found whole for a phrase, or only in part)
        return found

    def known(self, tokens: Sequence[str]) -> bool:
        return all(self._search(token, 0)[0] for token in tokens)

    def holders(self, tokens: Sequence[str]) -> Collection[int]:
        complete = [found for found, done in map(self._found.__getitem__, tokens) if done]
        if not complete:  # every token is in many texts: list one of them whole
            complete = [self._search(tokens[0], None)[0]]
        return min(complete, key=len)

    def _search(self, token: str, enough: int | None) -> tuple[list[int], bool]:
        """The texts holding ``token``, ascending: all of them, or (not complete) more than
        ``enough`` of them. Kept, and searched again only when a caller needs more."""
        state = self._found.get(token)
        if state is None or not (state[1] or (enough is not None and len(state[0]) > enough)):
            state = self._found[token] = self._scan(token, enough)
        return state

    def _scan(self, token: str, enough: int | None) -> tuple[list[int], bool]:
        folded, starts = self._joined()
        word_token = self._words.token
        found: set[int] = set()
        for needle in self._needles(token):
            find = folded.find
            at = find(needle)
            while at >= 0:
                if at and _WORD_CHAR(folded, at - 1):  # inside a word: no word begins here
                    at = find(needle, at + 1)
                    continue
                number = bisect_right(starts, at) - 1
                if number in found:
                    at = find(needle, starts[number + 1])
                    continue
                word = _WORD.match(folded, at).group()  # type: ignore[union-attr]
                if word_token(word) != token:
                    at = find(needle, at + len(word))
                    continue
                found.add(number)
                if enough is not None and len(found) > enough:
                    return sorted(found), False
                at = find(needle, starts[number + 1])
        return sorted(found), True

    def _needles(self, token: str) -> list[str]:
        """Strings every word making ``token`` begins with: each stem that maps to it, less a
        final ``y`` (``entries`` stems as ``entry``); none a prefix of another."""
        stems = list(self._stems.get(token, ()))
        if token not in self._aliased:
            stems.append(token)
        cut = sorted({s[:-1] if len(s) > 3 and s.endswith("y") else s for s in stems})
        return [s for i, s in enumerate(cut) if not any(s.startswith(p) for p in cut[:i])]

    def _joined(self) -> tuple[str, list[int]]:
        """The texts case-folded as :func:`words` folds them, joined by newlines, and where each
        begins (plus one past the end)."""
        if self._folded is None:
            joined = "\n".join(self.texts)
            if joined.isascii():
                folded, lengths = joined.lower(), list(map(len, self.texts))
            else:
                parts = [_fold(text) for text in self.texts]
                folded, lengths = "\n".join(parts), list(map(len, parts))
            self._folded = folded
            self._starts = [0, *accumulate(n + 1 for n in lengths)]
        return self._folded, self._starts


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKC", text).casefold()


def _check_lengths(texts: Sequence[str], tokens: WordTokens) -> None:
    """Refuse a text of more words than clingo's integers count (``covered`` writes the count).

    No text shorter than ``INT_MAX`` characters can hold that many, so only a longer one (none
    in practice) is tokenised here.
    """
    if texts and max(map(len, texts)) > INT_MAX:
        for text in texts:
            if len(text) > INT_MAX:
                check_int(len(tokens.sequence(text)), "words in one text")
