"""Tasks, authority over endings, preconditions and claims (SPEC §3), one rule at a time.

Each test names the rule of ``rules/prepare/roles.lp``, ``rules/standpoint/preconditions.lp`` or
``rules/standpoint/tasks.lp``
(or the bound flag ``awaiting``) it guards; removing that rule makes the test fail. Histories use
the preamble of ``tests/helpers.py``: channels ``sessions`` (mention) and ``commits`` (work),
actors ``alice`` (principal) and ``bot`` (agent).
"""

from __future__ import annotations

from tests.helpers import resolve_text, verdict

# A task opened on 1 July with two obligations that open with it, each satisfied by its own
# state: `a` by a1, `b` by b1.
TASK = """
task t {
  title "Ship the fix"
  opened 2024-07-01
  principal alice
  obligation a { title "Write the patch" want patch.done = true verify state }
  obligation b { title "Run the tests" want tests.status = "pass" verify state }
}
"""
A1 = "event a1 { channel commits at 2024-07-10 by dev set patch.done = true }\n"
B1 = 'event b1 { channel commits at 2024-07-12 by dev set tests.status = "pass" }\n'


def resolve(
    extra: str = "", at: str = "2024-09-01", known: str | None = None, base: str = TASK, **kwargs
):
    return resolve_text(base + extra, at=at, known=known, **kwargs)


def task_of(resolution, ident: str = "t"):
    found = resolution.task(ident)
    assert found is not None, f"no task {ident}"
    return found


def findings(resolution) -> set[tuple[str, str, str, tuple[str, ...]]]:
    return {(f.kind, f.event, f.target, f.outstanding) for f in resolution.findings}


# --- task status (tasks.lp) ------------------------------------------------------------------


def test_task_complete_when_every_obligation_is_satisfied():
    res = resolve(A1 + B1)
    assert (task_of(res).status, task_of(res).outstanding) == ("COMPLETE", ())


def test_task_incomplete_lists_its_open_obligations():
    res = resolve(A1)
    assert (task_of(res).status, task_of(res).outstanding) == ("INCOMPLETE", ("b",))


def test_task_incomplete_while_an_obligation_is_not_opened():
    base = TASK.replace("obligation b { title", "obligation b { opened 2024-08-01 title")
    res = resolve(A1, at="2024-07-20", base=base)
    assert verdict(res, "b").status == "NOT_OPENED"
    assert (task_of(res).status, task_of(res).outstanding) == ("INCOMPLETE", ("b",))


def test_task_unknown_when_nothing_is_open_but_something_is_unknown():
    b1 = B1.replace("by dev", "by dev outcome unknown")
    res = resolve(A1 + b1)
    assert verdict(res, "b").status == "UNKNOWN"
    assert (task_of(res).status, task_of(res).outstanding) == ("UNKNOWN", ("b",))


def test_open_beats_unknown_for_the_task():
    base = TASK.replace("}\n}", '}\n  obligation c { title "Deploy" want v = 2 verify state }\n}')
    b1 = B1.replace("by dev", "by dev outcome unknown")
    res = resolve(A1 + b1, base=base)
    assert task_of(res).status == "INCOMPLETE"
    assert task_of(res).outstanding == ("b", "c")


def test_task_counts_waived_cancelled_and_superseded_as_done():
    ends = (
        "event w { channel commits at 2024-07-10 by alice waives a }\n"
        "event c { channel commits at 2024-07-11 by alice cancels b }\n"
    )
    assert task_of(resolve(ends)).status == "COMPLETE"
    ends = "event s { channel commits at 2024-07-10 by alice supersedes a, b }\n"
    assert task_of(resolve(ends)).status == "COMPLETE"


def test_task_without_obligations_is_complete():
    res = resolve(base='task empty { title "Nothing owed" opened 2024-07-01 }\n')
    assert (task_of(res, "empty").status, task_of(res, "empty").outstanding) == ("COMPLETE", ())


def test_expectation_part_of_a_task_declared_elsewhere_counts():
    extra = "expectation c { opened 2024-07-01 part_of t want v = 2 verify state }\n"
    res = resolve(A1 + B1 + extra)
    assert (task_of(res).status, task_of(res).outstanding) == ("INCOMPLETE", ("c",))


# --- opening (opening.lp, as tasks use it) ----------------------------------------------------


