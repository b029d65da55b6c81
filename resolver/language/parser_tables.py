"""The grammar's LALR tables, shipped with the package as JSON and loaded instead of built.

Building Lark's parser from ``grammar/openloop.lark`` (reading the grammar with Lark's own
grammar parser, then the LALR analysis) costs about 0.06 s of CPU in every process that parses
an ``.ol`` file: a first ``status`` pays it. Lark can save a built parser, but only as a pickle,
and whoever can write the folder a pickle is read from could run code inside every command and
hook. So the tables Lark would save (``Lark.memo_serialize``: the terminals, the rules, the
parse table and the options) are kept here as JSON, a format that can only ever give back data,
in ``tables/openloop.json`` beside this module, and handed to Lark's own deserialisation
(``Lark._load_from_dict``) with the transformer of the running process.

The file is generated from the grammar by ``python -m lab.parser_tables`` (which calls
:func:`document`). It records the SHA-256 of the grammar text the tables were built from (after
:func:`~resolver.language.keywords.ascii_keywords`) and Lark's version: when either differs from
the running process's, the parser is built from the grammar as before, so editing the grammar
without regenerating makes commands slower, never wrong. Lark numbers its states differently in
each process, so two generations differ in their numbers only: :func:`canonical` is what the
generator and ``tests/language/test_parser_tables.py`` compare, and that test fails, saying how
to regenerate, when the shipped tables are not those of today's grammar.

JSON has no tuples and no integer keys, which Lark's tables use (the parse table is keyed by
state and token numbers); :func:`encode` writes them as ``{"(": [...]}`` and
``{"#": [[key, value], ...]}``, and :func:`decode` reads them back. :func:`document` checks that
the tables decode back equal to what Lark gave, key order included (Lark lists expected tokens
in that order).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from lark import Lark, Transformer

__all__ = [
    "TABLES",
    "build",
    "canonical",
    "decode",
    "document",
    "encode",
    "load",
    "read",
    "stale",
    "tables_of",
]

#: The shipped tables.
TABLES = Path(__file__).resolve().parent / "tables" / "openloop.json"
#: The layout of the file; a file of another layout is not read.
FORMAT = 1
#: Lark's options for the openloop grammar (the transformer is given apart).
OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "maybe_placeholders": False,
}
_TUPLE = "("
_INT_KEYS = "#"


def build(grammar: str, transformer: Transformer | None) -> Lark:
    """The parser built from the grammar's text (what runs when no shipped tables fit)."""
    return Lark(grammar, transformer=transformer, **OPTIONS)


def load(grammar: str, transformer: Transformer) -> Lark | None:
    """The parser from the shipped tables, or None when they are missing or unreadable, of
    another layout, from another version of Lark or of another grammar than ``grammar``."""
    kept = read()
    if (
        not isinstance(kept, dict)
        or kept.get("format") != FORMAT
        or kept.get("lark") != _lark_version()
        or kept.get("grammar_sha256") != _digest(grammar)
    ):
        return None
    try:
        tables = kept["tables"]
        return Lark._load_from_dict(tables["data"], tables["memo"], transformer=transformer)
    except Exception:  # a damaged file, or Lark's private loader changed: build instead
        return None


def read() -> Any:
    """The shipped file, decoded (None when there is none or it is not JSON)."""
    try:
        return json.loads(TABLES.read_bytes(), object_hook=decode)
    except (OSError, ValueError):
        return None


def stale(grammar: str) -> str | None:
    """Why the shipped tables are not those of ``grammar`` with the running Lark, or None when
    they are (the tables compared by :func:`canonical`)."""
    kept = read()
    if not isinstance(kept, dict):
        return "there is no tables file"
    if kept.get("format") != FORMAT:
        return f"the file's layout is {kept.get('format')!r}, this code reads {FORMAT}"
    if kept.get("lark") != _lark_version():
        return f"the tables are Lark {kept.get('lark')}'s, this is Lark {_lark_version()}"
    if kept.get("grammar_sha256") != _digest(grammar):
        return "the grammar changed since the tables were written"
    try:
        shipped = canonical(kept["tables"])
    except (KeyError, TypeError, AttributeError):
        return "the file's tables are damaged"
    if shipped != canonical(tables_of(grammar)):
        return "the tables differ from the parser built from the grammar"
    return None


def tables_of(grammar: str) -> dict[str, Any]:
    """What Lark would save of the parser built from ``grammar``, less the options a process
    gives when it loads the tables (as ``Lark.save`` leaves them out)."""
    from lark.lark import _LOAD_ALLOWED_OPTIONS  # (here: only generating needs Lark's internals)

    data, memo = build(grammar, None).memo_serialize(_serialised_classes())
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
    return {"data": data, "memo": memo}


