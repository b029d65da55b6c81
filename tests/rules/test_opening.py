"""rules/prepare/opening.lp: when an expectation opens, its own opening or its task's."""

from __future__ import annotations

from tests.rules.harness import prepare


def test_opened_by_an_event_opens_at_its_at_known_from_its_record() -> None:
    a = prepare("expectation(10). opened_by(10,5). event(5,1,100,130,0).")
    assert a.has("opening(10,100,130)") and a.has("opener(10,5)")
    assert a.shows("opened_by_source(10,10)")


def test_an_oracle_time_is_known_from_itself_and_loses_to_opened_by() -> None:
    a = prepare("expectation(10). opened_time(10,70).")
    assert a.named("opening") == {"opening(10,70,70)"}
    b = prepare("expectation(10). opened_time(10,70). opened_by(10,5). event(5,1,100,100,0).")
    assert b.named("opening") == {"opening(10,100,100)"}


def test_an_obligation_without_its_own_opening_opens_with_its_task() -> None:
    a = prepare("expectation(10). task(20). part_of(10,20). opened_time(20,40).")
    assert a.has("opening(10,40,40)") and a.shows("opened_by_source(10,20)")
    b = prepare("expectation(10). task(20). part_of(10,20). opened_by(20,5). event(5,1,60,61,0).")
    assert b.has("opening(10,60,61)") and b.has("opener(10,5)")
    own = prepare(
        "expectation(10). task(20). part_of(10,20). opened_time(20,40). opened_time(10,9)."
    )
    assert own.named("opening") == {"opening(10,9,9)"}
    by = prepare(
        "expectation(10). task(20). part_of(10,20). opened_time(20,40). opened_by(10,5). "
        "event(5,1,8,8,0)."
    )
    assert by.named("opening") == {"opening(10,8,8)"}


def test_never_opens_when_neither_it_nor_its_task_names_an_opening() -> None:
    bare = prepare("expectation(10).")
    assert bare.shows("never_opens(10)")
    task = prepare("expectation(10). task(20). part_of(10,20).")
    assert task.shows("never_opens(10)")
    for named in ("opened_time(20,40).", "opened_by(20,5)."):  # a dangling opened_by names one
        inherited = prepare("expectation(10). task(20). part_of(10,20). " + named)
        assert not inherited.has("never_opens(10)"), named
    for named in ("opened_time(10,40).", "opened_by(10,5)."):
        assert not prepare("expectation(10). " + named).has("never_opens(10)"), named
