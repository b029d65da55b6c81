"""The commitment-graph simulation: deterministic, censoring apart, and each judge's profile."""

from __future__ import annotations

import pytest

from lab.evaluation import commitments, commitments_world
from lab.evaluation.intervals import Rate, wilson

FAMILIES = tuple(commitments_world.FAMILIES)


@pytest.fixture(scope="module")
def experiment() -> commitments.Experiment:
    return commitments.run(per_family=40, seed=3)


def test_wilson_interval_known_values() -> None:
    low, high = wilson(4, 5)
    assert round(low, 4) == 0.3755 and round(high, 4) == 0.9638
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) is None
    assert Rate(0, 0).text() == "- (0/0)"


def test_generation_is_deterministic() -> None:
    one = commitments_world.generate(15, seed=9)
    two = commitments_world.generate(15, seed=9)
    assert [x.events for x in one] == [x.events for x in two]
    assert [x.events for x in one] != [x.events for x in commitments_world.generate(15, seed=10)]


def test_every_failure_mode_is_planted() -> None:
    modes = {(x.family, x.mode) for x in commitments_world.generate(60, seed=0)}
    for family, planted in commitments_world.MODES.items():
        assert {(family, m) for m in (*planted, "clean")} <= modes


def test_the_commitment_graph_never_accepts_a_false_completion(experiment) -> None:
    for family in (*FAMILIES, "all"):
        cell = experiment.cell("openloop", family)
        assert cell.false_completion.total > 0
        assert cell.false_completion.hits == 0


def test_trace_and_checklist_accept_false_completions(experiment) -> None:
    trace = experiment.cell("trace").false_completion
    checklist = experiment.cell("checklist").false_completion
    assert trace.hits > checklist.hits > 0


def test_each_ablation_costs_what_it_removes(experiment) -> None:
    full = experiment.cell("openloop")
    assert experiment.cell("no_evidence_links").false_completion.hits > 0
    assert experiment.cell("no_effect_receipts").false_completion.hits > 0
    # research tasks take no actions, so effect receipts cannot matter there
    assert experiment.cell("no_effect_receipts", "research").false_completion.hits == 0
    assert experiment.cell("no_dependency_typing").false_pending.hits > full.false_pending.hits
    # unconfirmable effects make the full graph cautious: some false pending, reported
    assert full.false_pending.hits > 0


def test_censored_runs_are_reported_apart(experiment) -> None:
    held = experiment.censored["all"]["runs"]
    counted = sum(
        experiment.cell("trace", f).false_completion.total
        + experiment.cell("trace", f).false_pending.total
        for f in FAMILIES
    )
    assert counted + held == experiment.instances
    assert held == sum(experiment.censored[f]["runs"] for f in FAMILIES)
    assert experiment.censored["code"]["runs"] == 0  # no delayed evidence in code tasks


def test_json_says_it_is_a_simulation(experiment) -> None:
    data = experiment.as_dict()
    assert "simulation of the judging step" in data["disclaimer"]
    assert "not a study of language-model agents" in data["disclaimer"]
    assert {r["judge"] for r in data["rates"]} == set(commitments.JUDGES)


def test_the_rules_report_every_false_claim_at_its_own_time(experiment) -> None:
    claims = experiment.claims
    assert claims["false_completion_claims"] > 0
    assert claims["flagged_false_completion"] == claims["false_completion_claims"]
    # a false "pending" escapes only where the effect it waits on was never confirmed
    missed = claims["false_pending_reports"] - claims["flagged_false_pending"]
    assert 0 <= missed <= claims["false_pending_unconfirmed"]
    # a true claim is flagged only where an effect stayed unconfirmed
    unconfirmed = experiment.modes["code"].get("unconfirmable", 0) + experiment.modes[
        "support"
    ].get("unconfirmable", 0)
    assert claims["true_claims_flagged"] <= unconfirmed


def test_decision_rule_is_applied_with_the_fixed_margin(experiment) -> None:
    decision = experiment.decision()
    assert decision["margin"] == commitments.MARGIN
    graph = experiment.cell("openloop").false_completion.value
    checklist = experiment.cell("checklist").false_completion.value
    assert decision["reduction"] == round(checklist - graph, 4)
    assert decision["met"] is (decision["reduction"] >= 0.10 and decision["p_exact"] < 0.05)
