"""Hand labels of the candidates `claimed_unverified` names at HEAD of the two study histories.

Each (item, candidate) was read by hand (``openloop explain ID FOLDER --full`` and ``git show``
of the candidate) and labelled: would a person read that candidate as a claim about that item,
that the TODO was dealt with or the issue fixed? Every candidate below `verify` of every flagged
item is labelled, not only the one the flag's line names first, so that each reading measured in
:data:`lab.study.claims.OPTIONS` has a label for the candidate it would name first.
``docs/design/accuracy.md`` prints them as tables; the slow study test fails when the linker
flags a candidate nobody has labelled.
"""

from __future__ import annotations

__all__ = ["LABELS"]

_P = "todo-removed/commit-"

#: (item, candidate) -> (read as a claim about the item, why).
LABELS: dict[tuple[str, str], tuple[bool, str]] = {}


def _label(item: str, why_by_candidate: dict[str, tuple[bool, str]]) -> None:
    for candidate, label in why_by_candidate.items():
        LABELS[(item, f"commit-{candidate}")] = label


_NO_AMBIGUITY = (False, "an Earley tree-builder clash with explicit ambiguity; not an empty rule")
_NO_PERF = (False, "a performance regression with empty rules, not this bug")
_NO_ASSERT = (False, "an assert on a Rule's empty options")
_NO_DEEP = (False, "a grammar-analysis bug with empty rules (cyk.py); not ambiguity in Earley")
_NO_CALLBACKS = (False, "fixes lexer_callbacks; the TODO asks whether to deprecate them")
_NO_STUB = (False, "a lexer_callback argument in the type stub; nothing about deprecating it")
_NO_VARGS = (False, "a type hint of v_args; the shared words are chance")
_NO_DISCARD = (False, "a Transformer_NonRecursive crash; shares `result`, `return` by chance")
_EMPTY_GONE = "the XXX was gone since March 2017, long before this commit"

_label(
    _P + "08a8a747b823/todo.tests/test_parser.py:a16b13c5",
    {"0aaca5975496": (False, "an empty SPPF node in xearley; nothing about UnexpectedInput")},
)
for earley_bug in ("1685f94ea3d0/todo.lark/parsers/earley.py:bcd47401",
                   "a73cc9ad902a/todo.lark/parsers/earley.py:4f1f1d85",
                   "e7edae0604f2/todo.lark/parsers/xearley.py:bcd47401"):  # fmt: skip
    _label(
        _P + earley_bug,
        {
            "25c3c51b1c6c": _NO_AMBIGUITY,
            "64992aa49cde": _NO_PERF,
            "6c8ba76b7944": _NO_DEEP,
            "a543eeb162cb": _NO_ASSERT,
        },
    )
for callbacks in ("1815bd7fbda9/todo.lark/lark.py:5c3d1888",
                  "b2f1b3bf7c63/todo.examples/standalone/json_parser.py:5c3d1888"):  # fmt: skip
    _label(
        _P + callbacks,
        {
            "332acf8982f1": _NO_CALLBACKS,
            "46bbc82b3a52": _NO_CALLBACKS,
            "97975532acc7": _NO_STUB,
            "f807bed5107a": _NO_STUB,
        },
    )
_label(
    _P + "39fb4c0f3e2c/todo.lark/parsers/earley_forest.py:349be660",
    {"67ae0e2b160a": (True, "adds visiting of intermediate nodes, on the branch that removed it")},
)
_label(_P + "41934d390dd7/todo.lark/grammar.py:9f6cbc6a", {"d37172e682d9": _NO_VARGS})
for compiled in ("633bd21e70ef/todo.lark/reconstruct.py:dc1864af",
                 "a88d3b0ee227/todo.lark/tree_matcher.py:dc1864af"):  # fmt: skip
    _label(_P + compiled, {"42057206b7eb": _NO_DISCARD})
