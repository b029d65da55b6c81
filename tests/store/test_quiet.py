"""An append that touches no item carries the stored history over (``resolver/store/quiet.py``):
every part of the carried entry is what a fresh build writes, every answer a fresh build's, and
the prepare part is not solved again; anything else is prepared as before."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from resolver import store
from resolver.engine import composed
from resolver.engine import prepared as prepared_module
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.touched import Before
from resolver.facts import standpoint_pack
from resolver.facts.writer import build
from resolver.language.loader import collect_files, load
from resolver.store import quiet
from resolver.store.entry import Entry
from resolver.store.keys import Stamp, entry_path
from resolver.times import parse_time
from tests.store.histories import events, instants
from tests.store.test_appends import SETTINGS, ids, same_as_fresh
from tests.store.test_store import count_solves, fixed, history, line


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    return folder


def entry_parts(folder: Path) -> dict:
    """Everything the current entry of ``folder`` holds of its prepared history, decoded."""
    files = collect_files([folder])
    found = Entry(entry_path(files)).prepared(Stamp.of(files))
    assert found is not None
    facts = standpoint_pack.unpack(found.standpoint)  # type: ignore[arg-type]
    assert facts is not None
    return {
        "atoms": (found.text, found.ground_rules, found.facts),
        "names": found.names,
        "thresholds": found.thresholds,
        "derived": found.derived,
        "columns": found.columns,
        "declarations": facts.declarations,
        "links": facts.links,
        "channel log": (facts.channel_log.static_text, list(facts.channel_log.events())),
        "counts": facts.word_counts,
    }


def fresh_parts(folder: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The entry a fresh build of ``folder`` writes (in a cache folder of its own)."""
    with monkeypatch.context() as patch:
        patch.setenv("OPENLOOP_CACHE_DIR", str(cache.parent / f"{cache.name}-fresh"))
        store.load_prepared([folder])
        return entry_parts(folder)


def _recorded(monkeypatch: pytest.MonkeyPatch, module: object, name: str, real) -> list[bool]:
    """Whether each call of ``module.name`` (wrapping ``real``) found something."""
    calls: list[bool] = []

    def recording(*args):
        found = real(*args)
        calls.append(found is not None)
        return found

    monkeypatch.setattr(module, name, recording)
    return calls


def carried_calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each quiet check carried the history over."""
    return _recorded(monkeypatch, quiet, "carried", quiet.carried)


def composed_calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each standpoint no answer held was composed from a carried one."""
    return _recorded(monkeypatch, prepared_module, "compose", composed.compose)


def key_reasons(folder: Path, point: Standpoint, stored: bool = False) -> str:
    """``status --format json`` as the command prints it (the key reasons only)."""
    from resolver.engine.query import Query
    from resolver.faces import json_format
    from resolver.verdicts.resolution import resolve

    if stored:
        prepared = store.load_prepared([folder])
    else:
        prepared = Prepared(load(collect_files([folder])))
        prepared.memo = None
    answer = resolve(prepared, point, Query(every_reason=False))
    return json_format.render(answer, prepared.project, "key")


def append(folder: Path, *records: dict) -> None:
    with (folder / "events.jsonl").open("a", encoding="utf-8") as stream:
        stream.writelines(json.dumps(record) + "\n" for record in records)


def test_a_commit_that_links_nothing_is_carried_over_not_prepared(tmp_path, cache, monkeypatch):
    folder = fixed(tmp_path)
    store.load_prepared([folder])
    append(
        folder,
        {"id": "e004", "channel": "commits", "seq": 5, "at": "2024-07-11", "text": "more backup"},
        {"id": "e005", "channel": "commits", "seq": 6, "at": "2024-07-12"},
    )
    calls, solves = carried_calls(monkeypatch), count_solves(monkeypatch)
    composing = composed_calls(monkeypatch)
    later, next_day = parse_time("2024-07-13"), parse_time("2024-07-12")
    points = [Standpoint(later, None), Standpoint(next_day, next_day)]
    assert same_as_fresh(folder, points)
    assert calls == [True] and "prepare" not in solves[: solves.index("standpoint")]
    assert entry_parts(folder) == fresh_parts(folder, cache, monkeypatch)
    assert composing == [False, False]  # nothing was asked before the append: solved