def test_obligations_open_with_their_task():
    res = resolve(at="2024-06-30")
    assert verdict(res, "a").status == "NOT_OPENED"
    res = resolve(at="2024-07-01")
    assert verdict(res, "a").status == "OPEN"
    assert verdict(res, "a").opened_at == verdict(res, "b").opened_at


def test_obligation_with_its_own_opening_ignores_the_tasks():
    base = TASK.replace("obligation b { title", "obligation b { opened_by a1 title")
    res = resolve(at="2024-07-05", base=base)
    assert (verdict(res, "a").status, verdict(res, "b").status) == ("OPEN", "NOT_OPENED")
    res = resolve(A1, at="2024-07-11", base=base)
    assert verdict(res, "b").status == "OPEN"


def test_task_opened_by_an_event_is_known_from_its_record():
    base = TASK.replace("opened 2024-07-01", "opened_by ticket")
    ticket = (
        "event ticket { channel sessions at 2024-07-01 recorded 2024-07-03 "
        'text "export drops rows" }\n'
    )
    assert verdict(resolve(ticket, at="2024-07-02", base=base), "a").status == "NOT_OPENED"
    assert verdict(resolve(ticket, at="2024-07-03", base=base), "a").status == "OPEN"


def test_obligations_of_a_task_without_opening_are_not_opened():
    base = TASK.replace("opened 2024-07-01", "")
    res = resolve(A1 + B1, base=base)
    assert verdict(res, "a").status == "NOT_OPENED"
    assert task_of(res).status == "INCOMPLETE"


# --- channel roles (roles.lp) -----------------------------------------------------------------

ROLES = """
expectation x { opened 2024-07-01 want v = 1 verify state }
event e1 { channel CH at 2024-07-10 set v = 1 }
"""


def test_a_channel_declared_mention_never_closes():
    base = "channel chat mention\n" + ROLES.replace("CH", "chat")
    assert verdict(resolve(base=base, preamble=False), "x").status == "OPEN"
    base = "channel chat\n" + ROLES.replace("CH", "chat")
    assert verdict(resolve(base=base, preamble=False), "x").status == "SATISFIED"


def test_sessions_is_a_mention_channel_unless_declared_work():
    base = ROLES.replace("CH", "sessions")
    assert verdict(resolve(base=base, preamble=False), "x").status == "OPEN"
    base = "channel sessions work\n" + base
    assert verdict(resolve(base=base, preamble=False), "x").status == "SATISFIED"


# --- authority over endings (roles.lp, transitions.lp) ----------------------------------------


def test_agent_waiver_is_a_proposal_that_changes_nothing():
    res = resolve("event w { channel commits at 2024-07-10 by bot waives b }\n" + A1)
    v = verdict(res, "b")
    assert v.status == "OPEN"
    assert [(r.code, r.event, r.detail) for r in v.reasons if r.code == "proposal"] == [
        ("proposal", "w", "waives")
    ]
    assert task_of(res).status == "INCOMPLETE"


def test_principal_waiver_takes_effect():
    res = resolve("event w { channel commits at 2024-07-10 by alice waives b }\n" + A1)
    assert (verdict(res, "b").status, verdict(res, "b").closed_by) == ("WAIVED", "w")
    assert task_of(res).status == "COMPLETE"


def test_waiver_on_a_mention_channel_does_nothing():
    res = resolve("event w { channel sessions at 2024-07-10 by alice waives b }\n")
    assert verdict(res, "b").status == "OPEN"


def test_principal_reopens_a_satisfied_obligation():
    reopen = "event r { channel commits at 2024-07-20 by alice reopens a }\n"
    res = resolve(A1 + B1 + reopen)
    assert (verdict(res, "a").status, "reopened" in verdict(res, "a").flags) == ("OPEN", True)
    assert task_of(res).status == "INCOMPLETE"


def test_agent_reopening_is_a_proposal():
    reopen = "event r { channel commits at 2024-07-20 by bot reopens a }\n"
    res = resolve(A1 + B1 + reopen)
    assert verdict(res, "a").status == "SATISFIED"
    assert any(r.code == "proposal" and r.event == "r" for r in verdict(res, "a").reasons)
    assert task_of(res).status == "COMPLETE"


def test_principal_of_the_task_replaces_the_declared_principals():
    base = TASK.replace("principal alice", "principal carol")
    by_alice = "event w { channel commits at 2024-07-10 by alice waives b }\n"
    by_carol = "event w { channel commits at 2024-07-10 by carol waives b }\n"
    assert verdict(resolve(by_alice, base=base), "b").status == "OPEN"
    assert verdict(resolve(by_carol, base=base), "b").status == "WAIVED"


