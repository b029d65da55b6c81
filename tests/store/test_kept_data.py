"""What the store keeps beside the atoms (the loaded log's columns, the names) reads back as it
was written, and anything else is a miss, never an error: a command on unchanged files then
neither reads the log nor builds the facts, and answers as a fresh build does."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import store
from resolver.engine.stored_facts import StoredFacts
from resolver.facts.interning import Interner
from resolver.facts.writer import build
from resolver.language import loader
from resolver.language.event_columns import EventColumns
from resolver.language.loader import collect_files, load
from resolver.store import columns, names
from resolver.store.keys import entry_path
from tests.store.histories import events
from tests.store.test_store import fixed, fresh_json, history, stored_json


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    return folder


def _same(a: EventColumns, b: EventColumns) -> bool:
    return list(a) == list(b) and a.ids == b.ids and a.strings == b.strings


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(min_value=1, max_value=12).flatmap(lambda n: events(n)))
def test_columns_read_back_as_written(tmp_path_factory, found):
    folder = history(tmp_path_factory.mktemp("h"), found)
    loaded = load(collect_files([folder])).events
    back = columns.unpack(columns.pack(loaded))
    assert back is not None and _same(back, loaded)
    assert [e.id for e in back] == sorted({e.id for e in found})


def test_typed_values_keep_their_types():
    kept = EventColumns()
    for n, value in enumerate([1, True, 1.0, "1", 0, False]):
        kept.append_row(
            f"e{n}",
            "c",
            0,
            0,
            "f",
            1,
            None,
            None,
            None,
            None,
            None,
            [("k", value)],
            [],
            "confirmed",
            [],
        )
    back = columns.unpack(columns.pack(kept))
    assert back is not None
    assert [type(v) for v in back.values] == [int, bool, float, str, int, bool]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: data[:-1],  # torn
        lambda data: data + b"\0",  # too long
        lambda data: data[:8] + b"[" + data[9:],  # not the document
        lambda data: data.replace(b'"i"', b'"q"', 1),  # another array type
    ],
)
def test_a_spoiled_snapshot_is_no_snapshot(tmp_path, spoil):
    loaded = load(collect_files([fixed(tmp_path)])).events
    assert columns.unpack(spoil(columns.pack(loaded))) is None


def test_an_index_outside_its_table_is_no_snapshot(tmp_path):
    loaded = load(collect_files([fixed(tmp_path)])).events
    loaded.channel[0] = len(loaded.strings) + 5
    assert columns.unpack(columns.pack(loaded)) is None


def test_names_read_back_against_the_event_ids(tmp_path):
    project = load(collect_files([fixed(tmp_path)]))
    interner = build(project).interner
    ids = sorted(set(project.events.ids))
    back = names.unpack(names.pack(interner), ids)
    assert back is not None and back.keys() == interner.keys()
    assert names.unpack(names.pack(interner), ids[:-1]) is None  # another log
    assert names.unpack("[1, [[1, 2], [1, 2]]]", ["e"]) is None  # a key twice
    assert names.unpack("not json", ids) is None


def test_names_json_cannot_hold_are_not_kept():
    assert names.pack(Interner.of_keys([("value", "float", float("nan"))])) is None


def test_unchanged_files_are_answered_without_reading_the_log_or_building_facts(
    tmp_path, monkeypatch
):
    folder = fixed(tmp_path)
    expected = fresh_json(folder)
    assert stored_json(folder) == expected  # fills the store

    def refuse(*args, **kwargs):
        raise AssertionError("the log was read again")

    monkeypatch.setattr(loader._Merger, "add_jsonl", refuse)
    prepared = store.load_prepared([folder])
    assert isinstance(prepared.facts, StoredFacts) and not prepared.facts.built
    assert stored_json(folder) == expected  # the plateau was answered: a lookup
    assert not prepared.facts.built


def test_a_spoiled_snapshot_in_the_entry_costs_a_read(tmp_path):
    folder = fixed(tmp_path)
    expected = stored_json(folder)
    path = entry_path(collect_files([folder]))
    with sqlite3.connect(path) as db:
        data = json.dumps({"nothing": 1}).encode()
        db.execute("UPDATE columns SET data = ?", (zlib.compress(data),))
    assert stored_json(folder) == expected == fresh_json(folder)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM names")
    assert stored_json(folder) == expected


def test_policy_instances_are_kept_with_the_names(tmp_path):
    """A policy's instances are derived while the facts are built; on a current entry the
    facts are not built, so the entry keeps them and a face reads the same titles."""
    from resolver.store import parsed

    folder = Path(__file__).resolve().parents[2] / "fixtures" / "policies"
    expected = fresh_json(folder)
    assert stored_json(folder) == expected
    prepared = store.load_prepared([folder])
    assert isinstance(prepared.facts, StoredFacts) and prepared.project.derived
    assert stored_json(folder) == expected
    items = prepared.project.derived
    assert parsed.decode_items(parsed.encode_items(items)) == items
    assert parsed.decode_items('{"x": {"$": "Location", "file": "f", "line": 1}}') is None


def test_a_scope_reads_the_log_the_whole_historys_entry_kept(tmp_path, monkeypatch):
    """The hook asks for a task's group; after ``status`` kept the whole history's log, the
    group's first preparation does not read the JSON lines again."""
    folder = fixed(tmp_path)
    store.load_prepared([folder])  # the whole history, as `status` reads it

    def refuse(*args, **kwargs):
        raise AssertionError("the log was read again")

    with monkeypatch.context() as patch:
        patch.setattr(loader._Merger, "add_jsonl", refuse)
        scoped = store.load_prepared([folder], scope="x0")
    assert {x.id for x in scoped.project.expectations} == {"x0"}


def test_a_history_named_otherwise_is_answered_with_its_own_names(tmp_path, monkeypatch):
    """Locations carry the file names as given: an entry written when the history was named
    by its full path does not answer a command that names it relative to the folder."""
    folder = fixed(tmp_path)
    whole = store.load_prepared([str(folder.resolve())])
    monkeypatch.chdir(folder.parent)
    relative = store.load_prepared([folder.name])
    assert relative.project.events[0].location.file.startswith(folder.name)
    assert whole.project.events[0].location.file.startswith(str(folder.resolve()))


def test_a_history_with_a_declaration_added_borrows_the_log(tmp_path, monkeypatch):
    """The hook reads PATHs plus its identity declaration (no events): the entry `status`
    wrote for PATHs lends its log, and a forged lender (other bytes) lends nothing."""
    folder = fixed(tmp_path)
    extra = tmp_path / "as-agent.ol"
    extra.write_text("actor bot-9 agent\n", encoding="utf-8")
    store.load_prepared([folder])

    def refuse(*args, **kwargs):
        raise AssertionError("the log was read again")

    with monkeypatch.context() as patch:
        patch.setattr(loader._Merger, "add_jsonl", refuse)
        mine = store.load_prepared([folder, extra], scope="x0", same_log_as=[folder])
    assert any(a.name == "bot-9" for a in mine.project.actors)
    log = folder / "events.jsonl"
    # Other bytes, not an append (an appended line is read as an increment: test_appends.py).
    log.write_text("\n" + log.read_text(encoding="utf-8"), encoding="utf-8")
    with monkeypatch.context() as patch, pytest.raises(AssertionError, match="read again"):
        patch.setattr(loader._Merger, "add_jsonl", refuse)
        store.load_prepared([folder, extra], scope="x1", same_log_as=[folder])
