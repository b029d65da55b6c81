"""Validating a JSON output against the schema its ``kind`` names (``FOLDER/KIND.json``): the
product's schemas (``schemas/``) and the lab's (``lab/schemas/``) are checked the same way."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema


@cache
def _validator(folder: Path, kind: str) -> jsonschema.Draft202012Validator:
    path = folder / f"{kind}.json"
    assert path.is_file(), f"no schema for kind {kind!r}"
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate(document: dict, folder: Path) -> str:
    """Validate one document against its kind's schema in ``folder``; returns the kind."""
    assert document.get("schema_version") == 1, document.keys()
    kind = document.get("kind")
    assert isinstance(kind, str), document.keys()
    errors = sorted(_validator(folder, kind).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, f"{kind}: " + "; ".join(
        f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5]
    )
    return kind