def test_principal_named_by_the_obligation_replaces_the_tasks():
    base = TASK.replace("obligation b { title", "obligation b { principal dana title")
    by_alice = "event w { channel commits at 2024-07-10 by alice waives a, b }\n"
    by_dana = "event w { channel commits at 2024-07-10 by dana waives a, b }\n"
    res = resolve(by_alice, base=base)
    assert (verdict(res, "a").status, verdict(res, "b").status) == ("WAIVED", "OPEN")
    res = resolve(by_dana, base=base)
    assert (verdict(res, "a").status, verdict(res, "b").status) == ("OPEN", "WAIVED")


def test_declared_principals_rule_when_neither_task_nor_obligation_names_one():
    base = TASK.replace("principal alice", "")
    by_dev = "event w { channel commits at 2024-07-10 by dev waives b }\n"
    by_alice = "event w { channel commits at 2024-07-10 by alice waives b }\n"
    assert verdict(resolve(by_dev, base=base), "b").status == "OPEN"
    assert verdict(resolve(by_alice, base=base), "b").status == "WAIVED"


def test_without_any_principal_every_non_agent_has_authority():
    base = "channel commits work\nactor bot agent\n" + TASK.replace("principal alice", "")
    by_dev = "event w { channel commits at 2024-07-10 by dev waives b }\n"
    by_bot = "event w { channel commits at 2024-07-10 by bot waives b }\n"
    assert verdict(resolve(by_dev, base=base, preamble=False), "b").status == "WAIVED"
    assert verdict(resolve(by_bot, base=base, preamble=False), "b").status == "OPEN"


def test_an_agent_named_principal_still_has_no_authority():
    base = TASK.replace("principal alice", "principal bot")
    res = resolve("event w { channel commits at 2024-07-10 by bot waives b }\n", base=base)
    assert verdict(res, "b").status == "OPEN"


def test_principal_named_by_a_non_task_is_not_inherited():
    # part_of naming an expectation (a mistake lint reports) lends it no principals.
    base = (
        "expectation host { opened 2024-07-01 principal carol }\n"
        "expectation x { opened 2024-07-01 part_of host }\n"
    )
    res = resolve("event w { channel commits at 2024-07-10 by alice waives x }\n", base=base)
    assert verdict(res, "x").status == "WAIVED"


# --- markers naming a task (roles.lp: names/3 and spreads/1) ----------------------------------


def test_marker_on_a_task_spreads_to_every_obligation():
    res = resolve("event w { channel commits at 2024-07-10 by alice waives t }\n")
    assert (verdict(res, "a").status, verdict(res, "b").status) == ("WAIVED", "WAIVED")
    assert task_of(res).status == "COMPLETE"


def test_agent_marker_on_a_task_is_a_proposal_for_each_obligation():
    res = resolve("event w { channel commits at 2024-07-10 by bot cancels t }\n")
    for ident in ("a", "b"):
        v = verdict(res, ident)
        assert v.status == "OPEN"
        assert any(r.code == "proposal" and r.detail == "cancels" for r in v.reasons)


def test_completes_on_a_task_does_not_spread():
    res = resolve("event d { channel commits at 2024-07-10 by alice completes t }\n")
    assert (verdict(res, "a").status, verdict(res, "b").status) == ("OPEN", "OPEN")
    assert task_of(res).status == "INCOMPLETE"


def test_reopens_on_a_task_spreads():
    reopen = "event r { channel commits at 2024-07-20 by alice reopens t }\n"
    res = resolve(A1 + B1 + reopen)
    assert (verdict(res, "a").status, verdict(res, "b").status) == ("OPEN", "OPEN")


# --- preconditions (preconditions.lp) ---------------------------------------------------------

PRE = """
expectation y { opened 2024-07-01 want approved = true verify state }
expectation x { opened 2024-07-01 want deployed = true verify state requires y }
"""
Y1 = "event y1 { channel commits at 2024-07-10 by alice set approved = true }\n"
X1 = "event x1 { channel commits at 2024-07-12 by dev set deployed = true }\n"


def flags(extra: str, at: str = "2024-09-01", base: str = PRE, ident: str = "x", **kwargs):
    return verdict(resolve(extra, at=at, base=base, **kwargs), ident).flags


