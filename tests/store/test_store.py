"""The store on disk: keyed by content, data only, a miss whenever it is not exactly current,
and after any sequence of appends the same answers as a fresh build."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import store
from resolver.engine import prepared as engine
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.engine.stored_facts import StoredFacts
from resolver.faces import json_format
from resolver.facts.interning import Interner
from resolver.language.loader import collect_files, load
from resolver.store.keys import Stamp, entry_path
from resolver.times import format_time, parse_time
from resolver.verdicts.resolution import resolve
from tests.store.histories import DAY, START, events, instants

DECLARATIONS = """\
channel sessions mention
actor alice principal
actor bot agent
task t0 { opened 2024-07-03 principal alice }
expectation x0 { title "Move backup to postgres" opened_by e000
                 want backup.backend = "PostgreSQL" window 1d }
expectation x1 { title "Rotate token" opened 2024-07-04 want flag.x = "on"
                 deadline 2024-07-12 part_of t0 }
expectation x2 { title "Docs" opened_by e001 want token.version = "2" before e002
                 verify textual requires x1 }
"""
POINT = Standpoint(parse_time("2024-07-10"), parse_time("2024-07-10"))


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    return folder


def line(event) -> str:
    """One event as the JSON line a user's log holds."""
    record = {"id": event.id, "channel": event.channel, "at": format_time(event.at)}
    record["recorded"] = format_time(event.recorded)
    for name in ("seq", "by", "text", "kind"):
        if getattr(event, name) is not None:
            record[name] = getattr(event, name)
    if event.sets:
        record["set"] = {a.key: a.value for a in event.sets}
    for marker in event.markers:
        record[marker.kind] = marker.target
    return json.dumps(record) + "\n"


def history(folder: Path, found) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "project.ol").write_text(DECLARATIONS, encoding="utf-8")
    (folder / "events.jsonl").write_text("".join(line(e) for e in found), encoding="utf-8")
    return folder


def fixed(tmp_path: Path) -> Path:
    """A small history whose events open and close the expectations above."""
    lines = [
        {"id": "e000", "channel": "sessions", "at": "2024-07-02", "text": "backups on sqlite"},
        {"id": "e001", "channel": "commits", "seq": 1, "at": "2024-07-05", "text": "docs"},
        {"id": "e002", "channel": "commits", "seq": 2, "at": "2024-07-09", "by": "alice"},
        {"id": "e003", "channel": "commits", "seq": 4, "at": "2024-07-09T12:00:00Z"},
    ]
    lines[2]["set"] = {"backup.backend": "PostgreSQL"}
    folder = tmp_path / "h"
    folder.mkdir()
    (folder / "project.ol").write_text(DECLARATIONS, encoding="utf-8")
    text = "".join(json.dumps(entry) + "\n" for entry in lines)
    (folder / "events.jsonl").write_text(text, encoding="utf-8")
    return folder


def fresh_json(folder: Path, point: Standpoint = POINT) -> str:
    """``status --format json`` from the files, no store and no memo."""
    prepared = Prepared(load(collect_files([folder])))
    prepared.memo = None
    return json_format.render(resolve(prepared, point), prepared.project, "all")


def stored_json(folder: Path, point: Standpoint = POINT) -> str:
    prepared = store.load_prepared([folder])
    return json_format.render(resolve(prepared, point), prepared.project, "all")


def count_solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parts: list[str] = []
    real = engine._solve

    def counting(program_parts, part):
        parts.append(part)
        return real(program_parts, part)

    monkeypatch.setattr(engine, "_solve", counting)
    return parts


def test_a_second_load_solves_nothing_and_answers_the_same(tmp_path, monkeypatch, cache):
    folder = fixed(tmp_path)
    expected = fresh_json(folder)
    parts = count_solves(monkeypatch)
    assert stored_json(folder) == expected
    assert parts == ["prepare", "standpoint"]
    assert [p.name for p in cache.glob("prepared-*.sqlite")] == [
        entry_path(collect_files([folder])).name
    ]
    assert stored_json(folder) == expected  # another process would read the same entry
    assert parts == ["prepare", "standpoint"]
    later = Standpoint(POINT.at + 3600, POINT.at + 3600)  # the same plateau
    assert stored_json(folder, later) == expected.replace(
        "2024-07-10T00:00:00Z", "2024-07-10T01:00:00Z"
    )
    assert parts == ["prepare", "standpoint"]
    assert stored_json(folder, later) == fresh_json(folder, later)


