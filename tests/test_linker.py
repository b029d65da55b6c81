"""The text linker: deterministic measurements the rules turn into tiers."""

from __future__ import annotations

from resolver.errors import Location
from resolver.facts.linker import TextLinker, Vocabulary, stem, words
from resolver.language.model import Alias, Assignment, Event, Expectation

HERE = Location("t.ol", 1, 1)


def _event(ident: str, text: str) -> Event:
    return Event(id=ident, channel="commits", at=0, recorded=0, location=HERE, text=text)


def test_words_are_case_folded_and_split_on_punctuation():
    assert words("Switch the nightly dump job to pg_dump!") == [
        "switch",
        "the",
        "nightly",
        "dump",
        "job",
        "to",
        "pg",
        "dump",
    ]
    assert words("Ärger über Backups") == ["ärger", "über", "backups"]


def test_stem_strips_one_suffix_and_keeps_short_words():
    assert stem("backups") == "backup"
    assert stem("deployment") == "deploy"
    assert stem("documentation") == "document"
    assert stem("pg") == "pg"


def test_aliases_map_to_the_first_word():
    vocab = Vocabulary.from_aliases([Alias(("postgresql", "postgres", "pg"), HERE)])
    assert vocab.tokens("Postgres and PG") == ["postgresql", "postgresql"]


def test_release_fixture_links_docs_commit_but_not_cleanup_commit():
    aliases = [
        Alias(("postgresql", "postgres", "pg"), HERE),
        Alias(("document", "docs", "documentation", "runbook"), HERE),
        Alias(("deploy", "deployment", "rollout"), HERE),
    ]
    docs = Expectation(id="docs-update", location=HERE, title="Document the PostgreSQL deployment")
    backups = Expectation(
        id="intent-401",
        location=HERE,
        title="Move backups to PostgreSQL before release",
        want=Assignment("backup.backend", "PostgreSQL"),
    )
    events = [
        _event("commit-113", "Rewrite the runbook for the Postgres rollout"),
        _event("commit-115", "Backup cleanup: remove stale dump files from the old host"),
    ]
    linker = TextLinker(events, aliases)
    docs_links = {link.event: link for link in linker.links(docs, None)}
    shared, total = docs_links["commit-113"].title_overlap
    assert 2 * shared > total  # strong: more than half of the title's content words
    assert "commit-115" not in docs_links
    # "Backup cleanup" shares one word with the backups' title: chance, not a link (SPEC 3)
    backup_links = {link.event: link for link in linker.links(backups, None)}
    assert "commit-115" not in backup_links


def test_one_shared_word_is_no_link_two_are():
    """SPEC 3: a text links when it shares at least two content words with the title or the
    opening text; an overlap of one word is not measured, and alone it makes no link."""
    x = Expectation(id="x", location=HERE, title="rotate the billing tokens", opened_by="open")
    events = [
        _event("open", "billing tokens leak when the cache expires"),
        _event("one", "rotate nothing"),
        _event("two", "rotate tokens nightly"),
        _event("opening-two", "cache expires too often"),
        _event("one-each", "billing nightly"),
    ]
    opening = "billing tokens leak when the cache expires"
    links = {link.event: link for link in TextLinker(events, []).links(x, opening)}
    assert set(links) == {"two", "opening-two"}
    assert links["two"].title_overlap == (2, 3) and links["two"].opening_overlap is None
    assert links["opening-two"].opening_overlap == (2, 5)
    assert links["opening-two"].title_overlap is None


def test_phrases_value_and_id():
    x = Expectation(
        id="intent-401",
        location=HERE,
        title="Move backups",
        want=Assignment("backup.backend", "PostgreSQL"),
        matches=("nightly dump",),
    )
    linker = TextLinker(
        [_event("a", "the nightly dump now uses postgresql, closes intent-401")], []
    )
    (link,) = linker.links(x, None)
    assert link.phrase_hit and link.names_value and link.names_id


def test_done_cues():
    linker = TextLinker([_event("a", "Finished the migration"), _event("b", "started it")], [])
    assert list(linker.done_cue_events()) == ["a"]


def test_index_only_compares_events_sharing_a_token():
    x = Expectation(id="x", location=HERE, title="rotate tokens")
    events = [_event(f"e{i}", "unrelated words here") for i in range(50)]
    events.append(_event("hit", "rotate the signing tokens"))
    assert [link.event for link in TextLinker(events, []).links(x, None)] == ["hit"]


def test_words_in_too_many_events_do_not_link():
    from resolver.facts.linker import COMMON_WORD_EVENTS

    x = Expectation(id="x", location=HERE, title="rotate billing tokens")
    events = [_event(f"e{i}", "billing report") for i in range(COMMON_WORD_EVENTS + 1)]
    events.append(_event("hit", "rotate the signing tokens"))
    links = list(TextLinker(events, []).links(x, None))
    assert [link.event for link in links] == ["hit"]
    # "billing" never counts as shared, but it is still one of the title's three words
    assert links[0].title_overlap == (2, 3)


def test_without_the_cut_off_every_word_links():
    """``common=None`` is the exact rule: words in every event's text link each of them."""
    x = Expectation(id="x", location=HERE, title="rotate billing tokens")
    events = [_event(f"e{i:03}", "billing tokens report") for i in range(150)]
    events.append(_event("hit", "rotate the billing tokens"))
    links = {link.event: link for link in TextLinker(events, [], common=None).links(x, None)}
    assert len(links) == 151
    assert links["hit"].title_overlap == (3, 3)
    assert links["e000"].title_overlap == (2, 3)


def test_pieces_of_contractions_are_no_content_words():
    """``there's`` and ``can't`` split at the apostrophe; ``s`` and ``t`` must not link."""
    vocab = Vocabulary.from_aliases([])
    assert vocab.tokens("there's what can't happen, never") == ["happen"]
    x = Expectation(id="x", location=HERE, title="What happens if there's an empty rule?")
    linker = TextLinker([_event("a", "Fixed: there's no empty list now")], [])
    assert list(linker.links(x, None)) == []
    linker = TextLinker([_event("b", "Fixed: an empty rule")], [])
    assert [link.event for link in linker.links(x, None)] == ["b"]
