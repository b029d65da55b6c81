"""The shown atoms are parsed into Python values exactly as their terms read: integers as
``int``, constants as text, nested terms as tuples led by their name."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.engine.atoms import Atoms, _parse_atom

_CONSTANT = st.sampled_from(["open", "bv", "a_b", "x1", "verify", "lower_id"])
_INTEGER = st.integers(min_value=-(2**31), max_value=2**31 - 1)


def _term(depth: int):
    """A random term (as its text and its expected value), nested at most ``depth`` deep."""
    leaf = st.one_of(_INTEGER.map(lambda n: (str(n), n)), _CONSTANT.map(lambda c: (c, c)))
    if depth == 0:
        return leaf
    nested = st.tuples(_CONSTANT, st.lists(_term(depth - 1), min_size=1, max_size=4)).map(
        lambda found: (
            f"{found[0]}({','.join(text for text, _ in found[1])})",
            (found[0], *(value for _, value in found[1])),
        )
    )
    return st.one_of(leaf, nested)


@settings(max_examples=300, deadline=None)
@given(_CONSTANT, st.lists(_term(3), min_size=1, max_size=6))
def test_an_atom_reads_back_as_its_terms(name, arguments):
    text = f"{name}({','.join(text for text, _ in arguments)})"
    expected = tuple(value for _, value in arguments)
    assert _parse_atom(text) == (name, expected)
    assert Atoms(f"{text} other(1,2)").get(name) == [expected]


def test_an_atom_without_arguments_is_its_name():
    assert _parse_atom("key_reasons_only") == ("key_reasons_only", ())
