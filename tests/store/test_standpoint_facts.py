"""The facts a standpoint reads, kept beside the prepared atoms: read back exactly as built, a
standpoint on a stored history solved without building the facts, and anything damaged a
build from the files."""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from array import array
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import api, store
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.stored_facts import StoredFacts
from resolver.faces import json_format
from resolver.faces.explanation.text import to_document
from resolver.facts import standpoint_pack
from resolver.facts.channel_log import ChannelLog
from resolver.facts.writer import build
from resolver.language.loader import collect_files, load
from resolver.store.keys import entry_path
from resolver.verdicts.resolution import resolve
from tests.store.histories import DAY, events, instants
from tests.store.test_store import POINT, fixed, history


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    return folder


def _json(prepared: Prepared, point: Standpoint) -> str:
    return json_format.render(resolve(prepared, point), prepared.project, "all")


def _explained(prepared: Prepared, point: Standpoint, ident: str) -> dict:
    return to_document(api.explain(prepared, point, ident), ident, point)


def _fresh(folder: Path) -> Prepared:
    prepared = Prepared(load(collect_files([folder])))
    prepared.memo = None
    return prepared


#: Channel log records: (channel, seq or None, at, how late it was recorded).
_ROWS = st.lists(
    st.tuples(
        st.integers(1, 3),
        st.one_of(st.none(), st.integers(1, 40)),
        st.integers(-50, 50),
        st.integers(0, 30),
    ),
    max_size=40,
)


@settings(max_examples=25, deadline=None)
@given(
    _ROWS,
    st.sampled_from([1, 2, 3, 128]),
    st.lists(st.tuples(st.integers(-60, 60), st.integers(-60, 90)), min_size=1, max_size=6),
)
def test_a_channel_log_reads_back_as_built(rows, block_size, points):
    entries = [(c, s, at, at + late) for c, s, at, late in rows]
    log = ChannelLog(entries, block_size)
    back = ChannelLog.unpack(log.pack())
    assert back is not None
    assert back.static_text == log.static_text and back.block_size == block_size
    assert list(back.events()) == list(log.events())
    for at, known in points:
        assert back.details(at, known) == log.details(at, known)


@settings(max_examples=60, deadline=None)
@given(_ROWS, _ROWS, st.sampled_from([1, 2, 3, 5]), st.booleans(), st.booleans())
def test_a_channel_log_extended_is_the_log_of_every_record(rows, more, size, after, packed):
    """Records added anywhere (or, as an append's usually are, after every kept one) give the
    log a fresh build gives, from a built or an unpacked log alike."""
    if after:  # shifted after every kept record
        top = max((at for _, _, at, _ in rows), default=0)
        more = [(c, s and s + 40, top + 1 + at + 50, late) for c, s, at, late in more]
    entries = [(c, s, at, at + late) for c, s, at, late in rows]
    added = [(c, s, at, at + late) for c, s, at, late in more]
    log = ChannelLog(entries, size)
    if packed:
        log = ChannelLog.unpack(log.pack())
        assert log is not None
    grown, fresh = log.extended(added), ChannelLog(entries + added, size)
    back = ChannelLog.unpack(grown.pack())  # kept again: blocks unpacked and made alike
    assert back is not None and list(back.events()) == list(fresh.events())
    assert grown.static_text == fresh.static_text == back.static_text
    assert list(grown.events()) == list(fresh.events())
    for at, known in [(-60, -60), (0, 10), (40, 90), (200, 300)]:
        assert grown.details(at, known) == fresh.details(at, known)


@pytest.mark.parametrize("cut", [1, 7, 8, 24, 100])
def test_a_torn_channel_log_is_none(cut):
    data = ChannelLog([(1, 1, 0, 0), (1, 2, 5, 6), (2, None, 3, 3)], 2).pack()
    assert ChannelLog.unpack(data[:-cut]) is None
    assert ChannelLog.unpack(data + b"\0" * 8) is None


def test_the_facts_read_back_as_built(tmp_path):
    facts = build(load(collect_files([fixed(tmp_path)])))
    kept = standpoint_pack.unpack(
        standpoint_pack.pack(facts.declarations, facts.links, facts.channel_log)
    )
    assert kept is not None
    for back, built in ((kept.declarations, facts.declarations), (kept.links, facts.links)):
        assert back.split() == built.split()  # the same facts (an empty text may lose its "\n")
    assert kept.channel_log.static_text == facts.channel_log.static_text


@pytest.mark.parametrize(
    "text", ['a("x").\n', "a :- b.\n", "#script (python) x #end.\n", "a(1). b(2).\n", "a(1)"]
)
def test_a_text_that_is_not_plain_facts_is_not_kept(text):
    assert standpoint_pack.pack(text, "", ChannelLog([], 1)) is None


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.integers(min_value=3, max_value=8).flatmap(lambda n: events(n)),
    st.lists(instants(), min_size=1, max_size=3),
)
def test_a_stored_history_solves_any_standpoint_without_building_facts(
    tmp_path_factory, found, moments
):
    folder = history(tmp_path_factory.mktemp("h"), found)
    store.load_prepared([folder])  # fills the store
    prepared = store.load_prepared([folder])
    assert isinstance(prepared.facts, StoredFacts)
    fresh = _fresh(folder)
    for moment in moments:  # both default families, and a standpoint of neither
        for point in (Standpoint(moment, moment), Standpoint(moment, None)):
            assert _json(prepared, point) == _json(fresh, point)
        odd = Standpoint(moment, moment - DAY)
        assert _json(prepared, odd) == _json(fresh, odd)
        assert _explained(prepared, odd, "x2") == _explained(fresh, odd, "x2")
    assert not prepared.facts.built  # every solve read the kept facts


@pytest.mark.parametrize("damage", ["torn", "program text", "foreign blob"])
def test_damaged_kept_facts_are_built_from_the_files(tmp_path, damage):
    folder = fixed(tmp_path)
    store.load_prepared([folder])
    if damage == "torn":
        data = None
    elif damage == "program text":  # well-formed, matching digest, but a rule
        rule, log = b"a :- b. #script", ChannelLog([], 1).pack()
        sizes = array("q", [len(rule), 0, len(log), 0]).tobytes()
        data = zlib.compress(sizes + rule + log, 1)
        assert standpoint_pack.unpack(data) is None
    else:
        data = zlib.compress(b"not a pack at all", 1)
    with sqlite3.connect(entry_path(collect_files([folder]))) as db:
        if data is None:
            db.execute("UPDATE standpoint SET data = substr(data, 1, 20)")
        else:
            digest = hashlib.sha256(data).hexdigest()
            db.execute("UPDATE standpoint SET data = ?, digest = ?", (data, digest))
    prepared = store.load_prepared([folder])
    odd = Standpoint(POINT.at, POINT.at - DAY)
    assert _json(prepared, odd) == _json(_fresh(folder), odd)
    assert prepared.facts.built  # nothing kept was used: the facts were built and checked
