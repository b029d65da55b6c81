"""The mention baseline of the open-loops study: task-like phrases found in text, deduplicated.

This is the comparator, not openloop: a plain text heuristic of the kind a team would write
first. It reads every event's text, flags each sentence holding a task-like pattern (TODO,
FIXME, need to, should, must, have to, before release, ...) as an open item, and merges
duplicates (two flagged sentences sharing at least half of the shorter one's content words).
In its stronger form it also closes a flagged item when a later text carries a closure phrase
(done, fixed, resolved, out of scope, ...) and shares at least two of the item's content words
(all of them when it has fewer than two). It never looks at state changes, markers or channels,
which is exactly why it keeps silently completed work open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from resolver.language.model import Event


def _patterns(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


#: Task-like patterns, matched case-insensitively inside one sentence.
TASK_PATTERNS = _patterns(
    r"\btodo\b",
    r"\bfixme\b",
    r"\bneeds? to\b",
    r"\bshould\b",
    r"\bmust\b",
    r"\bha(?:s|ve) to\b",
    r"\bremember to\b",
    r"\bdon'?t forget\b",
    r"\bbefore (?:the )?release\b",
)
#: Closure phrases of the stronger form.
CLOSURE_PATTERNS = _patterns(
    r"\bdone\b",
    r"\bfixed\b",
    r"\bresolved\b",
    r"\bclosed\b",
    r"\bcompleted?\b",
    r"\bfinished\b",
    r"\bshipped\b",
    r"\bmerged\b",
    r"\bcancel+ed\b",
    r"\bdropped\b",
    r"\bout of scope\b",
    r"\bwon'?t (?:do|fix)\b",
)
_STOP_TEXT = """a an and are as at be been before but by can do does for from has have in into is
    it its no not now of on onto or our should so still that the them these they this those to
    todo fixme up us was we were will with would need needs must probably every then than also
    just reminder"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def content_words(text: str) -> frozenset[str]:
    """Lower-cased words without stop words, crudely stemmed (``backups`` = ``backup``)."""
    return frozenset(_stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix) and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


@dataclass
class Mention:
    """One flagged item: the sentence that first raised it and every event that repeated it."""

    event: str
    at: int
    sentence: str
    words: frozenset[str]
    repeats: list[str] = field(default_factory=list)
    closed_by: str | None = None

    @property
    def events(self) -> tuple[str, ...]:
        """The flagging event and its duplicates."""
        return (self.event, *self.repeats)


def flagged_sentences(text: str) -> list[str]:
    """The sentences of ``text`` holding a task-like pattern."""
    sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
    return [s for s in sentences if any(p.search(s) for p in TASK_PATTERNS)]


def _duplicates(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return a == b
    return 2 * len(a & b) >= min(len(a), len(b))


def detect(events: Iterable[Event], at: int | None = None) -> list[Mention]:
    """Mention only: every flagged item among texts with ``at`` up to ``at``, deduplicated."""
    mentions: list[Mention] = []
    for event in sorted(events, key=lambda e: (e.at, e.id)):
        if event.text is None or (at is not None and event.at > at):
            continue
        for sentence in flagged_sentences(event.text):
            words = content_words(sentence)
            same = next((m for m in mentions if _duplicates(m.words, words)), None)
            if same is None:
                mentions.append(Mention(event.id, event.at, sentence, words))
            elif event.id not in same.events:
                same.repeats.append(event.id)
    return mentions


def detect_with_closure(events: Iterable[Event], at: int | None = None) -> list[Mention]:
    """Mention plus nearby closure words: as :func:`detect`, closing items a later text settles."""
    events = sorted(events, key=lambda e: (e.at, e.id))
    mentions = detect(events, at)
    for mention in mentions:
        need = min(2, len(mention.words))
        for event in events:
            if event.at <= mention.at or event.text is None or (at is not None and event.at > at):
                continue
            if event.id in mention.events:
                continue
            closing = any(p.search(event.text) for p in CLOSURE_PATTERNS)
            if closing and len(mention.words & content_words(event.text)) >= need:
                mention.closed_by = event.id
                break
    return mentions


def open_items(mentions: Iterable[Mention]) -> list[Mention]:
    """The items the reader reports as still open."""
    return [m for m in mentions if m.closed_by is None]
