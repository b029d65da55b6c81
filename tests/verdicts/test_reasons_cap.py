"""``status --format json``: the key reasons, at most eight, with ``reasons_omitted``; and
``--reasons all`` (SPEC §4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import api
from resolver.faces import json_format, markdown, table
from resolver.verdicts import caps
from tests.caps_histories import busy, openloop, status_json, write
from tests.helpers import prepare_text


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """12 rejected commits and 10 proposals: more key reasons than the cap."""
    return write(tmp_path_factory.mktemp("crowded"), busy(12, proposals=10))


def _one(data: dict) -> dict:
    (verdict,) = data["expectations"]
    return verdict


def test_the_cap_of_eight_counts_the_rest(crowded) -> None:
    shown = _one(status_json(crowded))
    every = _one(status_json(crowded, "--reasons", "all"))
    assert shown["status"] == every["status"] == "OPEN"
    assert len(shown["reasons"]) == caps.REASON_CAP == 8
    assert shown["reasons_omitted"] == len(every["reasons"]) - 8 == 23 - 8
    codes = [r["code"] for r in shown["reasons"]]
    # The opening and the nearest rejected candidate come before the many proposals.
    assert "opened" in codes and codes.count("proposal") == 6
    (nearest,) = [r for r in shown["reasons"] if r["code"] == "candidate_rejected"]
    assert nearest["event"] == "c012"
    assert shown["reasons"] == sorted(shown["reasons"], key=lambda r: (r["code"], r["event"]))


def test_reasons_all_lists_every_candidate(crowded) -> None:
    every = _one(status_json(crowded, "--reasons", "all"))
    assert every["reasons_omitted"] == 0
    rejected = {r["event"] for r in every["reasons"] if r["code"] == "candidate_rejected"}
    assert rejected == {f"c{n:03d}" for n in range(1, 13)}
    assert {r["event"] for r in every["reasons"] if r["code"] == "proposal"} == {
        f"p{n:03d}" for n in range(1, 11)
    }


def test_an_open_verdict_shows_its_opening_and_nearest_rejected_candidate(tmp_path) -> None:
    verdict = _one(status_json(write(tmp_path, busy(12))))
    assert [(r["code"], r["event"]) for r in verdict["reasons"]] == [
        ("candidate_rejected", "c012"),
        ("opened", "s1"),
    ]
    assert verdict["reasons_omitted"] == 11


def test_a_closed_verdict_drops_the_rejections_before_its_close(tmp_path) -> None:
    verdict = _one(status_json(write(tmp_path, busy(5, satisfied=True))))
    assert verdict["status"] == "SATISFIED" and verdict["closed_by"] == "done"
    assert [r["code"] for r in verdict["reasons"]] == ["opened"]
    assert verdict["reasons_omitted"] == 5


def test_the_cap_is_presentation_only(crowded) -> None:
    """The typed verdict keeps every reason; the key ones are a subset read from the rules."""
    prepared = prepare_text(busy(12, proposals=10), preamble=False)
    from resolver import api

    verdict = api.status(prepared, at="2024-02-01").expectation("backups")
    assert len(verdict.reasons) == 23 and set(verdict.key_reasons) <= set(verdict.reasons)
    assert len(verdict.key_reasons) == 12  # opening, nearest, 10 proposals
    shown, omitted = caps.reasons_shown(verdict, "all")
    assert shown == verdict.reasons and omitted == 0


def test_a_bad_reasons_choice_is_a_usage_error(crowded) -> None:
    done = openloop("status", str(crowded), "--reasons", "some")
    assert done.returncode == 2 and "--reasons" in done.stderr and not done.stdout


def test_capped_outputs_validate_against_their_schemas(crowded) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    import json
    from pathlib import Path

    schemas = Path(__file__).resolve().parents[2] / "schemas"
    status_schema = json.loads((schemas / "status.json").read_text(encoding="utf-8"))
    jsonschema.validate(status_json(crowded), status_schema)
    done = openloop("explain", "backups", str(crowded), "--at", "2024-02-01", "--format", "json")
    explain_schema = json.loads((schemas / "explain.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(done.stdout), explain_schema)


@pytest.mark.parametrize(
    "history", ["release", "gap", "footprint", "policies", "support-mission/base"]
)
def test_the_key_reasons_solve_prints_what_the_every_reason_solve_prints(history) -> None:
    """`status` asks the rules for the key reasons and a count (key_reasons_only): the JSON,
    the table and the Markdown are those of a solve that shows every reason."""
    root = Path(__file__).resolve().parents[2] / "fixtures" / history
    prepared = api.prepare([root])
    every = api.status(prepared, at="2030-01-01", every_reason=True)
    key = api.status(prepared, at="2030-01-01", every_reason=False)
    assert all(v.reasons_in_all is None for v in every.expectations)
    assert any(v.reasons_in_all for v in key.expectations)
    for face in (
        lambda r: json_format.render(r, prepared.project, "key"),
        table.render,
        markdown.render,
    ):
        assert face(key) == face(every)
    for a, b in zip(key.expectations, every.expectations, strict=True):
        assert a.reason_total == b.reason_total
        assert a.reasons == b.key_reasons
