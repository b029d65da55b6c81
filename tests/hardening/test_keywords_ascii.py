"""Keywords are case-insensitive in ASCII only (issue 29, low): ``tasK`` with the Kelvin sign
(U+212A), ``ſet`` with the long s (U+017F) or ``tİtle`` with a dotted capital I fold to ASCII
letters under Unicode case folding, but a reader sees another word; they are not keywords."""

from __future__ import annotations

import re

import pytest

from resolver.errors import InputError
from resolver.language.keywords import ascii_keywords, words
from resolver.language.parser import parse_text
from resolver.resources import grammar_text

#: Non-ASCII characters that Python's case-insensitive matching takes for an ASCII letter.
FOLDS = {"k": "\u212a", "s": "\u017f", "i": "\u0130"}

BASE = """
channel ci work
task release { title "Release" opened 2024-01-01 }
event e1 { channel ci at 2024-01-02 set k = 1 }
"""


def test_ascii_case_is_still_free() -> None:
    project = parse_text(BASE.replace("task", "TASK").replace("title", "Title"), "x.ol")
    assert [t.id for t in project.tasks] == ["release"]
    assert [e.id for e in project.events] == ["e1"]


@pytest.mark.parametrize(
    ("word", "folded"),
    [("task", "tas\u212a"), ("set", "\u017fet"), ("title", "t\u0130tle"), ("channel", "channel")],
)
def test_a_folded_letter_makes_another_word(word: str, folded: str) -> None:
    text = BASE.replace(f"{word} ", f"{folded} ", 1)
    if folded == word:  # the control: the unchanged text parses
        parse_text(text, "x.ol")
        return
    with pytest.raises(InputError) as error:
        parse_text(text, "x.ol")
    assert str(error.value).startswith("x.ol:")
    assert folded in str(error.value)


def test_no_keyword_pattern_matches_a_non_ascii_letter() -> None:
    text = ascii_keywords(grammar_text())
    patterns = re.findall(r"^[A-Z_]+\.\d+:\s*/(.*)/(\w*)\s*$", text, re.M)
    keywords = words().keywords
    checked = 0
    for pattern, flags in patterns:
        assert "i" not in flags, pattern
        for word in keywords:
            if re.match(pattern, word) and re.match(pattern, word.upper()):
                checked += 1
                for letter, odd in FOLDS.items():
                    if letter in word:
                        assert not re.match(pattern, word.replace(letter, odd, 1)), pattern
    assert checked >= len(keywords)  # every keyword has a pattern, and each was tried
