"""Words and content tokens, as the text linker and the policy measurements compare texts.

Words are normalised (Unicode NFKC, case folded, split on anything that is not a letter or digit),
stop words dropped, a light suffix-stripping stemmer applied, and ``alias`` words mapped to the
first word of their alias line (SPEC §3). The linker's index (``linker.py``, ``text_index.py``)
relies on one property of :func:`stem`: a word's stem is a prefix of the word, or (``-ies``,
``-ied``) a prefix followed by ``y``; so every word that makes a token begins with that token, or
with the token less its final ``y``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from resolver.language.model import Alias

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
