"""Property: the stricter semantic tier never closes anything the previous tier left open.

Random small histories (titles, opening texts and commit messages drawn from a small vocabulary,
some commits of kind ``merge``, some setting the wanted key) are resolved twice: with the rules as
they are, and with the previous definition of a strong link (``2 * Shared > Total``, merges and
restatements included) put back in place of the new one. Every expectation the stricter rules
close must also be closed by the previous ones, at the same standpoint.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import api
from resolver.engine import prepared as engine
from resolver.engine.prepared import Prepared
from resolver.errors import Location
from resolver.language.model import Assignment, Channel, Event, Expectation, Project

_HERE = Location("property.ol", 1)
_WORDS = ("backup", "postgres", "lexer", "callback", "keyword", "oauthlib", "remove", "done")
_NEW_STRONG = "strong(X, E) :- strong_link(X, E), not restates(X, E)."
_OLD_STRONG = (
    "strong(X, E) :- phrase_hit(X, E).\nstrong(X, E) :- overlap(X, E, _, S, N), 2 * S > N."
)
_CLOSED = {"SATISFIED", "SUPERSEDED", "CANCELLED", "WAIVED"}
_DAY = 86400
_START = 1_720_000_000


def _previous_rules() -> str:
    text = engine._rules_program()
    assert _NEW_STRONG in text, "the strong-link rule changed shape; update this test"
    return text.replace(_NEW_STRONG, _OLD_STRONG)


_text = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join)
_commit = st.tuples(_text, st.booleans(), st.sampled_from([None, "removed", "open"]))


@st.composite
def histories(draw) -> Project:
    """A session opening, one expectation per opening, and a few commits after it."""
    events = [
        Event("s1", "sessions", _START, _START, _HERE, seq=1, text=draw(_text)),
        Event("s2", "sessions", _START + 1, _START + 1, _HERE, seq=2, text=draw(_text)),
    ]
    for n, (text, merge, value) in enumerate(draw(st.lists(_commit, min_size=1, max_size=6))):
        at = _START + (n + 1) * _DAY
        sets = (Assignment("todo.k", value),) if value else ()
        kind = "merge" if merge else "commit"
        events.append(
            Event(
                f"c{n}",
                "commits",
                at,
                at,
                _HERE,
                seq=n + 1,
                by="bob",
                kind=kind,
                text=text,
                sets=sets,
            )
        )
    expectations = (
        Expectation("x1", _HERE, title=draw(_text), opened_by="s1"),
        Expectation(
            "x2", _HERE, title=draw(_text), opened_by="s2", want=Assignment("todo.k", "removed")
        ),
    )
    channels = (
        Channel("sessions", "mention", False, _HERE),
        Channel("commits", "work", False, _HERE),
    )
    return Project(channels=channels, expectations=expectations, events=tuple(events))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(project=histories(), day=st.integers(min_value=1, max_value=7))
def test_stricter_tier_closes_a_subset(project: Project, day: int) -> None:
    at = _START + day * _DAY
    stricter = api.status(Prepared(project), at=at, reasons=False)
    previous_rules = _previous_rules()
    original = engine._rules_program
    engine._rules_program = lambda: previous_rules  # type: ignore[assignment]
    try:
        previous = api.status(Prepared(project), at=at, reasons=False)
    finally:
        engine._rules_program = original  # type: ignore[assignment]
    before = {v.id: v.status for v in previous.expectations}
    for found in stricter.expectations:
        if found.status in _CLOSED:
            assert before[found.id] in _CLOSED, (found.id, found.closed_by, found.tier)


def test_the_previous_rules_really_were_looser() -> None:
    """A two-word title shared by a merge: closed before, open now (the property can fail)."""
    events = (
        Event("s1", "sessions", _START, _START, _HERE, seq=1, text="owed"),
        Event(
            "c0",
            "commits",
            _START + _DAY,
            _START + _DAY,
            _HERE,
            seq=1,
            by="bob",
            kind="merge",
            text="lexer callback",
        ),
    )
    channels = (
        Channel("sessions", "mention", False, _HERE),
        Channel("commits", "work", False, _HERE),
    )
    project = Project(
        channels=channels,
        expectations=(Expectation("x1", _HERE, title="lexer callback", opened_by="s1"),),
        events=events,
    )
    at = _START + 2 * _DAY
    assert api.status(Prepared(project), at=at).expectation("x1").status == "OPEN"
    previous_rules = _previous_rules()
    original = engine._rules_program
    engine._rules_program = lambda: previous_rules  # type: ignore[assignment]
    try:
        assert api.status(Prepared(project), at=at).expectation("x1").status == "SATISFIED"
    finally:
        engine._rules_program = original  # type: ignore[assignment]
