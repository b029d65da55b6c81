"""Typed verdicts kept beside a stored answer: read back by a new process instead of the atoms,
checked like the atoms, and never an answer when they are not exactly what was written."""

from __future__ import annotations

import sqlite3

import pytest

from resolver import store
from resolver.engine.atoms import Atoms
from resolver.engine.prepared import Standpoint
from resolver.engine.query import Query
from resolver.faces import json_format
from resolver.language.loader import collect_files
from resolver.store.keys import entry_path
from resolver.verdicts import kept
from resolver.verdicts.resolution import ExpectationVerdict, Reason, Resolution, read, resolve
from tests.store.test_store import POINT, count_solves, fixed, fresh_json


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    return folder


def status(folder, point: Standpoint = POINT, query: Query | None = None) -> str:
    """``status --format json`` (every reason) through the store, as a new process asks it."""
    prepared = store.load_prepared([folder])
    return json_format.render(resolve(prepared, point, query), prepared.project, "all")


def kept_rows(folder) -> list[tuple]:
    with sqlite3.connect(entry_path(collect_files([folder]))) as db:
        return db.execute("SELECT verdicts, verdicts_digest FROM answers").fetchall()


def test_a_new_process_decodes_the_kept_verdicts_without_reading_the_atoms(tmp_path, monkeypatch):
    folder = fixed(tmp_path)
    expected = fresh_json(folder)
    later = Standpoint(POINT.at + 3600, POINT.at + 3600)  # the same plateau
    expected_later = fresh_json(folder, later)
    assert status(folder) == expected  # solves, reads the atoms, keeps the verdicts
    assert all(row[0] is not None for row in kept_rows(folder))
    parts = count_solves(monkeypatch)
    read_calls: list[int] = []
    real_read = read

    def counting(*args, **kwargs):
        read_calls.append(1)
        return real_read(*args, **kwargs)

    monkeypatch.setattr("resolver.verdicts.resolution.read", counting)
    assert status(folder) == expected
    assert status(folder, later) == expected_later
    assert parts == [] and read_calls == []


def test_a_face_reading_atoms_gets_the_stored_answer_on_first_use(tmp_path):
    folder = fixed(tmp_path)
    status(folder)
    prepared = store.load_prepared([folder])
    resolution = resolve(prepared, POINT)
    fresh = store.load_prepared([folder], use_store=False)
    fresh.memo = None
    assert sorted(resolution.atoms.text.split()) == sorted(fresh.solve(POINT).text.split())
    assert resolution.atoms.get("status") == resolve(fresh, POINT).atoms.get("status")


def test_damaged_kept_verdicts_are_a_miss_and_the_atoms_are_read(tmp_path, monkeypatch):
    folder = fixed(tmp_path)
    expected = status(folder)
    with sqlite3.connect(entry_path(collect_files([folder]))) as db:
        db.execute("UPDATE answers SET verdicts = X'00112233'")
    parts = count_solves(monkeypatch)
    assert status(folder) == expected
    assert parts == []  # the stored atoms were read instead: no solve
    assert all(row[0] is not None and row[0] != b"\x00\x11\x22\x33" for row in kept_rows(folder))


def test_verdicts_of_another_reader_or_other_flags_are_not_decoded(tmp_path, monkeypatch):
    folder = fixed(tmp_path)
    prepared = store.load_prepared([folder])
    resolution = resolve(prepared, POINT)
    text = kept.encode(resolution, (True, False))
    assert text is not None
    assert kept.decode(text, (True, False), POINT, lambda: Atoms("")) == resolution
    assert kept.decode(text, (True, True), POINT, lambda: Atoms("")) is None
    other = text.replace('"format":1', '"format":0')
    assert other != text
    assert kept.decode(other, (True, False), POINT, lambda: Atoms("")) is None
    assert kept.decode("[1, 2]", (True, False), POINT, lambda: Atoms("")) is None
    assert kept.decode("{", (True, False), POINT, lambda: Atoms("")) is None
    monkeypatch.setattr(kept, "reader_stamp", lambda: "another reader")
    assert kept.decode(text, (True, False), POINT, lambda: Atoms("")) is None


def test_a_value_true_and_a_value_1_are_kept_apart():
    """Equal in Python, printed apart: the encoding keeps each with its own type."""
    one = Reason("candidate_rejected", "e1", "agrees_open", value=1)
    true = Reason("candidate_rejected", "e1", "agrees_open", value=True)
    verdict = ExpectationVerdict(
        "x", None, None, "OPEN", None, (), None, None, None, None, None, True, {}, (one, true)
    )
    resolution = Resolution(POINT, (verdict,), (), ())
    text = kept.encode(resolution, (True, False))
    assert text is not None
    back = kept.decode(text, (True, False), POINT, lambda: Atoms(""))
    assert back is not None
    assert [type(r.value) for r in back.expectations[0].reasons] == [int, bool]