def test_a_same_size_edit_with_its_mtime_restored_is_a_miss(tmp_path):
    folder = fixed(tmp_path)
    stored_json(folder)
    declared = folder / "project.ol"
    original = declared.read_bytes()
    stat = declared.stat()
    declared.write_bytes(original.replace(b'"on"', b'"no"'))
    os.utime(declared, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert stored_json(folder) == fresh_json(folder)
    assert '"no"' in (folder / "project.ol").read_text()


@pytest.mark.parametrize(
    "damage",
    [
        "truncate",
        "garbage",
        "foreign format",
        "torn atoms",
        "program text",
    ],
)
def test_a_damaged_or_foreign_entry_is_a_miss_never_an_error(tmp_path, monkeypatch, damage):
    folder = fixed(tmp_path)
    expected = stored_json(folder)
    path = entry_path(collect_files([folder]))
    if damage == "truncate":
        path.write_bytes(path.read_bytes()[:300])
    elif damage == "garbage":
        path.write_bytes(b"\x80not sqlite at all" * 50)
    else:
        with sqlite3.connect(path) as db:
            if damage == "foreign format":
                db.execute("UPDATE meta SET value = '999' WHERE name = 'format'")
            elif damage == "torn atoms":
                db.execute("UPDATE prepared SET atoms = substr(atoms, 1, 20)")
            else:  # well-formed, matching digest, but not atoms: never reaches clingo
                import hashlib
                import zlib

                text = b"#script (python) import os; os._exit(7) #end. a"
                digest = hashlib.sha256(text).hexdigest()
                db.execute(
                    "UPDATE prepared SET atoms = ?, digest = ?", (zlib.compress(text), digest)
                )
    parts = count_solves(monkeypatch)
    assert stored_json(folder) == expected
    assert parts[0] == "prepare"  # solved again from the files
    assert stored_json(folder) == expected  # and the entry written anew


def test_a_changed_rule_or_fact_writer_changes_the_key(tmp_path, monkeypatch):
    files = collect_files([fixed(tmp_path)])
    before = Stamp.of(files).key
    monkeypatch.setattr("resolver.store.keys.code_stamp", lambda: "another code")
    assert Stamp.of(files).key != before
    assert Stamp.of(files, "t0").key != before  # a scope is an entry of its own


def test_a_cache_folder_that_cannot_be_written_costs_a_solve_only(tmp_path, cache, monkeypatch):
    folder = fixed(tmp_path)
    cache.write_text("a file where the folder should be", encoding="utf-8")
    parts = count_solves(monkeypatch)
    assert stored_json(folder) == fresh_json(folder)
    assert stored_json(folder) == fresh_json(folder)
    assert parts.count("prepare") == 4  # nothing was kept, nothing failed


def test_answers_other_than_the_default_families_are_solved(tmp_path, monkeypatch):
    folder = fixed(tmp_path)
    stored_json(folder)
    parts = count_solves(monkeypatch)
    odd = Standpoint(POINT.at, POINT.at - DAY)  # known neither at nor latest
    prepared = store.load_prepared([folder])
    resolve(prepared, odd, Query())
    resolve(prepared, odd, Query())
    assert parts == ["standpoint", "standpoint"]


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(
    st.integers(min_value=3, max_value=8).flatmap(lambda n: events(n)),
    st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=3),
    st.lists(instants(), min_size=1, max_size=2),
    st.data(),
)
def test_after_any_appends_the_store_answers_as_a_fresh_build(
    tmp_path_factory, first, batches, moments, data
):
    folder = history(tmp_path_factory.mktemp("h"), first)
    log = folder / "events.jsonl"
    points = [Standpoint(m, m) for m in moments] + [Standpoint(m, None) for m in moments]
    given = len(first)
    for size in [0, *batches]:
        more = data.draw(events(size, first=given)) if size else []
        given += size
        with log.open("a", encoding="utf-8") as stream:
            stream.write("".join(line(e) for e in more))
        for point in points:
            assert stored_json(folder, point) == fresh_json(folder, point)