_label(
    _P + "7043c3ee2073/todo.lark/parsers/earley.py:5a324ff0",
    {
        "46df29b97bda": (True, "'Also adding some typing info': the work asked (in other files)"),
        "d37172e682d9": _NO_VARGS,
    },
)
_label(
    _P + "816266a5eba0/todo.lark/parsers/xearley.py:a44601d6",
    {"0aaca5975496": (False, "the xearley ignore carry-over fix; adds no partial matches")},
)
_label(
    _P + "899f69a94b07/todo.tests/test_parser.py:a17c5c54",
    {"dc94ebc42f98": (True, "'Fix Earley non-determinism' (rule order): the order it asks for")},
)
_label(
    _P + "9b8ae7aecbe6/todo.lark/load_grammar.py:b0f82f00",
    {
        "1e4dbac58cbe": (False, "newlines in ignored tokens; the %ignore hack stays"),
        "7b32ffd83a9d": (False, "token visibility rules; nothing about recognising %ignore"),
        "a7c71f32cc41": (False, "Lark.lex() and a dont_ignore option; the hack stays"),
    },
)
_label(
    _P + "9f666a74595f/todo.lark/load_grammar.py:4808a9d6",
    {
        "0aaca5975496": (False, "an empty SPPF node; nothing about recognising %ignore"),
        "332acf8982f1": (False, "lexer_callbacks for keyword terminals"),
        "46bbc82b3a52": (False, "lexer_callbacks for keyword terminals"),
        "a7c71f32cc41": (False, "Lark.lex() and a dont_ignore option; the hack stays"),
    },
)
_label(
    _P + "9f666a74595f/todo.lark/tree.py:b452a551",
    {
        "28e571f1c689": (False, "a DeprecationWarning in lalr_analysis.py"),
        "2b3fabd01cec": (False, "Discard broken in 0.6.6; shares the digits of a version"),
        "4e96b96bb55f": (False, "v1.0 changes in load_grammar.py and visitors.py, not tree.py"),
        "8212bf78d595": (False, "backwards compatibility of the lexer (lexer.py), not tree.py"),
    },
)
_label(
    _P + "a0bb661c61eb/todo.lark/load_grammar.py:362590b6",
    {
        "83006aa0c828": (False, "a curly apostrophe in lark.py called an import bug"),
        "f2d66a6d5cfd": (False, "a merge whose 'Resolved conflicts' is about the merge"),
    },
)
_label(
    _P + "a0bb661c61eb/todo.lark/load_grammar.py:892ab3df",
    {"138f1d5d76d1": (False, "member order when pickling Token; nothing about unused tokens")},
)
_label(
    _P + "a60c339ff781/todo.lark/parsers/earley.py:a74a2634",
    {
        "64992aa49cde": (False, _EMPTY_GONE),
        "6c8ba76b7944": (False, _EMPTY_GONE),
        "a543eeb162cb": (False, _EMPTY_GONE),
    },
)
_label(
    _P + "b2f1b3bf7c63/todo.examples/standalone/json_parser.py:94c32ec6",
    {"4e96b96bb55f": (False, "the copy in this generated file was gone a year before")},
)
_label(
    _P + "cc5482958db6/todo.tests/test_grammar.py:2dd770b6",
    {"d37172e682d9": (False, "a type hint of v_args; shares `below`, `required` by chance")},
)
_label(
    _P + "d44658fa3f6d/todo.lark/load_grammar.py:36266f8e",
    {"d952f2a06947": (False, "token values always unicode; nothing about mixing escapes")},
)
_label(
    _P + "e1a39c58d0a9/todo.lark/visitors.py:94c32ec6",
    {"4e96b96bb55f": (True, "the v1.0 commit that made this swap and removed this TODO")},
)
_label(
    _P + "f7442d3be669/todo.lark/load_grammar.py:c2fad4b2",
    {
        "71ab62450cbb": (True, "templates inside terminals now raise GrammarError"),
        "92047e9196f6": (True, "templates inside terminals now raise GrammarError"),
    },
)
_label(
    "issue-873",
    {"9c456ec26794": (True, "merges branch ISSUE-873 'Fix variable precedence'")},
)
