"""Words for reason atoms: one sentence per rule that spoke, for people reading a verdict.

The rules decide; this module only phrases their atoms, filling in ids, values and times from
the model so the sentence can be checked against the files.
"""

from __future__ import annotations

from resolver.faces.safe_text import visible
from resolver.language.model import Expectation, Project, Value
from resolver.times import format_time
from resolver.verdicts.resolution import Reason


def show_value(value: Value, literal: bool = False) -> str:
    """A value as the user wrote it: bare in a sentence, or as a literal of the language.

    ``literal`` quotes a string as it is written in an ``.ol`` file (``"on"``), for the
    explanation, which quotes the declarations; without it the string is shown bare, control
    characters made visible, for tables and reasons.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if literal:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return visible(value)


def _sets(project: Project, event_id: str | None, key: str) -> str | None:
    event = project.event(event_id) if event_id else None
    if event is None:
        return None
    for assignment in event.sets:
        if assignment.key == key:
            return show_value(assignment.value)
    return None


_REJECTIONS = {
    "mention_channel": "{e} is on a mention channel: mentions never close",
    "before_opening": "{e} happened before the opening: closings must follow openings",
    "failed_outcome": "{e} has outcome failed: no evidence",
    "claim_only": "{e} only claims completion: a claim is not evidence",
    "agent_claim": "{e} is an agent's own record: a claim, it supersedes nothing",
    "no_link": "{e} touches it but reaches no closing tier",
    "no_done_cue": "{e} shares words with it but makes no done-style claim and sets nothing wanted",
    "value_not_named": "{e} links strongly by its text but does not name the wanted value",
    "merge_text": "{e} is a merge: its text repeats the work it merges and never links strongly",
    "restatement": "{e} only restates the opening text: it links weakly at most",
    "already_closed": "{e} would close it, but it was already closed",
    "lost_tie": "{e} would close it at the same instant, but a stronger or lower-id close won",
    "while_open": "{e} would reopen it, but it was open",
    "after_bound": "{e} contradicts the satisfied state, but after the bound had passed",
    "not_satisfied": "{e} contradicts the wanted state, but it was not closed as satisfied",
}


def describe(reason: Reason, project: Project, expectation: Expectation) -> str:
    """One sentence saying what the reason atom means for this expectation."""
    e = reason.event or "-"
    detail = reason.detail
    code = reason.code
    want = expectation.want
    if code == "opened":
        event = project.event(e) if reason.event else None
        if event is not None:
            happened, known = format_time(event.at), format_time(event.recorded)
            return f"opened by {e} at {happened}, known from {known}"
        return "opened by an oracle label (opened TIME)"
    if code == "candidate_rejected":
        if detail == "wrong_value" and want is not None:
            got = _sets(project, reason.event, want.key)
            return (
                f"{e} sets {want.key} = {got}, not {show_value(want.value)}: satisfies at no tier"
            )
        if detail == "other_state" and expectation.superseded_when is not None:
            key = expectation.superseded_when.key
            return (
                f"{e} sets {key} = {_sets(project, reason.event, key)}, not the superseding state"
            )
        template = _REJECTIONS.get(detail, "{e} was rejected (" + detail + ")")
        return template.format(e=e)
    if code == "proposal":
        event = project.event(e) if reason.event else None
        who = event.by if event and event.by else "an unnamed actor"
        return f"{e}: `{detail}` by {who} has no authority over it: a proposal, no effect"
    if code == "below_verify":
        wanted = reason.verify
        return f"{e} reaches only tier {detail}, below `verify {wanted}`: claimed, unverified"
    if code == "unconfirmed_effect":
        return f"{e} would satisfy it at tier {detail}, but its outcome is unknown"
    if code == "gap" and reason.gap:
        lo, hi = reason.gap
        span = f"seq {lo}" if lo == hi else f"seq {lo}..{hi}"
        return f"{reason.channel} is missing {span} after the opening: the closure could hide there"
    if code == "unsearched":
        return f"search channel {reason.channel} has no visible event: never searched"
    if code == "reopened":
        how = "an effective reopens" if detail == "marker" else "a contradicting state"
        return f"{e} reopened it ({how})"
    if code == "snapshot":
        return _snapshot(reason, expectation)
    return f"{code}: {detail}"


def _snapshot(reason: Reason, expectation: Expectation) -> str:
    """What the snapshot showed and which way it points (it never changes the status)."""
    want, superseding = expectation.want, expectation.superseded_when
    if reason.detail == "suggests_done" and want is not None:
        return f"snapshot shows {want.key} = {show_value(want.value)}: possibly completed silently"
    if reason.detail == "suggests_superseded" and superseding is not None:
        return (
            f"snapshot shows {superseding.key} = {show_value(superseding.value)}: "
            f"possibly superseded silently"
        )
    if reason.detail == "agrees_open" and want is not None:
        seen = "another value" if reason.value is None else show_value(reason.value)
        return (
            f"snapshot shows {want.key} = {seen}, not {show_value(want.value)}: "
            f"corroborates the open verdict"
        )
    return f"snapshot: {reason.detail}"
