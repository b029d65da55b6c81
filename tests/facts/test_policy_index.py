"""The policies' event index, read from the columns, finds what a dict of events finds.

``EventIndex`` groups events by channel, kind, actor, key and path without building an
``Event`` per row. The reference below builds every event and groups them as the index once did
(an id recorded twice stands for its last record; no kind counts as the kind ``""``); both must
agree on random events with repeated ids, missing and empty kinds and actors.
"""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.errors import Location
from resolver.facts.linker import Vocabulary
from resolver.facts.policy_index import EventIndex, chain_facts
from resolver.language.event_columns import EventColumns
from resolver.language.model import Assignment, Event

HERE = Location("t.ol", 1, 1)
NAMES = ["", "a", "b", "commit"]


@st.composite
def _events(draw) -> list[Event]:
    found = []
    for n in range(draw(st.integers(0, 25))):
        at = draw(st.integers(0, 5))
        found.append(
            Event(
                id=f"e{draw(st.integers(0, max(0, n)))}",  # ids repeat now and then
                channel=draw(st.sampled_from(["c", "d", "commit"])),
                at=1_700_000_000 + at,
                recorded=1_700_000_000 + at + draw(st.integers(0, 2)),
                location=HERE,
                by=draw(st.one_of(st.none(), st.sampled_from(NAMES))),
                kind=draw(st.one_of(st.none(), st.sampled_from(NAMES))),
                text=draw(st.one_of(st.none(), st.sampled_from(["fix a", "a commit", ""]))),
                sets=tuple(
                    Assignment(k, "v") for k in draw(st.lists(st.sampled_from(["k.a", "k.b"])))
                ),
                files=tuple(draw(st.lists(st.sampled_from(["src/a.py", "docs/b.md"])))),
            )
        )
    return found


@settings(max_examples=150, deadline=None)
@given(_events())
def test_the_index_of_the_columns_is_the_index_of_the_events(events):
    index = EventIndex(EventColumns.from_events(events), Vocabulary({}))
    last = {e.id: e for e in events}
    groups: dict[str, dict] = {name: defaultdict(set) for name in ("channel", "kind", "by")}
    keys, paths = defaultdict(set), defaultdict(set)
    for e in last.values():
        groups["channel"][e.channel].add(e.id)
        groups["kind"][e.kind or ""].add(e.id)
        groups["by"][e.by].add(e.id)
        for a in e.sets:
            keys[a.key].add(e.id)
        for path in e.files:
            paths[path].add(e.id)
    for name in [*NAMES, "c", "d", "missing"]:
        assert index.by_channel.get(name, set()) == groups["channel"].get(name, set())
        assert index.by_kind.get(name, set()) == groups["kind"].get(name, set())
        assert index.by_actor.get(name, set()) == groups["by"].get(name, set())
    assert dict(index.by_key) == dict(keys)
    assert index.keys == sorted(keys)
    assert index.matching_keys("k.*") == sorted(keys)
    assert dict(index.by_path) == dict(paths)
    assert list(index.events) == list(last)
    assert all(index.events[i] == e for i, e in last.items())
    assert all(index.times(i) == (e.at, e.recorded) for i, e in last.items())
    assert index.phrase_events("fix") == {i for i, e in last.items() if e.text == "fix a"}
    ordered = sorted(paths.get("src/a.py", ()), key=lambda i: (last[i].at, last[i].recorded, i))
    nexts = [f[3] for f in chain_facts(index, "glob", [(1, "src/**", None)]) if f[0] == "next"]
    assert nexts == ordered[1:]
