"""The linker's two indexes, and the writer's two ways of reading rows, give the same facts.

A scope (one task's group) asks the linker about a few words, so it searches the texts for them
(``ScanIndex``) instead of tokenising every text (``FullIndex``); the fact writer reads the
relevant rows only when the columns are in range, and every row otherwise. Each pair must give
the same links and the same fact texts, on texts full of the cases the search must get right:
suffixes (``entries`` stems as ``entry``), a word inside another (``prefix``, ``fix``), words
joined by ``_`` or ``/``, case, ligatures and accents (NFKC and case folding), aliases, stop
words, and the cut-off of common words at every size.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.errors import Location
from resolver.facts import event_rows, linker
from resolver.facts.done_claims import claims_done
from resolver.facts.linker import TextLinker
from resolver.facts.text_index import FullIndex, ScanIndex
from resolver.facts.writer import build
from resolver.language.model import Alias, Assignment, Event, Expectation, Project
from tests.store.histories import histories

HERE = Location("t.ol", 1, 1)
WORDS = [
    *("entries", "entry", "entr", "studied", "study", "fix", "fixes", "Fixed", "prefix"),
    *("x_fix", "ﬁx", "FIX", "Ünïcode", "ünïcode", "unicode", "pg", "postgres", "postgresql"),
    *("backup", "backups", "401", "v6", "the", "it", "is", "done", "not", "token", "tokens"),
    *("re/fix", "deploy-ment", "deployment", "y", "key", "keys", "ies", "a"),
]
_text = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
_aliases = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(
        lambda words: Alias(tuple(words), HERE)
    ),
    max_size=2,
)


@st.composite
def _expectation(draw, ids: list[str]) -> tuple[Expectation, str | None]:
    opener = draw(st.one_of(st.none(), st.sampled_from(ids)))
    value = draw(st.one_of(st.none(), st.booleans(), st.integers(0, 500), _text))
    x = Expectation(
        id="-".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))),
        location=HERE,
        title=draw(_text),
        opened_by=opener,
        want=None if value is None else Assignment("k", value),
        matches=tuple(draw(st.lists(_text, max_size=2))),
    )
    return x, draw(st.one_of(st.none(), _text))


@st.composite
def _corpus(draw):
    texts = draw(st.lists(st.one_of(st.none(), _text), min_size=1, max_size=120))
    events = [
        Event(id=f"e{i:03d}", channel="c", at=i, recorded=i, location=HERE, text=text)
        for i, text in enumerate(texts)
    ]
    asked = draw(st.lists(_expectation([e.id for e in events]), min_size=1, max_size=4))
    return events, asked, draw(_aliases)


@settings(max_examples=200, deadline=None)
@given(_corpus(), st.sampled_from([None, 0, 1, 3, 100]))
def test_searching_the_texts_gives_the_links_of_the_full_index(corpus, common):
    events, asked, aliases = corpus
    full = TextLinker(events, aliases, common=common)
    scan = TextLinker(events, aliases, common=common, asked=[])  # no words asked: it searches
    assert isinstance(scan._index, ScanIndex)
    assert isinstance(full._index, FullIndex)
    # Asked in turn, and again: what one search kept must serve the next (a word listed whole
    # for a phrase or a value is still no linking word if it is common).
    for x, opening in [*asked, *reversed(asked)]:
        assert list(scan.links(x, opening)) == list(full.links(x, opening))


@settings(max_examples=50, deadline=None)
@given(_corpus(), st.sets(st.sampled_from([f"e{i:03d}" for i in range(130)])))
def test_done_cues_are_read_for_the_events_asked(corpus, among):
    events, _, aliases = corpus
    found = list(TextLinker(events, aliases).done_cue_events(among))
    assert found == sorted(e.id for e in events if e.id in among and e.text and claims_done(e.text))


def _texts(project: Project) -> tuple:
    facts = build(project)
    texts = facts.declarations, facts.events, facts.links, facts.channel_log.static_text
    return (*texts, facts.word_counts)  # the linker's counts too, whichever index counted


@settings(max_examples=60, deadline=None)
@given(histories())
def test_the_facts_do_not_depend_on_the_index_or_the_rows_read(project):
    expected = _texts(project)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(linker, "SCAN_TOKENS", -1)  # the full index, whatever is asked
        assert _texts(project) == expected
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(linker, "SCAN_TOKENS", 10**9)  # the search, whatever is asked
        assert _texts(project) == expected
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(event_rows, "in_range", lambda columns: False)  # every row, one by one
        assert _texts(project) == expected


def test_an_id_recorded_twice_is_one_event_number():
    events = tuple(
        Event(id=ident, channel="c", at=at, recorded=at, location=HERE, text="fixed the backup")
        for ident, at in (("b", 2), ("a", 1), ("b", 3))
    )
    x = Expectation(id="x", location=HERE, title="backup fixed")
    facts = build(Project(expectations=(x,), events=events))
    # Numbered in the order read (events even, SPEC's tie order aside), each id once.
    assert facts.interner.get(("event", "b")) == 2
    assert facts.interner.get(("event", "a")) == 4
    assert facts.links.count("overlap(") == 3
