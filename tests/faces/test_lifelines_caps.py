"""``graph --format lifelines`` draws at most ``--max-nodes`` rows, what is still owed first, and
says what it left out (SPEC §4); ``--max-nodes 0`` and ``--focus`` draw what they name."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

from tests.caps_histories import AT, BACKUPS, busy, many, openloop, write

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    # eight satisfied expectations and one still OPEN (backups: nothing closes it)
    return write(tmp_path_factory.mktemp("lifelines"), many(8) + BACKUPS)


def _lifelines(folder, *extra: str):
    done = openloop("graph", str(folder), *AT, "--format", "lifelines", *extra)
    assert done.returncode == 0, done.stderr
    root = ElementTree.fromstring(done.stdout)
    rows = [g.get("data-id") for g in root.iter(SVG + "g") if g.get("class") == "lifeline"]
    notes = [t.text for t in root.iter(SVG + "text") if t.get("class") == "omitted"]
    return rows, notes, done.stderr


def test_rows_are_capped_what_is_owed_first_and_the_rest_counted(history):
    rows, notes, stderr = _lifelines(history, "--max-nodes", "3")
    assert sorted(rows) == ["backups", "x000", "x001"]  # OPEN first, then by id
    line = (
        "left out 6 of 9 expectations (rows); draw one with --focus ID, or more with --max-nodes N"
    )
    assert notes == [line]
    assert stderr == f"openloop graph: {line}\n"


def test_no_limit_and_a_small_history_draw_every_row_without_a_note(history):
    for extra in (("--max-nodes", "0"), ()):  # the default (100) holds all nine
        rows, notes, stderr = _lifelines(history, *extra)
        assert len(rows) == 9 and notes == [] and stderr == ""


def test_focus_draws_its_neighbourhood(history):
    rows, notes, _ = _lifelines(history, "--focus", "x004", "--max-nodes", "3")
    assert rows == ["x004"] and notes == []


def test_rejected_candidates_are_ticked_only_when_asked(tmp_path):
    folder = write(tmp_path, busy(5))

    def ticks(*extra: str) -> list[str]:
        done = openloop("graph", str(folder), *AT, "--format", "lifelines", *extra)
        assert done.returncode == 0, done.stderr
        root = ElementTree.fromstring(done.stdout)
        return sorted(
            title.text.split(":")[0]
            for line in root.iter(SVG + "line")
            if line.get("stroke") == "#e57373"
            for title in line.iter(SVG + "title")
        )

    assert ticks() == []  # as the pictures: no rejected candidate by default
    assert ticks("--candidates") == ["c001", "c002", "c003", "c004", "c005"]
