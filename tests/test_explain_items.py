"""Explaining a few items on a key-reasons standpoint gives exactly the explanation that a
standpoint with every item's every reason gives (``whole_reasons/1``, key_reasons.lp; the
per-item inputs of ``resolver/facts/item_inputs.py``), on random small histories."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.engine.prepared import Prepared, Standpoint
from resolver.faces.explanation_text import render_text, to_document
from resolver.language.model import Project
from resolver.verdicts import caps
from resolver.verdicts.explanation import explain, query_facts
from resolver.verdicts.resolution import resolve
from tests.test_reduction import DAY, START, histories


def _explained(prepared: Prepared, point: Standpoint, ident: str, why_not, every: bool):
    query = query_facts(prepared, [ident], why_not, every_reason=every)
    resolution = resolve(prepared, point, query)
    tree = explain(prepared, resolution, ident, why_not)
    short = caps.concise(prepared, resolution, tree)
    document = json.dumps(to_document(tree, ident, point), sort_keys=True, default=str)
    return resolution, (render_text(tree), render_text(short), document)


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
