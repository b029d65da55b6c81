"""The derivation-cost row: measured on generated histories; only its shape is checked."""

from __future__ import annotations

from lab.evaluation import cost


def test_cost_row_reports_a_positive_per_query_time() -> None:
    row = cost.row(sizes=(200, 400), queries=2)
    assert row.agrees is None  # a timing is measured and reported, never "reproduced"
    assert isinstance(row.value, float) and row.value > 0
    # One convention with `python -m lab bench`: CPU seconds, key reasons, stated beside the figure.
    assert "ms CPU per query" in row.measured and "key reasons" in row.measured
    assert row.study == "about 22 ms, linear"
    assert any("python -m lab bench" in note and "22 ms" in note for note in row.notes)
    assert len(row.notes) == 4