def test_an_answer_after_a_quiet_append_is_composed_from_the_one_before(tmp_path, monkeypatch):
    folder = fixed(tmp_path)
    later = parse_time("2024-07-13")
    points = [Standpoint(later, None), Standpoint(later, later)]
    assert same_as_fresh(folder, points)  # answered, and kept, before the append
    key_reasons(folder, points[1], stored=True)
    for n, day in enumerate(("2024-07-11", "2024-07-12T06:00:00Z")):
        if n == 1:  # an append loaded with no question asked: the answers carried twice
            append(folder, {"id": "e1x", "channel": "commits", "seq": 6, "at": "2024-07-12"})
            store.load_prepared([folder])
        append(folder, {"id": f"e10{n}", "channel": "commits", "seq": 5 + 2 * n, "at": day})
        with pytest.MonkeyPatch.context() as patch:
            composing = composed_calls(patch)
            assert same_as_fresh(folder, points)
            assert key_reasons(folder, points[1], stored=True) == key_reasons(folder, points[1])
        # the items' atoms carried, the channels' solved: both families, and the key reasons
        assert composing == [True, True, True]


@pytest.mark.parametrize(
    "record",
    [
        {"id": "e004", "channel": "commits", "at": "2024-07-11", "completes": "x1"},  # a marker
        {"id": "e004", "channel": "commits", "at": "2024-07-11", "set": {"flag.x": "on"}},
        {"id": "e004", "channel": "commits", "at": "2024-07-11", "text": "rotate the token"},
        {"id": "e004", "channel": "deploys", "at": "2024-07-11"},  # a channel the log lacked
        {"id": "e004", "channel": "commits", "seq": 9, "at": "2024-07-11"},  # a gap opens
        {"id": "e004", "channel": "commits", "at": "2024-07-01"},  # before every record
    ],
)
def test_an_append_that_may_touch_an_item_is_prepared_again(tmp_path, cache, monkeypatch, record):
    folder = fixed(tmp_path)
    store.load_prepared([folder])
    append(folder, record)
    calls, solves = carried_calls(monkeypatch), count_solves(monkeypatch)
    assert same_as_fresh(folder, [Standpoint(parse_time("2024-07-13"), None)])
    assert calls == [False] and solves[0] == "prepare"
    assert entry_parts(folder) == fresh_parts(folder, cache, monkeypatch)


def test_before_reads_the_kept_counts_as_it_would_count_them(tmp_path):
    project = load(collect_files([fixed(tmp_path)]))
    counts = build(project).word_counts
    assert counts
    quiet_events = [dataclasses.replace(e, id=f"n{e.id}") for e in project.events]
    assert Before(project).touched(quiet_events) == Before(project, counts=counts).touched(
        quiet_events
    )
    unknown = Before(project, counts={}).touched(quiet_events)  # no count kept: touched
    assert set(unknown.items) >= set(Before(project).touched(quiet_events).items)


