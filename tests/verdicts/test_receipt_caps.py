"""``receipt``: the decisive argument and a bounded number of notes and rejected candidates per
obligation, with a count of the rest; ``--full`` lists every one (SPEC §4)."""

from __future__ import annotations

import json

import pytest

from resolver import api
from resolver.verdicts import receipt
from tests.caps_histories import AT, openloop, write

HISTORY = """
channel sessions mention
channel commits work
actor alice principal
task t { title "Ship" opened 2024-01-01 principal alice }
expectation backups {
  title "Move the nightly backups to PostgreSQL"
  opened_by s1
  want backup.backend = "PostgreSQL"
  part_of t
}
expectation docs { title "Write the docs" opened 2024-01-01 part_of t verify explicit }
expectation index { title "Rebuild the index" opened 2024-01-01 part_of t verify explicit }
event s1 { channel sessions at 2024-01-01 by alice text "Move the nightly backups to PostgreSQL" }
event x1 { channel commits at 2024-01-01T12:00 by bob text "Index rebuilt: done" }
event x2 { channel commits at 2024-01-01T13:00 by bob text "Rebuild the index, done" }
event x3 { channel commits at 2024-01-01T14:00 by alice completes index }
"""
CANDIDATES = 7


def _history() -> str:
    lines = [HISTORY]
    for n in range(1, CANDIDATES + 1):
        lines.append(
            f"event c{n} {{ channel commits at 2024-01-02T0{n}:00 by bob "
            f'text "Tune the nightly backups schedule, step {n}" }}'
        )
        lines.append(
            f"event d{n} {{ channel commits at 2024-01-03T0{n}:00 by bob "
            f'text "Write the docs, part {n}: done" }}'
        )
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write(tmp_path_factory.mktemp("receipt"), _history())


def _receipt(folder, *extra: str) -> str:
    done = openloop("receipt", "t", str(folder), *AT, *extra)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _remaining(text: str, ident: str) -> list[str]:
    """The sub-lines under one obligation in "What remains"."""
    tail = text.split("## What remains", 1)[1].split(f"- `{ident}`: ", 1)[1]
    lines = []
    for line in tail.splitlines()[1:]:
        if not line.startswith("  - "):
            break
        lines.append(line[4:])
    return lines


def test_an_owed_obligation_shows_the_nearest_rejected_candidates_and_counts_the_rest(folder):
    lines = _remaining(_receipt(folder), "backups")
    rejected = [line for line in lines if " shares words with it " in line]
    # the rules' nearest chain (nearest, then nearer): the latest candidates first
    assert [line.split()[0] for line in rejected] == ["c7", "c6", "c5"]
    assert lines[len(rejected)] == (
        f"... and {CANDIDATES - 3} more rejected candidates "
        "(`openloop receipt t --full` lists every one)"
    )


def test_notes_are_capped_the_nearest_first_and_counted(folder):
    text = _receipt(folder).split("## Waivers")[0]  # the obligations and their notes
    notes = [line for line in text.splitlines() if line.startswith("- `docs`: ")]
    # seven claims below `verify explicit`: the three nearest, then a count
    assert [line.split()[2] for line in notes[:3]] == ["d5", "d6", "d7"]
    assert notes[3] == (
        f"- `docs`: ... and {CANDIDATES - 3} more notes "
        "(`openloop receipt t --full` lists every one)"
    )
    # a settled obligation keeps its notes (here two unverified claims before the principal's)
    assert sum(line.startswith("- `index`: ") for line in text.splitlines()) == 2


def test_full_lists_every_note_and_every_rejected_candidate(folder):
    text = _receipt(folder, "--full")
    assert "more rejected candidate" not in text and "more notes" not in text
    rejected = [line for line in _remaining(text, "backups") if " shares words " in line]
    assert [line.split()[0] for line in rejected] == [f"c{n}" for n in range(CANDIDATES, 0, -1)]
    notes = text.split("## Waivers")[0].splitlines()
    assert sum(line.startswith("- `docs`: ") for line in notes) == CANDIDATES


def test_json_counts_what_it_left_out(folder):
    capped = json.loads(_receipt(folder, "--format", "json"))
    backups = next(o for o in capped["obligations"] if o["id"] == "backups")
    assert [n["event"] for n in backups["nearest"]] == ["c7", "c6", "c5"]
    assert backups["rejected_omitted"] == CANDIDATES - 3
    docs = next(o for o in capped["obligations"] if o["id"] == "docs")
    assert len(docs["notes"]) == 3 and docs["notes_omitted"] == CANDIDATES - 3
    full = json.loads(_receipt(folder, "--format", "json", "--full"))
    backups = next(o for o in full["obligations"] if o["id"] == "backups")
    assert len(backups["nearest"]) == CANDIDATES and backups["rejected_omitted"] == 0


def test_without_the_explain_query_the_key_reason_names_the_nearest(folder):
    """``build`` on a plain status (as the MCP resource does): the one nearest candidate the
    rules mark as a key reason, and a count of the rest."""
    prepared = api.prepare([folder])
    built = receipt.build(prepared, api.status(prepared, at="2024-02-01"), "t")
    backups = built.obligation("backups")
    assert backups is not None
    assert [n.event for n in backups.nearest] == ["c7"]
    assert backups.rejected_omitted == CANDIDATES - 1
