"""The linker's token index measures exactly what a plain comparison of every pair measures.

The reference below compares one expectation with every event directly, word sets against word
sets: shared content words of the title and of the opening text, two at least (a word in more
than ``common`` events' texts never counts as shared, but counts in the totals), the ``matches``
phrases, the wanted value, the id and the opening text's coverage. The index must give the same
links, in the same order, on random texts drawn from a small vocabulary, so that most words occur
in most events, with the exact rule (no cut-off) and with small cut-offs.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.errors import Location
from resolver.facts.done_claims import claims_done
from resolver.facts.linker import Link, TextLinker, Vocabulary, words
from resolver.language.model import Alias, Assignment, Event, Expectation

HERE = Location("t.ol", 1, 1)
#: Content words with suffix variants, an alias pair, stop words and done words.
WORDS = [
    *("deploy", "deploys", "deployment", "backup", "backups", "pg", "postgres", "rotate"),
    *("token", "tokens", "the", "of", "it", "done", "fixed", "billing", "report", "401"),
    *("a", "is"),
]
ALIASES = [Alias(("postgresql", "postgres", "pg"), HERE)]


def _reference(
    x: Expectation, opening: str | None, events: list[Event], common: int | None
) -> list[Link]:
    """Every pair compared directly: the semantics the index must keep."""
    vocab = Vocabulary.from_aliases(ALIASES)
    title_all, opened_all = vocab.token_set(x.title), vocab.token_set(opening)
    frequent: set[str] = set()
    if common is not None:
        holders = Counter(t for e in events if e.text for t in set(vocab.tokens(e.text)))
        frequent = {t for t, n in holders.items() if n > common}
    title, opened = title_all - frequent, opened_all - frequent
    phrases = [p for p in (vocab.phrase(m) for m in x.matches) if p]
    value = ()
    if x.want is not None and not isinstance(x.want.value, bool):
        value = tuple(vocab.tokens(str(x.want.value)))
    id_words = tuple(words(x.id))

    def contains(seq, part) -> bool:
        n = len(part)
        return n > 0 and any(tuple(seq[i : i + n]) == part for i in range(len(seq) - n + 1))

    out = []
    for event in sorted(events, key=lambda e: e.id):
        if not event.text or event.id == x.opened_by:
            continue
        tokens = vocab.tokens(event.text)
        mine = set(tokens)
        t, o = len(title & mine), len(opened & mine)
        t, o = (t if t >= 2 else 0), (o if o >= 2 else 0)  # one shared word is no link (SPEC 3)
        link = Link(
            x.id,
            event.id,
            (t, len(title_all)) if t else None,
            (o, len(opened_all)) if o else None,
            any(contains(tokens, p) for p in phrases),
            contains(tokens, value),
            contains(words(event.text), id_words),
            (len(mine & opened_all), len(mine)) if opened_all else None,
        )
        if t or o or link.phrase_hit or link.names_id:
            out.append(link)
    return out


_text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=7).map(" ".join)
_value = st.one_of(st.none(), st.booleans(), st.integers(0, 500), _text)


@st.composite
def _history(draw):
    texts = draw(st.lists(_text, min_size=1, max_size=130))
    events = [
        Event(id=f"e{i}", channel="commits", at=i, recorded=i, location=HERE, text=text)
        for i, text in enumerate(texts)
    ]
    opener = draw(st.one_of(st.none(), st.sampled_from([e.id for e in events])))
    value = draw(_value)
    ident = "-".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)))
    x = Expectation(
        id=ident,
        location=HERE,
        title=draw(_text),
        opened_by=opener,
        want=None if value is None else Assignment("k", value),
        matches=tuple(draw(st.lists(_text, max_size=2))),
    )
    opening = next((e.text for e in events if e.id == opener), None)
    return x, opening, events


@settings(max_examples=150, deadline=None)
@given(_history(), st.sampled_from([None, 0, 3, 20, 100]))
def test_index_gives_the_links_of_the_plain_comparison(history, common):
    x, opening, events = history
    linker = TextLinker(events, ALIASES, common=common)
    assert list(linker.links(x, opening)) == _reference(x, opening, events, common)


@settings(max_examples=50, deadline=None)
@given(_history())
def test_done_cues_are_found_in_every_text(history):
    _, _, events = history
    done = {e.id for e in events if e.text and claims_done(e.text)}
    assert set(TextLinker(events, ALIASES).done_cue_events()) == done


def test_without_a_cut_off_unrelated_events_change_no_measurement():
    """The exact rule: a pair's measurement does not change as unrelated events are added."""
    x = Expectation(id="x", location=HERE, title="rotate billing tokens")
    hit = Event(id="hit", channel="c", at=0, recorded=0, location=HERE, text="rotate billing")
    for noise in (10, 500):
        events = [
            Event(id=f"n{i}", channel="c", at=0, recorded=0, location=HERE, text="billing tokens")
            for i in range(noise)
        ]
        linker = TextLinker([*events, hit], [], common=None)
        found = {link.event: link for link in linker.links(x, None)}
        assert found["hit"].title_overlap == (2, 3)
        assert len(found) == noise + 1


def test_an_id_of_stop_words_only_is_searched_in_every_text():
    x = Expectation(id="it-is", location=HERE, title="billing")
    events = [
        Event(id="a", channel="c", at=0, recorded=0, location=HERE, text="so it is"),
        Event(id="b", channel="c", at=0, recorded=0, location=HERE, text="it was"),
    ]
    assert [link.event for link in TextLinker(events, []).links(x, None)] == ["a"]
