"""Every JSON output carries schema_version 1 and a kind, and validates against schemas/KIND.json.

Each command that prints JSON is run on the bundled fixtures (every history folder), and each
document is validated with jsonschema against the schema its ``kind`` names. The lab's outputs
(``python -m lab bench|eval``) have their schemas in ``lab/schemas/``
(``tests/lab/test_lab_json_schemas.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from resolver import api
from resolver.cli.main import main
from tests import schema_check

SCHEMAS = Path("schemas")
FIXTURES = Path("fixtures")


def _histories() -> list[Path]:
    """Every folder that holds a history of its own (an .ol file directly inside)."""
    return sorted({p.parent for p in FIXTURES.rglob("*.ol")})


def validate(document: dict) -> str:
    """Validate one document against its kind's schema; returns the kind."""
    return schema_check.validate(document, SCHEMAS)


def _json(capsys, args: list[str], codes=(0,)) -> Iterator[dict]:
    code = main(args)
    assert code in codes, (args, code, capsys.readouterr().err)
    yield json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("history", _histories(), ids=str)
def test_every_json_output_of_a_history_validates(capsys, history: Path):
    folder = str(history)
    project = api.prepare([history]).project
    kinds = []
    runs = [
        ["status", folder, "--known", "latest", "--format", "json"],
        ["status", folder, "--at", "2000-01-01", "--format", "json"],
        ["check", folder, "--known", "latest", "--format", "json"],
        ["ready", folder, "--known", "latest", "--format", "json"],
        ["graph", folder, "--known", "latest", "--format", "json"],
    ]
    items = [x.id for x in project.expectations[:2]] + [t.id for t in project.tasks[:1]]
    runs += [["explain", ident, folder, "--known", "latest", "--format", "json"] for ident in items]
    runs += [
        ["receipt", t.id, folder, "--known", "latest", "--format", "json"]
        for t in project.tasks[:1]
    ]
    for args in runs:
        for document in _json(capsys, args, codes=(0, 1, 3)):
            kinds.append(validate(document))
    expected = {"status", "check", "ready", "graph"} | ({"explain"} if items else set())
    assert expected <= set(kinds)


def test_the_ledger_json_outputs_validate(capsys, tmp_path: Path):
    db = str(tmp_path / "ledger.db")
    release = str(FIXTURES / "release")
    kinds = []
    for args in (
        ["ledger", "refresh", release, "--db", db, "--at", "2024-08-23", "--format", "json"],
        ["ledger", "rebuild", release, "--db", db, "--at", "2024-08-28", "--format", "json"],
        ["ledger", "list", "--db", db, "--format", "json"],
        ["ledger", "history", "intent-401", "--db", db, "--format", "json"],
    ):
        for document in _json(capsys, args):
            kinds.append(validate(document))
    assert kinds == ["ledger_refresh", "ledger_rebuild", "ledger_list", "ledger_history"]


def test_the_bench_json_output_validates(capsys):
    args = ["bench", str(FIXTURES / "release"), "--at", "2024-08-28", "--standpoints", "2"]
    (document,) = _json(capsys, [*args, "--json"])
    assert validate(document) == "bench_history"


def test_every_schema_file_is_a_valid_schema_and_names_its_kind():
    for path in sorted(SCHEMAS.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        if path.name == "sarif-2.1.0.json":
            jsonschema.Draft4Validator.check_schema(schema)
            continue
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["properties"]["kind"] == {"const": path.stem}
        assert schema["properties"]["schema_version"] == {"const": 1}
        assert {"schema_version", "kind"} <= set(schema["required"])


def test_a_document_of_the_wrong_shape_is_refused():
    with pytest.raises(AssertionError):
        validate({"schema_version": 1, "kind": "status", "standpoint": {"at": "yesterday"}})
