"""The status face's own indenting writer prints what the json module prints, byte for byte."""

from __future__ import annotations

import json
from collections import OrderedDict

from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.faces.json_format import indented

PLAIN = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=12),
)
DOCUMENTS = st.recursive(
    PLAIN,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=5),
    ),
    max_leaves=40,
)


def expected(document) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_plain_documents_print_as_the_json_module_prints_them(document):
    assert indented(document) == expected(document)


@given(st.one_of(st.floats(allow_nan=True), st.dictionaries(st.integers(), PLAIN, min_size=1)))
def test_anything_else_is_left_to_the_json_module(value):
    document = {"a": [1, {"b": value}], "c": '\u00e9\u2028"\\'}
    assert indented(document) == expected(document)


def test_other_mappings_and_subclasses_are_left_to_the_json_module():
    class Text(str):
        pass

    for document in ({"a": OrderedDict(b=1)}, [Text("x")], {"k": 10**30}, "\x00", [], {}):
        assert indented(document) == expected(document)