def test_blocked_while_the_precondition_is_open():
    assert "blocked" in flags("")
    assert "blocked" not in flags(Y1)


def test_blocked_while_the_precondition_is_unknown():
    assert "blocked" in flags(Y1.replace("by alice", "by alice outcome unknown"))


def test_blocked_while_the_precondition_is_not_opened():
    base = PRE.replace("y { opened 2024-07-01", "y { opened 2024-08-01")
    assert "blocked" in flags("", at="2024-07-20", base=base)


def test_blocked_only_while_not_closed():
    assert "blocked" not in flags(X1)


def test_blocked_while_a_required_task_is_not_complete():
    base = TASK + "expectation x { opened 2024-07-01 want deployed = true requires t }\n"
    assert "blocked" in flags(A1, base=base)
    assert "blocked" not in flags(A1 + B1, base=base)


def test_a_tasks_preconditions_bind_its_obligations():
    base = PRE + TASK.replace("principal alice", "principal alice requires y")
    assert "blocked" in flags("", base=base, ident="a")
    assert "blocked" not in flags(Y1, base=base, ident="a")


def test_precondition_unmet_when_satisfied_before_the_precondition_closed():
    early = X1.replace("2024-07-12", "2024-07-05")
    assert "precondition_unmet" in flags(Y1 + early)


def test_precondition_unmet_while_the_precondition_never_closed():
    assert "precondition_unmet" in flags(X1)


def test_no_precondition_unmet_when_satisfied_after():
    assert "precondition_unmet" not in flags(Y1 + X1)


def test_precondition_closed_at_the_same_instant_counts_as_met():
    same = X1.replace("2024-07-12", "2024-07-10")
    assert "precondition_unmet" not in flags(Y1 + same)


def test_precondition_unmet_only_for_satisfied():
    waived = "event w { channel commits at 2024-07-05 by alice waives x }\n"
    assert "precondition_unmet" not in flags(Y1 + waived)


def test_precondition_unmet_reads_a_required_task_at_the_close():
    base = TASK + "expectation x { opened 2024-07-01 want deployed = true requires t }\n"
    between = "event x1 { channel commits at 2024-07-11 by dev set deployed = true }\n"
    assert "precondition_unmet" in flags(A1 + B1 + between, base=base)
    late = between.replace("2024-07-11", "2024-07-13")
    assert "precondition_unmet" not in flags(A1 + B1 + late, base=base)


def test_precondition_unmet_reads_the_known_of_the_standpoint():
    # Approval happened first but was recorded late: once known, the order is fine.
    late_y1 = Y1.replace("by alice", "recorded 2024-07-20 by alice")
    assert "precondition_unmet" in flags(late_y1 + X1, at="2024-07-15")
    assert "precondition_unmet" not in flags(late_y1 + X1, at="2024-07-15", known="latest")


# --- claims (tasks.lp) ------------------------------------------------------------------------


def claim(kind: str, at: str, target: str = "t", ident: str = "c", recorded: str = "") -> str:
    rec = f" recorded {recorded}" if recorded else ""
    return f"event {ident} {{ channel sessions at {at}{rec} by bot {kind} {target} }}\n"


def test_claim_before_completion_is_a_false_completion_with_what_was_outstanding():
    res = resolve(A1 + B1 + claim("claims_complete", "2024-07-11"))
    assert findings(res) == {("FALSE_COMPLETION", "c", "t", ("b",))}
    assert task_of(res).status == "COMPLETE"  # judged at the claim, not at T
    assert [f.by for f in task_of(res).findings] == ["bot"]


def test_claim_after_completion_is_no_finding():
    assert findings(resolve(A1 + B1 + claim("claims_complete", "2024-07-13"))) == set()


def test_pending_report_after_completion_is_a_false_pending():
    res = resolve(A1 + B1 + claim("reports_pending", "2024-07-13"))
    assert findings(res) == {("FALSE_PENDING", "c", "t", ())}


def test_pending_report_before_completion_is_no_finding():
    assert findings(resolve(A1 + B1 + claim("reports_pending", "2024-07-11"))) == set()


def test_claim_at_the_completing_instant_sees_the_completion():
    assert findings(resolve(A1 + B1 + claim("claims_complete", "2024-07-12"))) == set()


