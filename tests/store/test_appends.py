"""An appended log read as an increment (``resolver/store/appends.py``): after any sequence of
appends the store loads exactly the columns a fresh load gives and answers exactly what a fresh
build answers, refuses a bad line exactly as a fresh load refuses it, and reads the files afresh
whenever the change is not whole lines added to the last log read."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import store
from resolver.cli.main import main
from resolver.engine.prepared import Standpoint
from resolver.errors import InputError
from resolver.faces import json_format
from resolver.language.loader import collect_files, load
from resolver.store import appends, columns
from resolver.verdicts.resolution import resolve
from tests.store.histories import events, instants
from tests.store.test_store import POINT, fixed, fresh_json, history, line

#: Lines a fresh load refuses (bad JSON, a missing field, a bad time, a bad value).
BAD_LINES = (
    "not json at all",
    '{"id": "b1", "channel": "commits"}',
    '{"id": "b2", "channel": "commits", "at": "2024-13-01"}',
    '{"id": "b3", "channel": "commits", "at": "2024-07-05", "seq": -1}',
    '{"id": "b4", "channel": "commits", "at": "2024-07-05", "completes": 3}',
)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    return folder


def same_as_fresh(folder: Path, points: list[Standpoint]) -> bool:
    """Load ``folder`` through the store and from the files: the same columns and answers, or
    the same error. True when the store loaded the history (False: both refused it)."""
    try:
        fresh = load(collect_files([folder]))
    except InputError as refused:
        with pytest.raises(InputError) as caught:
            store.load_prepared([folder])
        assert str(caught.value) == str(refused)
        assert caught.value.exit_code == refused.exit_code == 2
        return False
    prepared = store.load_prepared([folder])
    kept = columns.pack(prepared.project.events)
    assert kept is not None and kept == columns.pack(fresh.events)
    for point in points:
        answer = json_format.render(resolve(prepared, point), prepared.project, "all")
        assert answer == fresh_json(folder, point)
    return True


@st.composite
def ids(draw, used: list[str]) -> str:
    """An id sorting before, among or after the existing ones (``e000``, ``e001``, ...)."""
    where = draw(st.sampled_from(["before", "among", "after"]))
    number = draw(st.integers(min_value=0, max_value=999))
    if where == "before":
        return f"a{number}"
    if where == "after":
        return f"z{number}"
    return f"{draw(st.sampled_from(used))}m{number}"


SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)


@SETTINGS
@given(
    st.integers(min_value=3, max_value=8).flatmap(lambda n: events(n)),
    st.lists(
        st.sampled_from(["events", "events", "events", "blank", "repeat", "conflict", "bad"]),
        min_size=1,
        max_size=4,
    ),
    st.lists(instants(), min_size=1, max_size=2),
    st.data(),
)
def test_after_any_appends_the_store_loads_and_answers_as_a_fresh_build(
    tmp_path_factory, first, steps, moments, data
):
    folder = history(tmp_path_factory.mktemp("h"), first)
    log = folder / "events.jsonl"
    points = [Standpoint(m, m) for m in moments] + [Standpoint(m, None) for m in moments]
    assert same_as_fresh(folder, points)
    written = list(first)
    for step in steps:
        before = log.read_bytes()
        if step == "events":
            count = data.draw(st.integers(min_value=1, max_value=3))
            drawn = data.draw(events(count, first=len(written)))
            used = [e.id for e in written]
            renamed: dict[str, object] = {}
            for event in drawn:  # unique ids, sorting anywhere among the kept ones
                taken = {*used, *renamed}
                ident = data.draw(ids(used).filter(lambda i, taken=taken: i not in taken))
                renamed[ident] = dataclasses.replace(event, id=ident)
            added = "".join(line(e) for e in renamed.values())
            written.extend(renamed.values())
        elif step == "blank":
            added = "\n"
        elif step == "repeat":  # an identical record again: one event
            added = line(data.draw(st.sampled_from(written)))
        elif step == "conflict":  # the same id, other content: refused
            event = data.draw(st.sampled_from(written))
            added = line(dataclasses.replace(event, text=f"{event.text} again"))
        else:
            added = data.draw(st.sampled_from(BAD_LINES)) + "\n"
        log.write_bytes(before + added.encode("utf-8"))
        loaded = same_as_fresh(folder, points)
        increment = appends.last
        if step in ("events", "blank"):
            assert loaded and increment is not None  # read as an increment
            assert increment.added_bytes == len(added.encode("utf-8"))
        else:
            assert increment is None  # read afresh
            assert loaded == (step == "repeat")
        if not loaded:  # the bad line taken back: a truncation, read afresh
            log.write_bytes(before)
            assert same_as_fresh(folder, points) and appends.last is None


def test_status_json_after_an_append_is_the_bytes_of_a_fresh_build(tmp_path, capsys, monkeypatch):
    folder = fixed(tmp_path)
    argv = ["status", str(folder), "--format", "json", "--at", "2024-07-10"]
    assert main(argv) == 0
    capsys.readouterr()
    with (folder / "events.jsonl").open("a", encoding="utf-8") as stream:
        stream.write('{"id": "e0025", "channel": "commits", "seq": 3, "at": "2024-07-09"}\n')
        stream.write('{"id": "e004", "channel": "commits", "seq": 5, "at": "2024-07-09",')
        stream.write(' "set": {"flag.x": "on"}}\n')
    assert main(argv) == 0
    stored = capsys.readouterr().out
    assert appends.last is not None and appends.last.added_events == 2
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(tmp_path / "empty"))
    assert main(argv) == 0
    assert capsys.readouterr().out == stored
    assert appends.last is None


@pytest.mark.parametrize(
    "change",
    [
        "rewritten line",
        "truncated",
        "line extended",
        "ol edited",
        "earlier log grown",
        "a later file holds events",
    ],
)
def test_any_other_change_is_read_afresh(tmp_path, change):
    folder = fixed(tmp_path)
    log = folder / "events.jsonl"
    if change == "a later file holds events":  # project.ol is read after events.jsonl
        declared = folder / "project.ol"
        event = 'event zz { channel commits at 2024-07-06 text "docs" }\n'
        declared.write_text(declared.read_text("utf-8") + event, "utf-8")
    if change == "earlier log grown":  # a.jsonl is read before events.jsonl
        (folder / "a.jsonl").write_text(
            json.dumps({"id": "a0", "channel": "ci", "at": "2024-07-03"}) + "\n", "utf-8"
        )
    assert same_as_fresh(folder, [POINT])
    text = log.read_text("utf-8")
    if change == "rewritten line":
        log.write_text(text.replace('"docs"', '"more docs"') + line_of("e009"), "utf-8")
    elif change == "truncated":
        log.write_text(text[: text.rindex("{")], "utf-8")
    elif change == "line extended":  # the last line lost its break, then grew
        log.write_text(text.rstrip("\n") + " \n" + line_of("e009"), "utf-8")
    elif change == "ol edited":
        declared = folder / "project.ol"
        declared.write_text(declared.read_text("utf-8") + "actor dev agent\n", "utf-8")
        log.write_text(text + line_of("e009"), "utf-8")
    elif change == "earlier log grown":
        with (folder / "a.jsonl").open("a", encoding="utf-8") as stream:
            stream.write(line_of("a1"))
    else:
        log.write_text(text + line_of("e009"), "utf-8")
    assert same_as_fresh(folder, [POINT])
    assert appends.last is None


def test_the_last_log_read_grows_as_an_increment_beside_another_log(tmp_path):
    folder = fixed(tmp_path)
    (folder / "a.jsonl").write_text(line_of("a0"), "utf-8")
    assert same_as_fresh(folder, [POINT])
    with (folder / "events.jsonl").open("a", encoding="utf-8") as stream:
        stream.write(line_of("a00"))  # sorts among a.jsonl's ids
    assert same_as_fresh(folder, [POINT])
    assert appends.last is not None and appends.last.added_events == 1


def test_a_scope_reads_the_increment_too(tmp_path):
    folder = fixed(tmp_path)
    store.load_prepared([folder], scope="t0")
    with (folder / "events.jsonl").open("a", encoding="utf-8") as stream:
        stream.write(line_of("e009"))
    prepared = store.load_prepared([folder], scope="t0")
    assert appends.last is not None
    assert columns.pack(prepared.project.events) == columns.pack(
        load(collect_files([folder])).events
    )


def line_of(ident: str) -> str:
    """A valid event line of id ``ident``."""
    return json.dumps({"id": ident, "channel": "ci", "at": "2024-07-06", "text": "docs"}) + "\n"


def test_the_hook_reads_the_increment_of_the_log_the_whole_history_lends(tmp_path):
    """The hook reads the history with its identity declaration added (no events), lent the
    log by the whole history's entry: after an append, that entry's columns and the lines
    added."""
    folder = fixed(tmp_path)
    identity = tmp_path / "identity.ol"
    identity.write_text("actor claude agent\n", "utf-8")
    store.load_prepared([folder])  # what `status` keeps
    with (folder / "events.jsonl").open("a", encoding="utf-8") as stream:
        stream.write(line_of("e009"))
    paths = [folder, identity]
    prepared = store.load_prepared(paths, scope="t0", same_log_as=[folder])
    assert appends.last is not None and appends.last.added_events == 1
    fresh = load(collect_files(paths)).events
    assert columns.pack(prepared.project.events) == columns.pack(fresh)
