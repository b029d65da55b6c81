"""The columnar load path writes the same facts, byte for byte, as the path through ``Event``s.

Two comparisons, on every fixture folder and on a small generated history:

* against the same project built from ``Event`` objects made one at a time by the complete
  checks of each JSON line (and the parser for ``.ol`` files), merged and ordered as SPEC §2.2
  says: the events must be equal and every fact text the same;
* against digests of the fact texts that the writer produced before it read columns
  (``facts_digests.json``). A history whose input files changed since is skipped: its digest
  no longer describes it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from lab.bench.generate import GENERATOR_VERSION, generate
from resolver.errors import Location
from resolver.facts.writer import FactBase, build
from resolver.language.eventlog_checks import checked_line
from resolver.language.loader import collect_files, load
from resolver.language.model import Event, Project
from resolver.language.parser import parse_file

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = json.loads((Path(__file__).with_name("facts_digests.json")).read_text())
FOLDERS = sorted(
    folder
    for folder in (ROOT / "fixtures").rglob("*")
    if folder.is_dir() and any(f.suffix in (".ol", ".jsonl") for f in folder.iterdir())
)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def _texts(facts: FactBase) -> dict[str, str]:
    return {
        "declarations": facts.declarations,
        "events": facts.events,
        "links": facts.links,
        "channel_log": facts.channel_log.static_text,
    }


def _events_by_hand(files: list[str]) -> tuple[Event, ...]:
    """Each file's events one ``Event`` at a time; the first record of an id kept; by id."""
    first: dict[str, Event] = {}
    for name in files:
        if name.endswith(".ol"):
            events = list(parse_file(name).events)
        else:
            lines = Path(name).read_text(encoding="utf-8").removeprefix("\ufeff").split("\n")
            events = [
                checked_line(line, Location(name, number))
                for number, line in enumerate(lines, start=1)
                if line.strip()
            ]
        for event in events:
            first.setdefault(event.id, event)
    return tuple(sorted(first.values(), key=lambda e: e.id))


def _histories(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, list[str]]]:
    found = [("/".join(f.relative_to(ROOT).parts), collect_files([f])) for f in FOLDERS]
    history = generate(tmp_path_factory.mktemp("generated"), events=1500, seed=3)
    found.append(("generated:1500:3", [str(p) for p in history.paths]))
    return found


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, list[str]]]:
    return _histories(tmp_path_factory)


def test_every_fixture_folder_is_compared() -> None:
    names = {"/".join(f.relative_to(ROOT).parts) for f in FOLDERS}
    assert {"fixtures/release", "fixtures/policies/todo-debt"} <= names
    assert {"fixtures/release", "generated:1500:3"} <= set(DIGESTS["histories"])


def test_columns_write_the_facts_of_events_built_by_hand(histories) -> None:
    for name, files in histories:
        loaded = load(files)
        by_hand = _events_by_hand(files)
        assert tuple(loaded.events) == by_hand, name
        reference = replace(load(files), events=by_hand, derived={})
        assert isinstance(by_hand, tuple)  # the reference took the object path into Project
        for reduce in (True, False):
            ours, theirs = build(loaded, reduce=reduce), build(reference, reduce=reduce)
            assert _texts(ours) == _texts(theirs), (name, reduce)
            for at, known in ((0, 0), (-20_000_000, -20_000_000), (-(2**30), 0)):
                assert ours.channel_log.details(at, known) == theirs.channel_log.details(
                    at, known
                ), (name, reduce)


def test_columns_write_the_facts_written_before_columns(histories) -> None:
    compared = 0
    for name, files in histories:
        recorded = DIGESTS["histories"].get(name)
        inputs = _sha(b"".join(Path(f).read_bytes() for f in files))
        if recorded is None or recorded["inputs"] != inputs:
            continue  # a new or changed history: the digests do not describe it
        if name.startswith("generated:") and DIGESTS["generator_version"] != GENERATOR_VERSION:
            continue
        project = load(files)
        for reduce in (True, False):
            tag = "reduced" if reduce else "plain"
            for part, text in _texts(build(project, reduce=reduce)).items():
                assert _sha(text.encode()) == recorded[f"{tag}.{part}"], (name, tag, part)
        compared += 1
    if compared == 0:
        pytest.skip("every history changed since the digests were taken")
    assert compared >= len(histories) // 2


def test_the_digest_comparison_can_fail(histories) -> None:
    # One event's recorded time moved by a second changes the channel log's text.
    name, files = next((n, f) for n, f in histories if n == "fixtures/release")
    project = load(files)
    events = list(project.events)
    events[0] = replace(events[0], recorded=events[0].recorded + 1)
    changed = build(replace(project, events=tuple(events), derived={}))
    recorded = DIGESTS["histories"][name]
    assert _sha(changed.channel_log.static_text.encode()) != recorded["reduced.channel_log"]


def test_a_project_given_events_holds_them_as_columns() -> None:
    project = Project(events=())
    assert len(project.events) == 0 and list(project.events) == []


def test_the_facts_of_a_generated_history_build_no_event(histories, monkeypatch) -> None:
    from resolver.language.event_columns import EventColumns

    files = dict(histories)["generated:1500:3"]
    project = load(files)
    monkeypatch.setattr(EventColumns, "event_at", lambda self, row: pytest.fail("built"))
    facts = build(project)
    # about 60 events can touch an item since one shared word no longer links (SPEC 3)
    assert facts.events.count("event(") > 50
