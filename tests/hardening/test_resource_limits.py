"""Reading stays linear in the size of the input.

Regression of issue 17, item 11: one 50 MB string literal in an ``.ol`` file took 39 s and
6.7 GB to lint (about 134 bytes of memory per input byte: an alternation under ``*`` in the
string token kept a backtracking mark per character), and 18 s to report an unterminated one.
Memory, unlike time, can be asserted without depending on the machine: the peak allocation of
reading a 4 MB literal must stay within a small multiple of its size.
"""

from __future__ import annotations

import contextlib
import tracemalloc

import pytest

from resolver.errors import InputError
from resolver.language.parser import parse_text

SIZE = 4_000_000
#: Bytes of memory allowed per input byte (the text, the token, the decoded string: about 3-5).
PER_BYTE = 20


def _peak(source: str) -> int:
    parse_text("channel c work", "warm.ol")  # the parser is built once, outside the measure
    tracemalloc.start()
    with contextlib.suppress(InputError):
        parse_text(source, "big.ol")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


@pytest.mark.parametrize("body", ["a" * SIZE, ('ab\\"c\\\\' * (SIZE // 8))])
def test_a_huge_string_literal_is_read_in_linear_memory(body):
    source = 'expectation x { title "' + body + '" }'
    assert _peak(source) < PER_BYTE * len(source)


def test_a_huge_string_literal_is_decoded_exactly():
    body = 'ab\\"c\\\\' * 1000
    parsed = parse_text('expectation x { title "' + body + '" }', "big.ol")
    assert parsed.expectations[0].title == 'ab"c\\' * 1000


def test_an_unterminated_huge_literal_is_reported_in_linear_memory():
    source = 'expectation x { title "' + "a" * SIZE + " }"
    with pytest.raises(InputError, match="unterminated string"):
        parse_text(source, "big.ol")
    assert _peak(source) < PER_BYTE * len(source)
