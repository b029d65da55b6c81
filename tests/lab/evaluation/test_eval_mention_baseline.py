"""The mention baseline: its patterns, deduplication and closure words, and its canonical figure."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.evaluation import mention_baseline as baseline
from lab.evaluation import mentions
from lab.evaluation.histories import Histories
from resolver.errors import Location
from resolver.language.model import Event

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def event(ident: str, at: int, text: str) -> Event:
    return Event(ident, "sessions", at, at, Location("t.jsonl", at), text=text)


@pytest.mark.parametrize(
    "text",
    [
        "TODO: drop the legacy importer",
        "We need to rotate the token",
        "The release must include the changelog",
        "Bob has to sign the form",
        "Ship the notes before release",
    ],
)
def test_task_like_sentences_are_flagged(text: str) -> None:
    assert baseline.flagged_sentences(text) == [text]


def test_plain_reports_are_not_flagged() -> None:
    assert baseline.flagged_sentences("Cut production over to PostgreSQL. Bump dependencies.") == []


def test_a_repeated_remark_is_one_item() -> None:
    items = baseline.detect(
        [
            event("a", 1, "Backups still target SQLite, need to move those before release."),
            event("b", 2, "Reminder: we still need to move the backups before release."),
            event("c", 3, "We should probably use Redis for the cache."),
        ]
    )
    assert [(m.event, m.repeats) for m in items] == [("a", ["b"]), ("c", [])]


def test_closure_words_close_only_an_overlapping_later_text() -> None:
    history = [
        event("a", 1, "We must port the benchmark fixtures to PostgreSQL."),
        event("b", 2, "Release prep is done."),
        event("c", 3, "Benchmark fixtures ported to PostgreSQL: done"),
    ]
    assert [m.closed_by for m in baseline.detect(history)] == [None]
    assert [m.closed_by for m in baseline.detect_with_closure(history)] == ["c"]
    assert baseline.detect_with_closure(history, at=2)[0].closed_by is None


def test_canonical_texts_four_of_five_at_precision_point_eight() -> None:
    rows = {r.experiment: r for r in mentions.rows(Histories(FIXTURES))}
    detection = rows["Mention only: genuine mentions found"]
    assert detection.value == (4, 5, 0.8)
    assert detection.agrees
    assert rows["Never-accepted suggestion (Redis)"].value == ("mn/session-052",)
    assert rows["Issue-worded obligation (SQLite tuning)"].value == ("mn/tune",)
    assert rows["Mention plus closure words: genuine mentions found"].value == (4, 5, 0.8)
    mention, closing, derived = rows["Listed open at 2024-09-02 (all settled)"].value
    assert derived == 0
    assert mention == 5 and closing == 3
