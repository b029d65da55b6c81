"""Regressions: bugs a user hit, each pinned by the smallest history that showed it."""

from __future__ import annotations

from resolver import api
from resolver.faces.explanation.text import line, render_text
from resolver.verdicts import receipt
from resolver.verdicts.explanation import explain_at, key_reason_of
from tests.helpers import prepare_text

INHERITED = """
actor carol principal
task t {
  title "Rotate the tokens"
  opened 2024-07-01
  principal alice
  obligation t/rotate {
    title "Rotate the deploy token"
    want token.rotated = true
  }
}
"""


def test_why_not_cancelled_names_the_principals_inherited_from_the_task() -> None:
    # The obligation names no principal: it inherits alice from its task (SPEC §3 Roles). The
    # explanation once re-derived authority from the obligation's own clause and said "someone
    # with authority", while the rules and the receipt say alice.
    history = prepare_text(INHERITED)
    point = api.standpoint("2024-08-01")
    text = render_text(explain_at(history, point, "t/rotate", "cancelled"))
    assert "no effective `cancels` by alice on a work channel" in text
    assert "someone with authority" not in text
    assert "carol" not in text.split("why not")[-1]


def test_why_not_cancelled_without_any_principal_says_anyone_not_an_agent() -> None:
    history = prepare_text(
        'expectation x { title "Ship it" opened 2024-07-01 }',
        preamble=False,
    )
    text = render_text(explain_at(history, api.standpoint("2024-08-01"), "x", "cancelled"))
    assert "no effective `cancels` by someone with authority" in text


def test_receipt_and_explain_agree_on_the_inherited_principal() -> None:
    history = prepare_text(INHERITED)
    built = receipt.build(history, api.status(history, at="2024-08-01"), "t")
    assert built.principals == ("alice",)


class _CountingEvents(tuple):
    """A tuple that counts how often it is walked."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_project_lookups_do_not_scan_the_log_per_call() -> None:
    # `status --format json` of a 100k-event history once spent 84 s in Project.event: a linear
    # scan per reason, quadratic overall. A lookup must use an index built once.
    from resolver.language.model import Project

    history = prepare_text(
        'expectation x { title "Ship" opened 2024-07-01 }\n'
        + "".join(
            f'event e{i} {{ channel commits seq {i} at 2024-07-02 text "note {i}" }}\n'
            for i in range(1, 51)
        )
    )
    events = _CountingEvents(history.project.events)
    project = Project(events=events, expectations=history.project.expectations)
    for i in range(1, 51):
        assert project.event(f"e{i}").id == f"e{i}"
    assert project.event("missing") is None
    assert _CountingEvents.walks <= 1


def test_check_grounds_a_small_multiple_of_status(tmp_path) -> None:
    # On a generated history, `openloop check` (a gate that explains what it reports) once
    # grounded the explanation rules over atoms the solver had not decided yet: 15x the ground
    # program of `status` at 5k events, 7 GB and 100 s at 20k, quadratic. Measured here without
    # a clock, as ground rules.
    from lab.bench.generate import generate
    from resolver.api import gate_facts

    history = generate(tmp_path, events=3000, expectations=40)
    prepared = api.prepare(history.paths)
    point = api.standpoint("2023-12-31")
    status = prepared.solve(point)  # with reasons, as `status` prints them
    gate = prepared.solve(point, gate_facts(prepared, None, None))
    assert gate.get("gate_result")
    assert gate.ground_rules <= 3 * status.ground_rules


def test_check_on_the_release_fixture_reports_the_owed_backups(release, monkeypatch) -> None:
    from resolver.api import gate_facts
    from resolver.verdicts.resolution import resolve

    point = api.standpoint("2024-08-23")
    resolution = resolve(release, point, gate_facts(release, None, "release-024"))
    outstanding = {release.facts.item_id(x) for (x,) in resolution.atoms.get("gate_outstanding")}
    assert outstanding == {"intent-401"}
    # The gate's items get their key reasons in the same answer: no solve per item.
    codes = {str(code) for _, code, _ in resolution.atoms.get("key_reason")}
    assert codes == {"nearest"}

    def no_more_solves(*_args, **_kwargs):
        raise AssertionError("a key reason of a gate's item solved again")

    monkeypatch.setattr(type(release), "solve", no_more_solves)
    assert "nearest candidate commit-115" in line(key_reason_of(release, resolution, "intent-401"))
