"""Explaining a few items on a key-reasons standpoint gives exactly the explanation that a
standpoint with every item's every reason gives (``whole_reasons/1``, key_reasons.lp; the
per-item inputs of ``resolver/facts/item_inputs.py``), on random small histories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import api
from resolver.engine.prepared import Prepared, Standpoint
from resolver.faces.explanation.text import render_text, to_document
from resolver.language.model import Project
from resolver.verdicts import caps
from resolver.verdicts.explanation import explain, query_facts
from resolver.verdicts.resolution import resolve
from tests.properties.test_reduction import DAY, START, histories

ROOT = Path(__file__).resolve().parents[2]


def _explained(prepared: Prepared, point: Standpoint, ident: str, why_not, every: bool):
    query = query_facts(prepared, [ident], why_not, every_reason=every)
    resolution = resolve(prepared, point, query)
    tree = explain(prepared, resolution, ident, why_not)
    short = caps.concise(prepared, resolution, tree)
    document = json.dumps(to_document(tree, ident, point), sort_keys=True, default=str)
    return resolution, (render_text(tree), render_text(short), document)


#: Fixture histories with policy instances, ingested commits with `files`, tasks and claims.
FIXTURES = ("release", "late-news", "gap", "policies/api-docs", "policies/todo-debt")


@pytest.mark.parametrize("name", FIXTURES)
def test_every_explanation_of_a_fixture_is_the_same_either_way(name: str):
    prepared = api.prepare([str(ROOT / "fixtures" / name)])
    project = prepared.project
    instants = sorted({e.at for e in project.events})
    items = [x.id for x in project.expectations] + [t.id for t in project.tasks]
    items += sorted(project.derived)  # the policy instances
    assert items
    for point in (Standpoint(instants[len(instants) // 2], None), Standpoint(instants[-1], None)):
        listed = resolve(prepared, point, query_facts(prepared, [], every_reason=False))
        for ident in items:
            if listed.expectation(ident) is None and listed.task(ident) is None:
                continue  # an instance whose trigger is not visible yet does not exist here
            asked = None if project.task(ident) or ident in project.derived else "satisfied"
            for why_not in dict.fromkeys((None, asked)):
                _, whole = _explained(prepared, point, ident, why_not, every=True)
                _, cheap = _explained(prepared, point, ident, why_not, every=False)
                assert cheap == whole, (name, ident, why_not, point)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    histories(),
    st.integers(min_value=2, max_value=4),
    st.sampled_from([None, "satisfied", "open"]),
)
def test_explaining_one_item_needs_only_its_reasons(project: Project, block_size, why_not):
    prepared = Prepared(project, reduce=True, block_size=block_size)
    points = [Standpoint(START + 11 * DAY, None), Standpoint(START + 9 * DAY, START + 4 * DAY)]
    for point in points:
        key_only = resolve(prepared, point, query_facts(prepared, [], every_reason=False))
        for ident in ("x0", "x1", "x2", "t"):
            asked = None if ident == "t" else why_not
            every, whole = _explained(prepared, point, ident, asked, every=True)
            mine, cheap = _explained(prepared, point, ident, asked, every=False)
            assert cheap == whole
            for theirs, ours, keyed in zip(
                every.expectations, mine.expectations, key_only.expectations, strict=True
            ):
                # The explained item reads every reason; every other one what `status` reads.
                assert ours == (theirs if ours.id == ident else keyed)
