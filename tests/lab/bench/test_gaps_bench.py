"""The lab bench's sequence-gaps history (``python -m lab bench --gaps``): a history whose seq
steps by 2 and its gap-free twin, which differ in nothing else and get the same verdicts."""

from __future__ import annotations

import json

from lab.bench import gaps_bench
from resolver import api


def test_the_gaps_benchmark_history_and_its_twin_differ_only_in_seq(tmp_path):
    gaps = gaps_bench.write(tmp_path / "gaps", 100, 5, 2)
    twin = gaps_bench.write(tmp_path / "twin", 100, 5, 1)
    assert (gaps / "history.ol").read_bytes() == (twin / "history.ol").read_bytes()
    for one, other in zip(
        (gaps / "events.jsonl").read_text().splitlines(),
        (twin / "events.jsonl").read_text().splitlines(),
        strict=True,
    ):
        a, b = json.loads(one), json.loads(other)
        assert a.pop("seq") == 2 * b.pop("seq") - 1 and a == b
    verdicts = {
        name: {v.id: v.status for v in api.status(api.prepare([f]), at="2030-01-01").expectations}
        for name, f in (("gaps", gaps), ("twin", twin))
    }
    assert verdicts["gaps"] == verdicts["twin"] == {f"x{i}": "SATISFIED" for i in range(5)}
