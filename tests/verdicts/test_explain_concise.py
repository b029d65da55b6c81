"""``explain``: the decisive argument and the three nearest rejected candidates with a count of
the rest by default; ``--full`` lists every candidate (SPEC §4)."""

from __future__ import annotations

import json

import pytest

from tests.caps_histories import AT, busy, openloop, write


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return write(tmp_path_factory.mktemp("busy"), busy(12))


def _explain(folder, *extra: str) -> str:
    done = openloop("explain", "backups", str(folder), *AT, *extra)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _candidates(document: dict) -> dict:
    (section,) = [c for c in document["tree"]["children"] if c["kind"] == "candidates"]
    return section


def test_concise_lists_the_three_nearest_and_counts_the_rest(history) -> None:
    text = _explain(history)
    listed = [n for n in range(1, 13) if f"- c{n:03d} (" in text]
    assert listed == [10, 11, 12]  # the latest rejected candidates, nearest to closing it
    assert "... and 9 more rejected candidates (openloop explain backups --full" in text
    assert "candidates: 12 visible events touch it" in text
    assert "verdict: OPEN" in text


def test_full_lists_every_candidate(history) -> None:
    text = _explain(history, "--full")
    assert all(f"- c{n:03d} (" in text for n in range(1, 13))
    assert "more rejected candidate" not in text
    assert len(text.splitlines()) > len(_explain(history).splitlines()) + 9 * 2


def test_json_marks_the_nearest_and_the_count(history) -> None:
    section = _candidates(json.loads(_explain(history, "--format", "json")))
    ranks = {n["event"]: n["data"]["nearest"] for n in section["children"] if n["event"]}
    assert ranks == {"c012": 1, "c011": 2, "c010": 3}
    assert section["children"][-1]["kind"] == "omitted"
    assert section["children"][-1]["data"]["count"] == section["data"]["omitted"] == 9
    full = _candidates(json.loads(_explain(history, "--format", "json", "--full")))
    assert len(full["children"]) == 12 and "omitted" not in full["data"]


def test_the_closing_candidate_is_always_kept(tmp_path) -> None:
    text = _explain(write(tmp_path, busy(8, satisfied=True)))
    assert "- done (" in text and "closed it as SATISFIED at tier state" in text
    assert [n for n in range(1, 9) if f"- c{n:03d} (" in text] == [6, 7, 8]
    assert "... and 5 more rejected candidates" in text


def test_a_short_explanation_is_unchanged(tmp_path) -> None:
    folder = write(tmp_path, busy(3))
    assert _explain(folder) == _explain(folder, "--full")


def test_claimed_unverified_names_a_few_and_counts_the_rest(tmp_path) -> None:
    claims = "\n".join(
        f'event k{n} {{ channel commits at 2024-01-03T00:0{n} by bob text "backups done" }}'
        for n in range(1, 7)
    )
    folder = write(tmp_path, busy(2) + claims)
    concise, full = _explain(folder), _explain(folder, "--full")
    (line,) = [ln for ln in concise.splitlines() if "- claimed_unverified:" in ln]
    assert line.count("(tier textual)") == 3 and line.endswith(", and 3 more")
    (line,) = [ln for ln in full.splitlines() if "- claimed_unverified:" in ln]
    assert line.count("(tier textual)") == 6