def test_histories_start_where_the_generators_do():
    assert parse_time(format_time(START)) == START


def test_stored_atoms_serve_only_the_facts_they_were_derived_from(tmp_path, monkeypatch):
    """An entry whose names are not those of the facts (written by other code under the same
    key, or tampered with): answered from the entry while a lookup suffices, and the moment a
    standpoint must be solved the facts are built, found to differ, and the history is
    prepared afresh: the answer is the fresh one. (With the facts a standpoint reads kept too,
    no standpoint builds the facts: ``test_standpoint_facts.py``; here none are kept.)"""
    from resolver.facts import standpoint_pack
    from resolver.store import names

    monkeypatch.setattr(standpoint_pack, "pack", lambda *facts: None)

    folder = fixed(tmp_path)
    point = POINT
    store.load_prepared([folder])
    real = names.pack

    def shifted(interner):  # the names of other facts: two items swapped
        keys = interner.keys()
        items = [n for n, k in enumerate(keys) if k[0] == "item"]
        keys[items[0]], keys[items[1]] = keys[items[1]], keys[items[0]]
        return real(Interner.of_keys(keys))

    entry_file = entry_path(collect_files([folder]))
    entry_file.unlink()
    monkeypatch.setattr(names, "pack", shifted)
    store.load_prepared([folder])  # the entry now holds the other names
    monkeypatch.setattr(names, "pack", real)
    other = store.load_prepared([folder])
    assert other.from_store and not other.facts.built
    expected = fresh_json(folder, point)
    assert json_format.render(resolve(other, point), other.project, "all") == expected
    assert not isinstance(other.facts, StoredFacts)  # prepared afresh


def test_the_key_covers_the_code_that_draws_a_scope():
    from resolver.store.keys import _DECIDING, code_stamp

    assert {"language", "facts", "engine", "store"} <= set(_DECIDING)
    assert code_stamp()  # engine/groups.py (scoped) is read into it: a change is a new key


def test_an_entry_keeps_the_most_recent_answers_only(tmp_path, monkeypatch):
    from resolver.store import entry as stored

    monkeypatch.setattr(stored, "ANSWERS_KEPT", 3)
    folder = fixed(tmp_path)
    prepared = store.load_prepared([folder])
    for day in range(6):  # six plateaus (an event or a bound on most days)
        moment = parse_time("2024-07-02") + day * DAY + 7
        resolve(prepared, Standpoint(moment, moment), Query())
    path = entry_path(collect_files([folder]))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM answers").fetchone()[0] == 3
    assert stored_json(folder) == fresh_json(folder)


def test_answers_are_read_only_under_the_facts_they_were_derived_from(tmp_path):
    """Another process that rewrote the entry for other facts (same files, other code path)
    hides its answers from a process still holding the first facts, and the other way round."""
    from resolver.store.entry import Entry

    files = collect_files([fixed(tmp_path)])
    stamp, path, key = Stamp.of(files), tmp_path / "entry.sqlite", ("at", 3, "q")
    mine, theirs = Entry(path), Entry(path)
    mine.write(stamp, "a(1)", 1, "facts-a")
    mine.keep(key, "b(2)", 2)
    found = Entry(path).prepared(stamp)
    assert (found.text, found.ground_rules, found.facts) == ("a(1)", 1, "facts-a")
    assert mine.answer(key) == ("b(2)", 2)
    theirs.write(stamp, "a(1)", 1, "facts-b")
    theirs.keep(key, "c(3)", 3)
    assert mine.answer(key) is None
    mine.keep(key, "d(4)", 4)  # not kept: the file holds other facts now
    assert theirs.answer(key) == ("c(3)", 3)
