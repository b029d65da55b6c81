"""``check --format sarif``: SARIF 2.1.0 for code scanning (SPEC §8).

One result per item the gate reports (an outstanding or UNKNOWN expectation, at its declaration
line) and per finding in scope (a false completion or false pending, at the claim's line), one
rule per reason code, each with the stable fingerprint of its item. What is reported, its level
and its reason code are atoms of the rules, gathered as :class:`CiItem` by
``resolver/verdicts/ci_items.py``; this module writes them as a SARIF log.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from resolver import __version__
from resolver.verdicts.ci_items import CiItem

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

#: One line for each rule (reason code) a result can carry.
RULES = {
    "not_opened": "An obligation in scope has not opened: its opening event is not visible",
    "no_candidate": "An obligation is open and no event touches it",
    "nearest": "An obligation is open; its nearest candidate was rejected",
    "reopened": "An obligation was closed, then reopened",
    "gap": "An obligation is UNKNOWN: a sequence gap could hide its closure",
    "unconfirmed_effect": "An obligation is UNKNOWN: an effect that would close it is unconfirmed",
    "false_completion": "A claim of completion while obligations were still outstanding",
    "false_pending": "A report of pending work that was already complete",
    "closed_with_todo": "An issue was closed while a TODO comment naming it stays in the code",
}


def artifact_uri(file: str) -> str:
    """A file name as SARIF wants it: relative to the working directory where possible."""
    path = Path(file)
    if path.is_absolute():
        try:
            path = path.relative_to(Path.cwd())
        except ValueError:
            return path.as_uri()
    return path.as_posix() if os.sep == "/" else str(path).replace(os.sep, "/")


def _result(item: CiItem, rule_index: dict[str, int]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": item.code,
        "ruleIndex": rule_index[item.code],
        "level": item.level,
        "message": {"text": item.message},
        "partialFingerprints": {"openloopItem/v1": item.fingerprint},
        "properties": {"kind": item.kind, "id": item.ident},
    }
    if item.location is not None:
        region: dict[str, int] = {"startLine": max(item.location.line, 1)}
        if item.location.column:
            region["startColumn"] = item.location.column
        result["locations"] = [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": artifact_uri(item.location.file)},
                    "region": region,
                }
            }
        ]
    return result


def to_dict(items: list[CiItem], result: str) -> dict[str, Any]:
    """The SARIF 2.1.0 log of one ``check`` run."""
    used = sorted({item.code for item in items})
    rule_index = {code: index for index, code in enumerate(used)}
    levels = {item.code: item.level for item in items}  # the level the rules gave (ci.lp)
    rules = [
        {
            "id": code,
            "name": "".join(part.capitalize() for part in code.split("_")),
            "shortDescription": {"text": RULES.get(code, code)},
            "defaultConfiguration": {"level": levels[code]},
        }
        for code in used
    ]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "openloop",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "invocations": [
                    {"executionSuccessful": True, "properties": {"gateResult": result.upper()}}
                ],
                "results": [_result(item, rule_index) for item in items],
            }
        ],
    }


def render(items: list[CiItem], result: str) -> str:
    """The SARIF log as JSON text."""
    return json.dumps(to_dict(items, result), indent=2, ensure_ascii=False) + "\n"
