"""Every word list of the spec's vocabulary is spelled out once, in ``resolver/vocabulary.py``.

A module that needs the closed statuses, the tiers or the markers imports them from there (which
``tests/rules/test_vocabulary.py`` checks against the rules), so that adding a word is one edit.
This test reads every module of the package and of the laboratory beside it (``lab/``) and fails
on a tuple, list, set or dict literal that holds at least three words of one vocabulary list
(every word of a shorter list), upper or lower case. A table with something to say per word (a
colour per status, a sentence per class) is written as ``vocabulary.per_word(WORDS, {...})``,
which checks it names every word once; its literal is allowed. Any other exception is listed
below by name, with its reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from resolver import vocabulary
from resolver.faces.explanation import phrases as explanation_phrases
from resolver.faces.explanation import text as explanation_text
from resolver.faces.explanation import words as explain_words

PACKAGE = Path(vocabulary.__file__).parent
ROOT = PACKAGE.parent
#: The folders scanned: the product and the laboratory (which imports the product's words).
SCANNED = ("resolver", "lab")
#: Another change is rewriting these modules; they import the words when it lands.
PENDING = "pending"

#: Modules allowed to spell a list, with the reason (paths relative to the repository).
EXCEPTIONS: dict[str, str] = {
    "resolver/vocabulary.py": "the one place the words are spelled",
    "resolver/ingest/github.py": (
        "maps GitHub's close reasons onto our markers: GitHub's words, not a list"
    ),
}


def _lists() -> dict[str, frozenset[str]]:
    """Each public word list of the vocabulary (a dict's keys, and its values, as two)."""
    out = {}
    for name, value in vars(vocabulary).items():
        if not name.isupper():
            continue
        if isinstance(value, dict):
            out[f"{name} keys"] = frozenset(value)
            out[f"{name} values"] = frozenset(value.values())
        elif isinstance(value, tuple) and all(isinstance(w, str) for w in value):
            out[name] = frozenset(value)
    return out


def _checked_tables(tree: ast.AST) -> set[int]:
    """Ids of the literals handed to ``per_word``, which checks them against the vocabulary."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) == 2:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else None
            name = node.func.id if isinstance(node.func, ast.Name) else name
            if name == "per_word":
                out.add(id(node.args[1]))
    return out


def _word_sets(node: ast.AST) -> list[set[str]]:
    """The string words of a literal collection, lower case: a sequence's items, or a dict's
    keys and its values as two sets."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        groups = [node.elts]
    elif isinstance(node, ast.Dict):
        groups = [[k for k in node.keys if k is not None], node.values]
    else:
        return []
    return [
        {i.value.lower() for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
        for items in groups
    ]


def copies(source: str, lists: dict[str, frozenset[str]]) -> list[str]:
    """``line: LIST (words)`` for each literal in ``source`` that spells a list again.

    A literal spells a list when it holds at least three of its words (all of a shorter list)
    and nothing but vocabulary words: a table keyed by a wider set of codes (a sentence per
    rejection reason, a look per edge kind) that happens to name a few of them is not a copy.
    """
    tree = ast.parse(source)
    checked = _checked_tables(tree)
    every_word = frozenset().union(*lists.values())
    found = []
    for node in ast.walk(tree):
        if id(node) in checked:
            continue
        for words in _word_sets(node):
            if not words or not words <= every_word:
                continue
            spelled = [
                (len(common), name, common)
                for name, vocabulary_words in lists.items()
                if len(common := words & vocabulary_words) >= min(3, len(vocabulary_words))
            ]
            if spelled:  # the list it copies most of
                _, name, common = max(spelled, key=lambda hit: hit[0])
                found.append(f"{node.lineno}: {name} ({', '.join(sorted(common))})")
    return found


def test_no_module_spells_a_vocabulary_list_again() -> None:
    lists = _lists()
    found = []
    scanned = [path for folder in SCANNED for path in sorted((ROOT / folder).rglob("*.py"))]
    assert any(path.is_relative_to(ROOT / "lab") for path in scanned), "the lab is scanned"
    for path in scanned:
        relative = path.relative_to(ROOT).as_posix()
        if relative not in EXCEPTIONS:
            found += [f"{relative}:{hit}" for hit in copies(path.read_text(), lists)]
    assert not found, "import these words from resolver.vocabulary:\n" + "\n".join(found)


def test_the_guard_sees_a_copy_in_any_case_and_allows_a_checked_table() -> None:
    lists = _lists()
    assert copies('X = ("SATISFIED", "CANCELLED", "WAIVED")', lists)
    assert copies('ok = s in ("OPEN", "UNKNOWN")', lists)
    assert copies('LOOK = {"cancels": 1, "supersedes": 2, "waives": 3}', lists)
    assert not copies('X = ("open", "candidates", "all")', lists)
    assert not copies(
        'SAY = {"cancels": "a", "waives": "b", "reopens": "c", "part_of": "d"}', lists
    )
    assert not copies('T = per_word(CONFIDENCE, {"unknown": 1, "late": 2, "blocked": 3})', lists)


def test_every_exception_still_spells_a_list() -> None:
    """An exception whose module no longer copies a list (or is gone) is dropped from the list;
    a pending one may move or go while its change lands."""
    lists = _lists()
    for name, reason in EXCEPTIONS.items():
        if name != "resolver/vocabulary.py" and reason != PENDING:
            assert copies((ROOT / name).read_text(), lists), name


def test_a_per_word_table_names_every_word_once() -> None:
    table = vocabulary.per_word(vocabulary.OUTCOMES, {"FAILED": 3, "confirmed": 1, "unknown": 2})
    assert list(table) == ["confirmed", "unknown", "FAILED"]  # the vocabulary's order
    for wrong in (
        {"confirmed": 1, "unknown": 2},
        {"confirmed": 1, "unknown": 2, "failed": 3, "x": 4},
    ):
        with pytest.raises(ValueError, match="each word once"):
            vocabulary.per_word(vocabulary.OUTCOMES, wrong)
    with pytest.raises(ValueError, match="each word once"):  # one word twice, in two cases
        vocabulary.per_word(vocabulary.OUTCOMES, {"confirmed": 1, "CONFIRMED": 1, "unknown": 2})


def test_the_sentences_that_restate_rules_say_the_vocabulary() -> None:
    """The tie-break's order, the marker that would close with each status (every closed one
    but satisfied has one) and the task rule name the vocabulary's words, in full."""
    stronger = explanation_phrases._STRONGER
    assert f"tier order {', '.join(vocabulary.TIERS)}, then " in stronger
    assert stronger.endswith(f"then {', '.join(vocabulary.LATER_CLOSES)})")
    assert set(vocabulary.LATER_CLOSES) <= set(explain_words._ENDING_BY_STATUS)
    said = set(re.findall(r"[A-Z_]{2,}", explanation_text.COMPLETE_RULE.split(":", 1)[1]))
    assert said == set(vocabulary.upper(vocabulary.CLOSED_STATUSES))
