"""The measurement behind the `claimed_unverified` labels (``lab/study/claims.py``).

On a small history: each candidate the flag names is measured as the linker reads it (the words
it shares with a TODO's note and how many the note has, whether it changes the TODO's file,
which shared words stand on a claiming line, whether it names the id), each reading of a claim
keeps or drops it as its docstring says, and precision counts an item by the candidate its line
names first. The readings that change what a content word is leave a small history as it is.
"""

from __future__ import annotations

from lab.study.claims import OPTIONS, claim_rows, first_named, precision
from lab.study.labels import LABELS
from resolver import api, times
from tests.helpers import prepare_text

_SOURCE = """
channel commits authoritative
policy todo-removed {
  title "$note"
  when set todo.* = "open"
  want $key = "removed"
  verify state
}
expectation issue-7 { title "Issue #7" opened 2024-07-01 verify state }
event c1 { channel commits seq 1 at 2024-08-01 by ann kind commit files "src/app.py"
  text "Add the pool" set todo.src/app.py:aa = "open"
  note todo.src/app.py:aa "TODO src/app.py: retry when the pool is exhausted" }
event c2 { channel commits seq 2 at 2024-08-02 by bob kind commit files "src/app.py"
  text "Fixed: retry when the pool is exhausted" }
event c3 { channel commits seq 3 at 2024-08-03 by bob kind commit files "src/db.py"
  text "Fix the pool size\\n\\nretry later" }
event c4 { channel commits seq 4 at 2024-08-04 by bob kind commit text "Done: issue 7" }
"""

TODO = "todo-removed/c1/todo.src/app.py:aa"


def _measured():
    return claim_rows(prepare_text(_SOURCE, preamble=False), times.parse_time("2024-09-01"))


def test_each_candidate_is_measured_as_the_linker_reads_it():
    measured = _measured()
    rows = {(r.item, r.candidate): r for r in measured.rows}
    assert set(rows) == {(TODO, "c2"), (TODO, "c3"), ("issue-7", "c4")}
    restated = rows[(TODO, "c2")]
    # the note's content words: todo, retry, pool, exhausted (its path is none)
    assert (restated.shared, restated.total) == (("exhaust", "pool", "retry"), 4)
    assert restated.note and restated.touches and restated.strong and restated.semantic
    assert restated.on_claim_line == 3 and restated.first_line.startswith("Fixed:")
    elsewhere = rows[(TODO, "c3")]
    assert (elsewhere.shared, elsewhere.touches, elsewhere.strong) == (
        ("pool", "retry"),
        False,
        False,
    )
    assert elsewhere.on_claim_line == 1  # `retry` stands on a line that claims nothing
    assert elsewhere.frequency == (3, 2) and elsewhere.together == 2
    issue = rows[("issue-7", "c4")]
    assert issue.names_id and not issue.note and issue.touches is None
    assert measured.texts == 4


def _kept(measured, name: str) -> set[str]:
    return {row.candidate for row in first_named(measured, OPTIONS[name]).values()}


def test_each_reading_keeps_what_it_says():
    measured = _measured()
    assert _kept(measured, "as now") == {"c2", "c4"}  # each item by its first-named candidate
    for reading in ("(b) note: touches its file", "(b) note: > 1/2 and touches its file"):
        assert _kept(measured, reading) == {"c2", "c4"}
    elsewhere = type(measured)(tuple(r for r in measured.rows if r.candidate != "c2"), 4)
    assert _kept(elsewhere, "(b) note: touches its file") == {"c4"}
    assert _kept(elsewhere, "(b) note: shares > 1/3 of its words") == {"c3", "c4"}  # 2 of 4
    assert _kept(elsewhere, "(b) note: shares > 1/2 of its words") == {"c4"}
    # c4 links strongly (2 of the title's 2 words); c3's one claiming line holds one shared word
    assert _kept(elsewhere, "(c) two shared words on the claim's line") == {"c4"}
    # "Fix the pool size" claims only with `fix`; "Done: issue 7" with `done`
    assert _kept(elsewhere, "(c) fix, fixed, fixes claim nothing") == {"c4"}


def test_a_small_history_keeps_every_word_whatever_the_jargon_reading():
    measured = _measured()
    for name in OPTIONS:
        if name.startswith("(a)"):
            assert first_named(measured, OPTIONS[name]) == first_named(measured)


def test_precision_counts_an_item_by_its_first_named_candidate():
    measured = _measured()
    labels = {(TODO, "c2"): (True, "restates the TODO and changes its file"),
              (TODO, "c3"): (False, "another file")}  # fmt: skip
    assert precision(measured, labels, OPTIONS["as now"]) == (2, 1, 1)  # issue-7 not labelled
    labels[("issue-7", "c4")] = (False, "names the issue, claims nothing about it")
    assert precision(measured, labels, OPTIONS["as now"]) == (2, 2, 1)


def test_the_study_labels_say_why():
    assert LABELS and all(why for _, why in LABELS.values())
    assert sum(1 for yes, _ in LABELS.values() if yes) >= 6


def test_it_asks_at_a_standpoint():
    prepared = prepare_text(_SOURCE, preamble=False)
    before = claim_rows(prepared, times.parse_time("2024-08-02T12:00:00Z"))
    assert {r.candidate for r in before.rows} == {"c2"}
    assert api.status(prepared, at="2024-08-02T12:00:00Z").expectation(TODO) is not None
