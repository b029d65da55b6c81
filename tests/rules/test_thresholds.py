"""rules/prepare/thresholds.lp: every time a standpoint's answer can turn on, and no other."""

from __future__ import annotations

from tests.rules.harness import prepare


def _thresholds(facts: str) -> set[str]:
    return prepare(facts).named("threshold")


def test_an_event_gives_its_at_and_its_recorded_time() -> None:
    assert _thresholds("event(5,1,100,130,0).") == {"threshold(100)", "threshold(130)"}


def test_an_opening_gives_its_time_and_when_it_became_known() -> None:
    found = _thresholds("expectation(10). opened_by(10,5). event(5,1,100,130,0).")
    assert {"threshold(100)", "threshold(130)"} <= found
    oracle = _thresholds("expectation(10). opened_time(10,70).")
    assert oracle == {"threshold(70)"}


def test_a_deadline_is_a_threshold_and_shown() -> None:
    answer = prepare("expectation(10). deadline(10,500).")
    assert answer.named("threshold") == {"threshold(500)"}
    assert answer.shows("threshold(500)")


def test_window_and_within_count_from_the_opening() -> None:
    base = "expectation(10). opened_time(10,70). "
    assert _thresholds(base + "window(10,30).") == {"threshold(70)", "threshold(100)"}
    assert _thresholds(base + "within(10,45).") == {"threshold(70)", "threshold(115)"}
    # no opening, nothing to count from
    assert _thresholds("expectation(10). window(10,30). within(10,45).") == set()
