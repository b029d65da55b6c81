"""Whether a text makes a done-style claim (SPEC §3, tier ``textual``): measured in words.

The linker hands the rules one fact per event, ``done_cue(E)``; this module decides which words
make it, because measured on real histories a loose reading made nearly every link a claim
(``docs/design/accuracy.md``, "`claimed_unverified`"):

* Only the words that say something *is* done count, compared as written (no stemming): the
  spec's ``done``, ``finished``, ``completed``, ``resolved`` and their kin (:data:`DONE_WORDS`).
  Stemming made ``merge`` a done word (it stems as ``merged`` does), and every merge a claim.
* A bare imperative (``fix``, ``close``, ``resolve``, ``complete``, ``finish``) counts only as
  the first word of a line: a commit subject ``Fix the parser`` says this commit fixes it, while
  ``we should fix this`` or a branch ``x/fix-y`` claims nothing.
* A word inside a path-like token (one holding ``/``: a branch, a URL, a file) claims nothing.
* A done word with a negation among the three words before it (``not``, ``no``, ``never``,
  ``without``, ``cannot``, ``doesn't``, ``isn't``, ...) claims nothing: "pager doesn't close std
  streams" is a report of a fault, not of work done.
"""

from __future__ import annotations

import re
import unicodedata

#: Words that say, as written, that something is done.
DONE_WORDS = frozenset(
    """
    done finished finishes completed completes resolved resolves fixed fixes closed closes
    shipped ships merged landed lands delivered delivers implemented
    """.split()  # noqa: SIM905
)

#: Imperatives that claim only as a line's first word (a commit subject's verb).
SUBJECT_WORDS = frozenset(("fix", "close", "resolve", "complete", "finish"))

#: Words that negate a done word up to three words after them. ``doesn``, ``isn``, ... are
#: what ``doesn't``, ``isn't`` leave when split at the apostrophe; ``t`` after a word ending
#: in ``n`` (``can't``, ``won't``) is handled in :func:`claims_done`.
NEGATIONS = frozenset(
    """
    not no never without cannot nor doesn don didn isn wasn aren weren hasn haven hadn won
    wouldn shouldn couldn mustn
    """.split()  # noqa: SIM905
)

#: How many words before a done word a negation reaches.
NEGATION_REACH = 3

_PATHLIKE = re.compile(r"\S*/\S*")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """Case-folded words, as the linker splits them (``doesn't`` is ``doesn``, ``t``)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _negated(line: list[str], at: int) -> bool:
    for i in range(max(0, at - NEGATION_REACH), at):
        word = line[i]
        if word in NEGATIONS or (word == "t" and i > 0 and line[i - 1].endswith("n")):
            return True
    return False


def claims_done(
    text: str, done: frozenset[str] = DONE_WORDS, subject: frozenset[str] = SUBJECT_WORDS
) -> bool:
    """The text holds a done word, not negated, outside paths (see the module's docstring).

    ``done`` and ``subject`` are the two word lists; the accuracy study passes others to
    measure another reading of a claim (``lab/study/claims.py``).
    """
    for raw in text.splitlines():
        line = words(_PATHLIKE.sub(" ", raw))
        for at, word in enumerate(line):
            claim = word in done or (at == 0 and word in subject)
            if claim and not _negated(line, at):
                return True
    return False
