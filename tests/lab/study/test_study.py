"""The accuracy study on two real histories (Lark's and click's), against ground truth from git.

Each history is a git bundle named by an environment variable (``OPENLOOP_STUDY_BUNDLE`` for
Lark, ``OPENLOOP_STUDY_CLICK_BUNDLE`` for click; ``.ci/run`` sets both when the bundles lie near
the checkout); without one its study is skipped. The study clones the bundle, runs the real
``openloop init`` and ``openloop ingest git --todos``, and judges every TODO instance and every
issue expectation at standpoints along the first-parent line (see ``docs/design/accuracy.md``).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from lab.study.claims import OPTIONS, precision
from lab.study.labels import LABELS
from lab.study.report import TARGETS, render
from lab.study.run import claimed_sample, run_study

pytestmark = pytest.mark.slow

_BUNDLES = {"lark": "OPENLOOP_STUDY_BUNDLE", "click": "OPENLOOP_STUDY_CLICK_BUNDLE"}

#: `claimed_unverified` at HEAD, as labelled by hand (``docs/design/accuracy.md``): items flagged,
#: and how many of them the candidate their line names first is a claim about. The target is 90%;
#: on Lark it is missed, and no reading of a content word or a claim within SPEC §3's link rule
#: reaches it (the readings measured there). A change to the linker that moves these figures
#: must label the candidates again and say what changed.
CLAIMED = {"lark": (24, 5), "click": (1, 1)}
CLAIM_TARGET = 0.9
CLAIM_TARGET_MISSED = {"lark"}


@pytest.fixture(scope="module", params=sorted(_BUNDLES))
def study(request):
    bundle = os.environ.get(_BUNDLES[request.param], "")
    if not bundle or not Path(bundle).is_file():
        pytest.skip(f"{_BUNDLES[request.param]} names no git bundle")
    return run_study(bundle)


def test_every_family_and_standpoint_is_judged(study):
    names = {p.name for p in study.standpoints}
    assert {"a third", "two thirds", "HEAD", "50%"} <= names
    if importlib.util.find_spec("resolver.cli.init") is not None:
        assert study.declarations_from == "openloop init"  # the starter's policy and issues
    assert study.todo_openings >= 4 and study.issues >= 19
    for family in ("todo", "issue"):
        assert {p.standpoint for p in study.family(family)} >= {"two thirds", "HEAD"}
    # the truth's own walk agrees with `git grep` at every standpoint
    assert study.tree_problems == []


def test_targets_hold(study):
    report = render(study)
    for family, target in TARGETS.items():
        assert study.accuracy(family) >= target, report
    assert study.unknowns() == [], report


def test_no_false_close_by_a_merge_or_a_revert(study):
    assert study.false_closes() == []


def test_every_candidate_the_flag_names_is_labelled_by_hand(study):
    _, sample = claimed_sample(study)
    missing = [
        (row.item, row.candidate)
        for row in study.claims.rows
        if row.item in sample and (row.item, row.candidate) not in LABELS
    ]
    assert missing == [], "label these in lab/study/labels.py:\n" + render(study)


def test_claimed_unverified_precision_as_labelled(study):
    flagged, labelled, claims = precision(study.claims, LABELS, OPTIONS["as now"])
    assert labelled == flagged
    assert (flagged, claims) == CLAIMED[study.name], render(study)
    met = claims >= CLAIM_TARGET * labelled
    assert met is (study.name not in CLAIM_TARGET_MISSED)
