"""`claimed_unverified` only for a text a person would read as a claim about the item (SPEC §3).

Measured on two real histories (``docs/design/accuracy.md``), the flag marked nearly every TODO: the
file path in a TODO's title linked every commit touching that file, the message of the commit
that added the TODO linked everything sharing two words with it, ``Merge`` was a done word, and
``doesn't close`` was a claim. Each case below keeps a control that still is flagged, so no test
passes by flagging nothing.
"""

from __future__ import annotations

from resolver import api
from resolver.facts.done_claims import claims_done
from tests.helpers import prepare_text, verdict

AT = "2024-09-01"

_POLICY = """
channel commits authoritative
policy todo-removed {
  title "$note"
  when set todo.* = "open"
  want $key = "removed"
  verify state
}
"""

_OPEN = (
    "event c1 { channel commits seq 1 at 2024-08-01 by ann kind commit "
    'files "lark/load_grammar.py" '
    'text "Refactor grammar loading; adds several notes for later" '
    'set todo.lark/load_grammar.py:aa = "open" '
    'note todo.lark/load_grammar.py:aa "TODO lark/load_grammar.py: solve with transitive closure" }'
)

ITEM = "todo-removed/c1/todo.lark/load_grammar.py:aa"


def _todo(*later: str):
    source = _POLICY + _OPEN + "\n" + "\n".join(later)
    return verdict(api.status(prepare_text(source, preamble=False), at=AT), ITEM)


def _commit(ident: str, seq: int, text: str, kind: str = "commit") -> str:
    return (
        f"event {ident} {{ channel commits seq {seq} at 2024-08-0{seq} by bob kind {kind} "
        f'text "{text}" }}'
    )


def test_the_path_of_a_todo_is_no_content_word_of_it():
    found = _todo(_commit("c2", 2, "Small fixes for mypy in lark/load_grammar.py"))
    assert "claimed_unverified" not in found.flags
    assert not any(r.event == "c2" for r in found.reasons)
    control = _todo(_commit("c2", 2, "Fixed: transitive closure of rules"))
    assert "claimed_unverified" in control.flags


def test_the_message_that_added_a_todo_is_not_its_opening_text():
    found = _todo(_commit("c2", 2, "Fixed grammar loading notes"))
    assert not any(r.event == "c2" for r in found.reasons)


def test_a_merge_claims_only_through_a_done_word():
    merge = "Merge pull request 12 from ann/closure - transitive closure solved"
    found = _todo(_commit("c2", 2, merge, kind="merge"))
    assert "claimed_unverified" not in found.flags
    control = _todo(_commit("c2", 2, merge + " and merged", kind="merge"))
    assert "claimed_unverified" in control.flags


def test_a_negated_done_word_is_no_claim():
    found = _todo(_commit("c2", 2, "transitive closure still not fixed"))
    assert "claimed_unverified" not in found.flags
    control = _todo(_commit("c2", 2, "transitive closure is fixed now"))
    assert "claimed_unverified" in control.flags


def test_done_words_as_the_linker_reads_them():
    assert claims_done("Fix the transitive closure")
    assert claims_done("this closes the closure work")
    assert not claims_done("we should fix the closure")
    assert not claims_done("Merge pull request #1619 from x/fix-1618-lexer")
    assert not claims_done("pager doesn't close std streams")
    assert not claims_done("it can't be resolved")
    assert not claims_done("no longer never finished")
    assert claims_done("not now.\nFinished it")
