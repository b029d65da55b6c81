"""The rules are stratified: the grounder evaluates every part whole, so that every atom it
derives is a fact and the solver is left nothing to decide.

That is what keeps the engine linear: an aggregate or a negation over atoms the grounder has
decided costs one evaluation, while over atoms left to the solver it grounds a copy per
possible value (measured: a `#max` for the nearest candidate grew a real history's standpoint
from 0.5M to 2.7M ground rules). A rule whose negation closes a cycle through its own head (as
the timeline's fold once did) leaves every verdict downstream undecided; this test finds it on
every fixture, at three standpoints, with everything explained, with the key reasons only and
through a gate.
"""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from resolver.engine import prepared as engine
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Gate, Query
from resolver.language.loader import load

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HISTORIES = sorted({str(ol.parent.relative_to(FIXTURES)) for ol in FIXTURES.rglob("*.ol")})
LATER = 86_400


def _undecided(parts, part: str) -> list[str]:
    """The atoms the grounder could not decide in one part over ``parts`` (facts text)."""
    control = clingo.Control(["--warn=none"])
    control.add(part, [], engine._rules_program())
    for text in parts:
        control.add(part, [], text)
    control.ground([("base", []), (part, [])])
    return sorted(str(a.symbol) for a in control.symbolic_atoms if not a.is_fact)


@pytest.mark.parametrize("history", HISTORIES)
def test_the_grounder_decides_every_atom(history: str, monkeypatch) -> None:
    found: list[tuple[str, list[str]]] = []
    solve = engine._solve

    def checked(parts, part):
        parts = list(parts)
        found.append((part, _undecided(parts, part)))
        return solve(parts, part)

    monkeypatch.setattr(engine, "_solve", checked)
    prepared = Prepared(load([FIXTURES / history]))
    prepared.memo = None  # solve every standpoint: two on one plateau would share one answer
    instants = sorted({e.at for e in prepared.project.events}) or [1_720_000_000]
    for at in (instants[0], instants[len(instants) // 2], instants[-1] + LATER):
        for query in (
            Query(explain_all=True),
            Query(every_reason=False),
            Query(gate=Gate("all"), every_reason=False),
        ):
            prepared.solve(Standpoint(at, None), query)
    assert len(found) == 10
    for part, undecided in found:
        assert not undecided, f"{part}: {undecided[:5]}"