def test_claim_about_an_empty_task():
    base = "task empty { opened 2024-07-01 }\n"
    res = resolve(claim("reports_pending", "2024-07-02", "empty"), base=base)
    assert findings(res) == {("FALSE_PENDING", "c", "empty", ())}
    assert findings(resolve(claim("claims_complete", "2024-07-02", "empty"), base=base)) == set()


def test_claim_about_an_obligation():
    res = resolve(A1 + claim("claims_complete", "2024-07-11", "b"))
    assert findings(res) == {("FALSE_COMPLETION", "c", "b", ("b",))}
    assert [f.event for f in task_of(res).findings] == ["c"]
    res = resolve(A1 + claim("reports_pending", "2024-07-11", "a"))
    assert findings(res) == {("FALSE_PENDING", "c", "a", ())}


def test_claim_about_a_waived_obligation_counts_it_complete():
    waived = "event w { channel commits at 2024-07-10 by alice waives b }\n"
    assert findings(resolve(A1 + waived + claim("claims_complete", "2024-07-11"))) == set()


def test_claim_while_an_obligation_is_unknown_is_a_false_completion():
    b1 = B1.replace("by dev", "by dev outcome unknown")
    res = resolve(A1 + b1 + claim("claims_complete", "2024-07-13"))
    assert findings(res) == {("FALSE_COMPLETION", "c", "t", ("b",))}


def test_claim_before_the_task_opened():
    res = resolve(claim("claims_complete", "2024-06-20"))
    assert findings(res) == {("FALSE_COMPLETION", "c", "t", ("a", "b"))}


def test_claim_judged_with_the_standpoints_known():
    # b1 happened before the claim but was recorded after it: a claim judged with what was known
    # at the time is false; once the record is known it was true.
    b1 = B1.replace("by dev", "recorded 2024-07-20 by dev")
    source = A1 + b1 + claim("claims_complete", "2024-07-13")
    assert findings(resolve(source, at="2024-07-15")) == {("FALSE_COMPLETION", "c", "t", ("b",))}
    assert findings(resolve(source, at="2024-07-15", known="latest")) == set()
    assert findings(resolve(source, at="2024-07-25")) == set()


def test_claim_judged_at_its_own_at_not_at_t():
    # a1 is later reopened: the task is incomplete at T, but the claim was true when made.
    reopen = "event r { channel commits at 2024-07-20 by alice reopens a }\n"
    res = resolve(A1 + B1 + reopen + claim("claims_complete", "2024-07-13"))
    assert task_of(res).status == "INCOMPLETE"
    assert findings(res) == set()


def test_claim_invisible_at_the_standpoint_is_not_judged():
    source = A1 + claim("claims_complete", "2024-07-11", recorded="2024-08-01")
    assert findings(resolve(source, at="2024-07-20")) == set()
    assert {f[0] for f in findings(resolve(source, at="2024-08-02"))} == {"FALSE_COMPLETION"}


def test_one_event_claiming_two_targets_is_judged_per_target():
    base = TASK + "task u { opened 2024-07-01 obligation z { want z = 1 verify state } }\n"
    res = resolve(A1 + B1 + claim("claims_complete", "2024-07-13", "t, u"), base=base)
    assert findings(res) == {("FALSE_COMPLETION", "c", "u", ("z",))}


def test_claim_about_an_undeclared_id_is_not_judged():
    assert findings(resolve(claim("reports_pending", "2024-07-13", "ghost"))) == set()


# --- awaiting (bounds.lp) ---------------------------------------------------------------------

WINDOW = 'expectation w { title "Customer confirms" opened 2024-07-01 window 7d want ok = true }\n'


def test_awaiting_inside_the_window():
    assert "awaiting" in flags("", at="2024-07-08", base=WINDOW, ident="w")


def test_not_awaiting_after_the_window():
    assert "awaiting" not in flags("", at="2024-07-08T00:00:01", base=WINDOW, ident="w")


def test_not_awaiting_once_satisfied():
    ok = "event ok { channel commits at 2024-07-03 by carol set ok = true }\n"
    assert "awaiting" not in flags(ok, at="2024-07-05", base=WINDOW, ident="w")


def test_obligation_window_runs_from_its_own_opening():
    base = TASK.replace("obligation b { title", "obligation b { opened_by a1 window 2d title")
    assert "awaiting" in flags(A1, at="2024-07-12", base=base, ident="b")
    assert "awaiting" not in flags(A1, at="2024-07-13", base=base, ident="b")
