"""Numbering that survives an append (stage 2 of ``docs/design/increments.md``).

Events are numbered in the log's reading order (even numbers) and every other name apart (odd
numbers), so lines appended to the log, with ids sorting before, among or after the kept ones,
leave every number the history had where it was: the interning of the history before the
append is a prefix of the interning after it. And the prepare part's atoms of an item that
names no new event are the same text: what stage 3 needs to keep them.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.engine.prepared import Prepared
from resolver.facts.writer import build
from resolver.language.loader import collect_files, load
from tests.store.histories import events
from tests.store.test_appends import ids
from tests.store.test_store import history, line

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_ATOM = re.compile(r"(\w+)\((.*)\)$")
#: Prepared atoms that name no item (an event's times, ranks, the thresholds, the channels).
_NO_ITEM = frozenset(("evt", "same_instant_rank", "threshold", "work", "mention"))


def _item_of(atom: str) -> int | None:
    """The item a prepared atom is about (the reasons family unwrapped), None for no item."""
    found = _ATOM.match(atom)
    if found is None:
        return None
    name, inner = found.groups()
    if name == "for_reasons":
        return _item_of(inner)
    if name in _NO_ITEM:
        return None
    return int(inner.split(",")[2 if name == "claim" else 0])


def _atoms_by_item(prepared: Prepared) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for atom in prepared.core.text.split() + prepared.reason_inputs.text.split():
        item = _item_of(atom)
        if item is not None:
            found.setdefault(item, set()).add(atom)
    return found


@st.composite
def appended(draw, first: list) -> list:
    """One to three new events, with ids sorting before, among or after ``first``'s."""
    drawn = draw(events(draw(st.integers(min_value=1, max_value=3)), first=len(first)))
    used = [e.id for e in first]
    renamed: dict[str, object] = {}
    for event in drawn:
        taken = {*used, *renamed}
        ident = draw(ids(used).filter(lambda i, taken=taken: i not in taken))
        renamed[ident] = dataclasses.replace(event, id=ident)
    return list(renamed.values())


@SETTINGS
@given(st.integers(min_value=3, max_value=8).flatmap(lambda n: events(n)), st.data())
def test_an_append_keeps_every_number_and_the_atoms_of_the_items_it_does_not_name(
    tmp_path_factory, first, data
):
    folder = history(tmp_path_factory.mktemp("h"), first)
    before = Prepared(load(collect_files([folder])))
    added = data.draw(appended(first))
    log = folder / "events.jsonl"
    log.write_text(log.read_text(encoding="utf-8") + "".join(map(line, added)), "utf-8")
    after = Prepared(load(collect_files([folder])))
    old, new = before.facts.interner, after.facts.interner
    keys = old.keys()
    assert [new.get(key) for key in keys] == [old.get(key) for key in keys]
    numbers = {new.get(("event", e.id)) for e in added}
    assert all(n is not None and n % 2 == 0 and n > 2 * len(first) for n in numbers)
    kept = _atoms_by_item(before)
    for item, atoms in _atoms_by_item(after).items():
        named = {int(n) for atom in atoms for n in re.findall(r"\d+", atom)}
        if not named & numbers:  # the item's atoms name no new event
            assert atoms == kept.get(item), new.key(item)


def test_events_are_numbered_in_reading_order_and_names_apart(tmp_path: Path) -> None:
    (tmp_path / "b.jsonl").write_text(
        '{"id": "z1", "channel": "c", "at": "2024-07-01", "by": "ann"}\n'
        "\n"
        '{"id": "a1", "channel": "c", "at": "2024-07-01", "by": "bob"}\n',
        encoding="utf-8",
    )
    (tmp_path / "a.jsonl").write_text(
        '{"id": "m1", "channel": "d", "at": "2024-07-02"}\n', encoding="utf-8"
    )
    facts = build(load(collect_files([tmp_path])), reduce=False)
    interner = facts.interner
    # a.jsonl is read first, then b.jsonl line by line: m1, z1, a1.
    assert [interner.get(("event", i)) for i in ("m1", "z1", "a1")] == [2, 4, 6]
    keys = interner.keys()
    names = [key for key in keys if key[0] != "event"]  # type: ignore[index]
    assert names and all(interner.get(key) % 2 for key in names)  # type: ignore[operator]
    # z1 and a1 share their instant: the lower id ranks first, whatever their numbers.
    assert "same_instant_rank(6,1)." in facts.events
    assert "same_instant_rank(4,2)." in facts.events
