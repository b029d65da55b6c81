"""The accuracy study on a real history (the Lark parser's), against ground truth from git.

The history is a git bundle named by ``OPENLOOP_STUDY_BUNDLE``; without it the study is skipped.
The study clones it, runs the real ``openloop ingest git --todos``, declares the TODO-debt policy
and one expectation per referenced issue with default clauses, and judges at three standpoints
(see ``docs/accuracy.md``). The ground truth tests below check the truth side on its own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from resolver.bench.study import run_study
from resolver.bench.study_report import render

pytestmark = pytest.mark.slow

_BUNDLE = os.environ.get("OPENLOOP_STUDY_BUNDLE", "")


@pytest.fixture(scope="module")
def study():
    if not _BUNDLE or not Path(_BUNDLE).is_file():
        pytest.skip("OPENLOOP_STUDY_BUNDLE names no git bundle")
    return run_study(_BUNDLE)


def test_every_family_and_standpoint_is_judged(study):
    assert [p.name for p in study.standpoints] == ["a third", "two thirds", "HEAD"]
    assert study.todo_additions > 50 and study.issues > 50
    for family in ("todo", "issue"):
        assert {p.standpoint for p in study.family(family)} == {"a third", "two thirds", "HEAD"}
    # the importer and the truth name the same TODO comments: none is missing on either side
    assert not [p for p in study.pairs if "absent" in (p.truth, p.verdict) and not p.right]


def test_targets_hold(study):
    report = render(study)
    assert study.accuracy("todo") >= 0.98, report
    assert study.accuracy("issue") >= 0.95, report


def test_no_false_close_by_a_merge_commit(study):
    assert study.merge_false_closes() == []
