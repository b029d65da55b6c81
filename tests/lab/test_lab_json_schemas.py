"""The lab's JSON outputs carry schema_version 1 and a kind, and validate against
``lab/schemas/KIND.json`` (the product's schemas, in ``schemas/``, are checked by
``tests/agents/test_agents_json_schemas.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema

from lab.__main__ import main
from lab.bench import harness, ledger_bench, policy_bench
from tests import schema_check

SCHEMAS = Path(__file__).resolve().parents[2] / "lab" / "schemas"


def validate(document: dict) -> str:
    """Validate one document against its kind's schema; returns the kind."""
    return schema_check.validate(document, SCHEMAS)


def _json(capsys, args: list[str]) -> Iterator[dict]:
    code = main(args)
    assert code == 0, (args, code, capsys.readouterr().err)
    out = capsys.readouterr().out
    if args[0] == "bench":
        yield from (json.loads(line) for line in out.splitlines() if line.strip())
    else:
        yield json.loads(out)


def test_the_eval_and_bench_json_outputs_validate(capsys):
    (evaluation,) = _json(capsys, ["eval", "commitments", "--format", "json", "--quiet"])
    assert validate(evaluation) == "eval"
    quick = ["--events", "200", "--runs", "1", "--standpoints", "1", "--warm-queries", "3"]
    lines = list(_json(capsys, ["bench", *quick, "--json"]))
    kinds = [validate(line) for line in lines]
    assert kinds and kinds[0] == "bench" and set(kinds) <= {"bench", "ingest"}, kinds


def test_the_bench_rows_of_larger_sizes_validate(tmp_path):
    """The policies and ledger rows appear from 10k events: measured here on a small log (the
    policies row) and from small rows (the ledger's ratios), as `bench --json` prints them."""
    result = policy_bench.measure(400, tmp_path / "policies", 0, harness._child_env())
    assert "error" not in result, result
    assert validate({"schema_version": 1, **result}) == "policies"
    rows = [
        {"events": 10_000, "expectations": 200, "open": 87, "list_ms": 2.3},
        {"events": 100_000, "expectations": 200, "open": 74, "list_ms": 2.7},
        {"events": 10_000, "expectations": 1000, "open": 426, "list_ms": 8.2},
    ]
    ledger = {"schema_version": 1, "kind": "ledger", "rows": rows, **ledger_bench._ratios(rows)}
    assert validate(ledger) == "ledger"


def test_every_schema_of_the_lab_is_a_valid_schema_and_names_its_kind():
    paths = sorted(SCHEMAS.glob("*.json"))
    assert {p.stem for p in paths} == {"bench", "eval", "ingest", "ledger", "policies"}
    for path in paths:
        schema = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["properties"]["kind"] == {"const": path.stem}
        assert schema["properties"]["schema_version"] == {"const": 1}
        assert {"schema_version", "kind"} <= set(schema["required"])