def document(grammar: str) -> str:
    """The text of the tables file for ``grammar`` with the running Lark."""
    tables = tables_of(grammar)
    encoded = encode(tables)
    text = json.dumps(encoded, ensure_ascii=True, separators=(",", ":"))
    back = json.loads(text, object_hook=decode)
    if back != tables or _orders(back) != _orders(tables):
        raise ValueError("Lark's tables do not survive JSON: a value this encoding cannot hold")
    head = {"format": FORMAT, "lark": _lark_version(), "grammar_sha256": _digest(grammar)}
    head_text = json.dumps(head, separators=(",", ":"))
    return head_text[:-1] + ',"tables":' + text + "}\n"


def canonical(tables: dict[str, Any]) -> dict[str, Any]:
    """The tables with nothing left that depends on the process that built them.

    Lark numbers the parser's states and tokens in an order that changes from one process to
    the next (it follows the hashes of its objects), so two builds of one grammar differ in
    their numbers but not in the automaton. Here each state is numbered in the order a walk
    from the start states finds it (each state's actions taken by token name), every reference
    to a rule or terminal is replaced by what it holds, and the lists whose order means nothing
    are sorted: two tables that parse alike give equal values.
    """
    memo = tables["memo"]

    def resolved(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"@"}:
                return resolved(memo[value["@"]])
            return {k: resolved(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [resolved(v) for v in value]
        return value

    def text(value: Any) -> str:
        return json.dumps(resolved(value), sort_keys=True)

    front = tables["data"]["parser"]
    table = front["parser"]
    tokens, states = table["tokens"], table["states"]
    numbers: dict[Any, int] = {}
    order: list[Any] = []

    def number(state: Any) -> int:
        if state not in numbers:
            numbers[state] = len(order)
            order.append(state)
        return numbers[state]

    for _, state in sorted(table["start_states"].items()):
        number(state)
    rows = []
    for state in order:  # grows while walked
        actions = sorted((tokens[token], act) for token, act in states[state].items())
        rows.append(
            [
                (name, "shift", number(arg)) if kind == 0 else (name, "reduce", text(arg))
                for name, (kind, arg) in actions
            ]
        )
    lexer_conf = {k: v for k, v in front["lexer_conf"].items() if k != "terminals"}
    parser_conf = {k: v for k, v in front["parser_conf"].items() if k != "rules"}
    return {
        "states": rows,
        "unreached": len(states) - len(order),
        "start": {k: numbers[v] for k, v in sorted(table["start_states"].items())},
        "end": {k: numbers.get(v) for k, v in sorted(table["end_states"].items())},
        "terminals": sorted(text(t) for t in front["lexer_conf"]["terminals"]),
        "lexer_conf": resolved(lexer_conf),
        "parser_rules": sorted(text(r) for r in front["parser_conf"]["rules"]),
        "parser_conf": resolved(parser_conf),
        "rules": sorted(text(r) for r in tables["data"]["rules"]),
        "options": resolved(tables["data"]["options"]),
        "other": sorted(k for k in tables["data"] if k not in ("parser", "rules", "options")),
    }


def encode(value: Any) -> Any:
    """``value`` with tuples and dicts of non-string keys spelled as JSON can hold them."""
    kind = type(value)
    if kind is dict:
        if all(type(k) is str for k in value) and not _looks_encoded(value):
            return {k: encode(v) for k, v in value.items()}
        return {_INT_KEYS: [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is tuple:
        return {_TUPLE: [encode(v) for v in value]}
    if kind is list:
        return [encode(v) for v in value]
    if value is None or kind in (str, int, bool, float):
        return value
    raise ValueError(f"cannot keep a {kind.__name__} in the parser's tables")


def decode(obj: dict[str, Any]) -> Any:
    """The ``object_hook`` that undoes :func:`encode` (inner values are decoded first)."""
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _INT_KEYS in obj:
            return {_frozen(k): v for k, v in obj[_INT_KEYS]}
    return obj


def _frozen(key: Any) -> Any:
    """A decoded key: a list cannot be one, and encode never writes one (keys are hashable)."""
    return tuple(key) if type(key) is list else key


def _looks_encoded(value: dict[str, Any]) -> bool:
    """A dict that decode would mistake for an encoded tuple or dict."""
    return len(value) == 1 and (_TUPLE in value or _INT_KEYS in value)


def _orders(value: Any) -> Any:
    """Every dict's key order, nested: equality of dicts ignores it, the tables do not."""
    if isinstance(value, dict):
        return [(k, _orders(v)) for k, v in value.items()]
    if isinstance(value, list | tuple):
        return [_orders(v) for v in value]
    return None


def _serialised_classes() -> list[type]:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    return [TerminalDef, Rule]


def _digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def _lark_version() -> str:
    import lark

    return str(lark.__version__)