@SETTINGS
@given(
    st.integers(min_value=3, max_value=8).flatmap(lambda n: events(n)),
    st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=3),
    st.lists(instants(), min_size=1, max_size=2),
    st.data(),
)
def test_after_any_appends_a_carried_entry_is_a_fresh_builds(
    tmp_path_factory, first, batches, moments, data
):
    folder = history(tmp_path_factory.mktemp("h"), first)
    cache = folder.parent / "cache"
    points = [Standpoint(m, m) for m in moments] + [Standpoint(m, None) for m in moments]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENLOOP_CACHE_DIR", str(cache))
        calls = carried_calls(patch)
        assert same_as_fresh(folder, points)  # answered (and kept) before each append
        written = list(first)
        for size in batches:
            drawn = data.draw(events(size, first=len(written)))
            quiet_ones = data.draw(st.booleans())
            used = [e.id for e in written]
            renamed = []
            for event in drawn:
                taken = {*used, *(e.id for e in renamed)}
                ident = data.draw(ids(used).filter(lambda i, taken=taken: i not in taken))
                if quiet_ones:  # no marker, no set, no text: often quiet
                    event = dataclasses.replace(event, markers=(), sets=(), text=None)
                renamed.append(dataclasses.replace(event, id=ident))
            with (folder / "events.jsonl").open("a", encoding="utf-8") as stream:
                stream.write("".join(line(e) for e in renamed))
            written.extend(renamed)
            calls.clear()
            assert same_as_fresh(folder, points)
            if calls and calls[0]:
                assert entry_parts(folder) == fresh_parts(folder, cache, patch)


@pytest.mark.parametrize(
    "declaration",
    [
        'policy docs { title "Docs for $event" principal alice when touches "src/**"\n'
        '  want touches "docs/**" }\n',
        'expectation x9 { title "Docs" opened 2024-07-01 want touches "docs/**" }\n',
        'expectation x9 { title "Ship" opened 2024-07-01 want flag.y = "on"\n'
        "  before next kind release }\n",
    ],
)
def test_declarations_measured_over_every_event_are_prepared_again(
    tmp_path, cache, monkeypatch, declaration
):
    folder = fixed(tmp_path)
    with (folder / "project.ol").open("a", encoding="utf-8") as stream:
        stream.write(declaration)
    store.load_prepared([folder])
    append(folder, {"id": "e004", "channel": "commits", "seq": 5, "at": "2024-07-11"})
    calls, solves = carried_calls(monkeypatch), count_solves(monkeypatch)
    assert same_as_fresh(folder, [Standpoint(parse_time("2024-07-13"), None)])
    assert calls == [False] and solves[0] == "prepare"


def test_the_summary_is_every_shown_atom_the_channel_rules_derive():
    """What a composed answer takes from the channel program is exactly what the channel log's
    rule files derive among the shown atoms."""
    import re

    from resolver import resources

    root = resources.data_dir("rules")
    shown = set(re.findall(r"(?m)^#show (\w+)\(", (root / "standpoint/output.lp").read_text()))
    derived = set()
    for name in composed.CHANNEL_FILES[:-1]:
        derived |= set(re.findall(r"(?m)^(\w+)\(", (root / name).read_text()))
    assert {f"{name}(" for name in shown & derived} == set(composed.SUMMARY)


def test_a_scope_is_carried_over_and_composed_as_its_own_history(tmp_path, monkeypatch):
    """A task's group (the hook's and ``explain``'s scope) after a quiet append: the scoped
    entry carried, its answer composed, both as a fresh scoped build gives them."""
    from resolver.engine.groups import scoped
    from resolver.faces import json_format
    from resolver.verdicts.resolution import resolve

    folder = fixed(tmp_path)
    later = parse_time("2024-07-13")
    point = Standpoint(later, later)

    def scoped_json(prepared) -> str:
        return json_format.render(resolve(prepared, point), prepared.project, "all")

    scoped_json(store.load_prepared([folder], scope="t0"))
    append(folder, {"id": "e100", "channel": "commits", "seq": 5, "at": "2024-07-11"})
    with pytest.MonkeyPatch.context() as patch:
        calls, composing = carried_calls(patch), composed_calls(patch)
        answer = scoped_json(store.load_prepared([folder], scope="t0"))
    fresh = Prepared(scoped(load(collect_files([folder])), "t0"))
    fresh.memo = None
    assert calls == [True] and composing == [True]
    assert answer == scoped_json(fresh)
