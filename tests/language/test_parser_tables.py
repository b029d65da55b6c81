"""The parser's shipped tables (``resolver/language/tables/openloop.json``): current, and alike.

A process parses ``.ol`` files with a parser loaded from the tables shipped with the package
instead of one built from the grammar (:mod:`resolver.language.parser_tables`). These tests hold
the file to today's grammar, and the loaded parser to the built one: the same parses and the
same error messages, on every ``.ol`` file of the repository and on broken copies of them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resolver.errors import InputError
from resolver.language import parser, parser_tables
from resolver.language.builder import Builder
from resolver.language.keywords import ascii_keywords
from resolver.resources import grammar_text

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ascii_keywords(grammar_text())
SOURCES = sorted(path for folder in ("fixtures", "tests") for path in (ROOT / folder).rglob("*.ol"))


def _written_with_another_lark() -> str | None:
    """The Lark version the shipped tables were written with, when it is not the installed one.

    A newer Lark released after the tables were written is no fault of the checkout: the
    parser is then built from the grammar (slower, same answers), so the two tests that need
    the tables loaded skip, saying so, rather than fail a fresh install."""
    kept = parser_tables.read()
    written = kept.get("lark") if isinstance(kept, dict) else None
    installed = parser_tables._lark_version()
    return written if written is not None and written != installed else None


def test_the_shipped_tables_are_todays_grammars():
    kept = parser_tables.read()
    assert isinstance(kept, dict) and kept.get("grammar_sha256") == parser_tables._digest(
        GRAMMAR
    ), "the grammar changed: regenerate the tables with `python -m lab.parser_tables`"
    other = _written_with_another_lark()
    if other is not None:
        pytest.skip(f"the tables are Lark {other}'s: this Lark builds the parser instead")
    why = parser_tables.stale(GRAMMAR)
    assert why is None, (
        f"resolver/language/tables/openloop.json is stale ({why}): regenerate it with "
        "`python -m lab.parser_tables` and commit the file"
    )


def test_a_process_loads_the_tables_rather_than_build():
    if _written_with_another_lark() is not None:
        pytest.skip("the tables were written with another Lark: this one builds the parser")
    loaded = parser_tables.load(GRAMMAR, Builder())
    assert loaded is not None
    assert loaded.source_path == "<deserialized>"


def test_a_stale_file_is_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    kept = json.loads(parser_tables.TABLES.read_text(encoding="utf-8"))
    for field, value in (("grammar_sha256", "0" * 64), ("lark", "0.0.0"), ("format", 0)):
        bad = tmp_path / f"{field}.json"
        bad.write_text(json.dumps({**kept, field: value}), encoding="utf-8")
        monkeypatch.setattr(parser_tables, "TABLES", bad)
        assert parser_tables.load(GRAMMAR, Builder()) is None
        assert parser_tables.stale(GRAMMAR) is not None
    damaged = tmp_path / "damaged.json"
    damaged.write_text(parser_tables.TABLES.read_text(encoding="utf-8")[:-5000], encoding="utf-8")
    monkeypatch.setattr(parser_tables, "TABLES", damaged)
    assert parser_tables.load(GRAMMAR, Builder()) is None
    no_tables = tmp_path / "no_tables.json"
    no_tables.write_text(json.dumps({**kept, "tables": {}}), encoding="utf-8")
    monkeypatch.setattr(parser_tables, "TABLES", no_tables)
    assert parser_tables.load(GRAMMAR, Builder()) is None
    monkeypatch.setattr(parser_tables, "TABLES", tmp_path / "missing.json")
    assert parser_tables.load(GRAMMAR, Builder()) is None
    assert parser_tables.stale(GRAMMAR) == "there is no tables file"


def test_an_edited_grammar_makes_the_tables_stale():
    edited = GRAMMAR + "\n// one more line\n"
    assert parser_tables.stale(edited) == "the grammar changed since the tables were written"


def test_canonical_tells_a_changed_table_apart():
    tables = parser_tables.read()["tables"]
    states = tables["data"]["parser"]["parser"]["states"]
    some = next(iter(states))
    changed = {**tables}
    changed["data"] = {**tables["data"], "parser": {**tables["data"]["parser"]}}
    changed["data"]["parser"]["parser"] = {
        **tables["data"]["parser"]["parser"],
        "states": {**states, some: dict(list(states[some].items())[1:])},
    }
    assert parser_tables.canonical(changed) != parser_tables.canonical(tables)


def _outcome(text: str, name: str) -> object:
    """What ``parse_text`` gives: the project, or the error's message."""
    try:
        return parser.parse_text(text, name)
    except InputError as exc:
        return str(exc)


@pytest.fixture(scope="module")
def both() -> tuple:
    if _written_with_another_lark() is not None:
        pytest.skip("the tables were written with another Lark: there is no loaded parser")
    loaded = parser_tables.load(GRAMMAR, Builder())
    built = parser_tables.build(GRAMMAR, Builder())
    assert loaded is not None
    return loaded, built


def _with(monkeypatch: pytest.MonkeyPatch, chosen) -> None:
    monkeypatch.setattr(parser, "_parser", lambda: chosen)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_loaded_and_built_parsers_parse_every_file_alike(path: Path, both, monkeypatch):
    text = path.read_text(encoding="utf-8")
    name = str(path.relative_to(ROOT))
    # Broken copies too: cut short at a few places, and a word changed, for the errors' words.
    cuts = [text[: len(text) * k // 7] for k in range(1, 7)]
    cuts.append(text.replace("{", "{ titel", 1))
    cuts.append(text.replace("}", "", 1))
    outcomes = []
    for chosen in both:
        _with(monkeypatch, chosen)
        outcomes.append([_outcome(t, name) for t in (text, *cuts)])
    assert outcomes[0] == outcomes[1]
    assert not isinstance(outcomes[0][0], str), outcomes[0][0]


@given(
    st.text(alphabet=st.sampled_from(list('task obligation{}"=,.-_0123456789:TZ\n#')), max_size=80)
)
def test_loaded_and_built_parsers_agree_on_any_text(both, text: str):
    loaded, built = both
    results = []
    original = parser._parser
    for chosen in (loaded, built):
        try:
            parser._parser = lambda chosen=chosen: chosen  # type: ignore[assignment]
            results.append(_outcome(text, "any.ol"))
        finally:
            parser._parser = original  # type: ignore[assignment]
    assert results[0] == results[1]


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=3),
        lambda inner: (
            st.lists(inner, max_size=3).map(tuple)
            | st.lists(inner, max_size=3)
            | st.dictionaries(st.text(max_size=2) | st.integers(), inner, max_size=3)
        ),
        max_leaves=12,
    )
)
def test_the_encoding_gives_back_what_it_was_given(value):
    text = json.dumps(parser_tables.encode(value))
    back = json.loads(text, object_hook=parser_tables.decode)
    assert back == value
    assert type(back) is type(value)
