"""One sentence per step of an explanation tree: the words of each kind of node.

The tree (``resolver/verdicts/explanation/tree.py``) says what each step is about and holds the
values its sentence is made of; this module only turns them into words, through the shared
phrasing of ``words.py`` (openings, markers, links, bounds, ``--why-not``) and
``words.py`` (reason atoms). :data:`PHRASES` maps a node's kind (or its ``say["as"]``) to the
function that phrases it.
"""

from __future__ import annotations

from collections.abc import Callable

from resolver import times
from resolver.faces.explanation.words import (
    agent_claim_text,
    authority_text,
    bound_text,
    event_label,
    link_text,
    opening_text,
    sets_text,
    show_time,
    standpoint_text,
    why_not_text,
)
from resolver.faces.words import describe, show_value
from resolver.language.model import Expectation, Project
from resolver.verdicts.explanation.view import Node
from resolver.verdicts.resolution import Reason
from resolver.vocabulary import CONFIDENCE, LATER_CLOSES, TIERS, per_word

Phrase = Callable[[Node, Project], str]

#: Why one close beat another at the same instant: the order the rules rank closes in
#: (``tier_rank``, then ``close_rank``), spelled from the vocabulary.
_STRONGER = f"a stronger transition (tier order {', '.join(TIERS)}, then {', '.join(LATER_CLOSES)})"


def verb(reason: Reason) -> str:
    """``rejected [no_done_cue]: `` and the like: the rule's own name, for cross-checking."""
    if reason.code == "candidate_rejected":
        return f"rejected [{reason.detail}]: "
    if reason.code == "proposal":
        return "proposal only: "
    if reason.code == "below_verify":
        return "below verify: "
    return f"{reason.code.replace('_', ' ')}: "


def about(reason: Reason, project: Project, x: Expectation) -> str:
    """The wording of a reason without its leading event id (the line already names it)."""
    text = describe(reason, project, x)
    if reason.event:
        for lead in (f"{reason.event}: ", f"{reason.event} "):
            if text.startswith(lead):
                return text[len(lead) :]
    return text


def reasons_text(reasons: list[Reason], project: Project, x: Expectation) -> str:
    """What each reason about one candidate says, ``; ``-joined."""
    return "; ".join(verb(r) + about(r, project, x) for r in reasons)


# --- an expectation ---------------------------------------------------------------------------


def _expectation(node: Node, project: Project) -> str:
    x, verdict = node.say["x"], node.say["verdict"]
    headline = f"{x.id}" + (f' "{x.title}"' if x.title else "") + f" is {verdict.status}"
    if verdict.confidence:
        headline += f" ({verdict.confidence.lower()})"
    return headline


def _standpoint(node: Node, project: Project) -> str:
    return standpoint_text(node.say["point"])


def _opening(node: Node, project: Project) -> str:
    say = node.say
    return opening_text(project, say["x"], say["source"], say["hidden"], say["missing"])


def _want(node: Node, project: Project) -> str:
    x, verify = node.say["x"], node.say["verdict"].verify or ""
    parts = []
    if x.want is not None:
        parts.append(f"wants {x.want.key} = {show_value(x.want.value, literal=True)}")
    elif x.want_touches is not None:
        parts.append(f'wants a work event whose files match "{x.want_touches}"')
    else:
        parts.append("wants no particular state (no `want`): only markers and text can satisfy it")
    parts.append(
        f"accepts tier {verify} or stronger"
        + ("" if x.verify else f" (the default `verify {verify}`)")
    )
    if x.superseded_when is not None:
        parts.append(
            f"superseded when {x.superseded_when.key} = "
            + show_value(x.superseded_when.value, literal=True)
        )
    return "; ".join(parts)


def _candidates(node: Node, project: Project) -> str:
    count = node.say["count"]
    if count:
        return f"candidates: {count} visible event{'s' if count != 1 else ''} touch it"
    if node.say["status"] == "NOT_OPENED":
        return "candidates: none examined while it is not opened"
    return "candidates: no visible event touches it"


def _candidate(node: Node, project: Project) -> str:
    event, x = node.say["event"], node.say["x"]
    words = []
    for code, what in node.say["steps"]:
        if code == "closed":
            status, tier = what
            words.append(
                f"closed it as {status.upper()}" + (f" at tier {tier}" if tier != "none" else "")
            )
        elif code == "reopened":
            how = "an effective reopens" if what == "marker" else "a contradicting state"
            words.append(f"reopened it ({how})")
        elif code == "examined":
            words.append(f"{event.id} touches it")
        else:
            words.append(verb(what) + about(what, project, x))
    return f"{event_label(event)}: " + "; ".join(words)


def _evidence(node: Node, project: Project) -> str:
    return sets_text(node.say["event"], node.say["x"]) or ""


def _authority(node: Node, project: Project) -> str:
    say = node.say
    kind, basis = node.data["marker"], node.code or ""
    return authority_text(say["event"], say["x"], kind, basis, say["principals"])


def _agent_claim(node: Node, project: Project) -> str:
    return agent_claim_text(node.say["event"], node.code or "")


def _link(node: Node, project: Project) -> str:
    return link_text(node.say["kinds"], node.say["overlaps"]) or ""


def _unrecorded(node: Node, project: Project) -> str:
    event = node.say["event"]
    return (
        f"{event_label(event)}: has happened but is recorded "
        f"{times.format_time(event.recorded)}, after the knowledge time: not visible here"
    )


def _closing(node: Node, project: Project) -> str:
    verdict = node.say["verdict"]
    if verdict.closed_by:
        final = f"it stands closed by {verdict.closed_by}"
        if verdict.tier:
            final += f" (tier {verdict.tier})"
        final += f" since {show_time(verdict.closed_at)}"
    elif node.say["steps"]:
        final = "no closing transition stands: it is open again"
    else:
        final = "no closing transition: nothing visible closed it"
    return f"closing: {final}"


def _transition(node: Node, project: Project) -> str:
    say = node.say
    what = f"{node.event} closed it as {say['status'].upper()}"
    if say["tier"] is not None:
        what += f" (tier {say['tier']})"
    return f"{show_time(say['at'])}: {what}"


def _tie(node: Node, project: Project) -> str:
    say = node.say
    why = _STRONGER if say["how"] == "stronger" else "the same rank, and the lower event id wins"
    return f"{say['winner']} beat {say['loser']} at the same instant: {why}"


def _reopening(node: Node, project: Project) -> str:
    why = (
        "an effective reopens marker"
        if node.code == "marker"
        else "it sets the wanted key to another value before the bound"
    )
    return f"{show_time(node.say['at'])}: {node.event} reopened it: {why}"


def _footprint(node: Node, project: Project) -> str:
    say = node.say
    return (
        f"footprint: {say['state']}, {say['searched']}/{say['channels']} search channels searched"
    )


def _channel(node: Node, project: Project) -> str:
    name, fp = node.say["channel"], node.say["footprint"]
    if not fp.searched:
        return f"{name}: not searched (no visible event)"
    return (
        f"{name}: searched through {show_time(fp.through)}, {fp.candidates} "
        f"candidate{'s' if fp.candidates != 1 else ''}"
    )


def _gap(node: Node, project: Project) -> str:
    if node.code == "omitted":  # past 8 gaps: how many are not listed
        say = node.say
        first, last = say["span"]
        return (
            f"{say['omitted']:,} more of the {say['total']:,} gaps in seq {first}..{last} are "
            f"not listed here ({say['after']:,} of them after those listed)"
        )
    lo, hi = node.say["gap"]
    span = f"seq {lo}" if lo == hi else f"seq {lo}..{hi}"
    if node.say["relevant"]:
        return f"missing {span}: after the opening, the closure could hide there"
    return f"missing {span}: before the opening, irrelevant"


def _bound(node: Node, project: Project) -> str:
    say = node.say
    return bound_text(project, say["x"], say["bound"], say["sources"], say["pending"])


def _preconditions(node: Node, project: Project) -> str:
    return f"preconditions: {node.say['count']}"


def _precondition(node: Node, project: Project) -> str:
    say = node.say
    via = f" (through its task {say['via']})" if say["via"] is not None else ""
    return f"requires {say['id']}{via}: {say['state']}"


def _flags(node: Node, project: Project) -> str:
    return "flags: " + ", ".join(node.say["flags"])


def _flag(node: Node, project: Project) -> str:
    return f"{node.code}: {_flag_cause(node)}"


def _flag_cause(node: Node) -> str:
    say, flag = node.say, node.code
    x, verdict = say["x"], say["verdict"]
    bound = show_time(verdict.bound)
    if flag == "deadline_passed":
        return f"the standpoint {show_time(say['at'])} is past the bound {bound}"
    if flag == "late":
        return f"closed at {show_time(verdict.closed_at)}, after the bound {bound}"
    if flag == "awaiting":
        window = times.format_duration(x.window or 0)
        return f"within the window of {window} after the opening {show_time(verdict.opened_at)}"
    if flag == "blocked":
        parts = [f"requires {y}, which is {s.upper()}" for y, s in say["blocked_by"]]
        return "; ".join(sorted(parts)) or "a precondition is not settled"
    if flag == "precondition_unmet":
        parts = [
            f"{z} was not closed" + ("" if same else f" (an obligation of {y})")
            for y, z, same in say["unmet_by"]
        ]
        return (
            f"satisfied at {show_time(verdict.closed_at)} while " + "; ".join(sorted(parts))
            if parts
            else "satisfied before its precondition closed"
        )
    if flag == "reopened":
        return "reopened by " + ", ".join(say["reopened_by"])
    if flag == "claimed_unverified":
        below = sorted(f"{event} (tier {tier})" for event, tier in say["below"])
        return f"below `verify {verdict.verify}`: " + ", ".join(below)
    return flag or ""


def _reason(node: Node, project: Project) -> str:
    """A snapshot line or a doubt: the reason atom's own sentence."""
    return describe(node.say["reason"], project, node.say["x"])


#: What a verdict without a closing event means, by the confidence class the rules derived for
#: it (rules/standpoint/absence.lp): words only, keyed by the atom, never inferred from another.
_OPEN_MEANING = per_word(
    CONFIDENCE,
    {
        "UNKNOWN": "no closing transition, but the evidence is not conclusive",
        "INCOMPLETE_SEARCH": "no closing transition, but a search channel was never searched",
        "CORROBORATED_OPEN": (
            "no closing transition stands, every search channel was searched and no relevant "
            "gap was found"
        ),
    },
)


def _verdict(node: Node, project: Project) -> str:
    """The verdict's sentence: the status, closing event and confidence class the rules
    derived, each printed as derived, with the words that say what they mean."""
    verdict = node.say["verdict"]
    status, confidence = verdict.status, verdict.confidence
    if verdict.closed_by:
        text = f"{status}: closed by {verdict.closed_by}"
    elif confidence in _OPEN_MEANING:
        head = status if confidence == status else f"{status}, {confidence}"
        text = f"{head}: {_OPEN_MEANING[confidence]}"
    elif status == "NOT_OPENED":
        text = "NOT_OPENED: its opening is not visible at this standpoint"
    else:
        text = status
    return f"verdict: {text}"


def _why_not(node: Node, project: Project) -> str:
    return f"why not {node.say['status'].upper()}?"


def _missing(node: Node, project: Project) -> str:
    say = node.say
    return why_not_text(
        project,
        say["x"],
        say["verdict"],
        say["status"],
        node.code or "",
        node.event,
        say["principals"],
    )


def _nearest(node: Node, project: Project) -> str:
    x, event = node.say["x"], node.say["candidate"]
    what = reasons_text(node.say["reasons"], project, x)
    text = f"nearest candidate: {node.event}: {what or 'it took no effect'}"
    if event is not None and x.want is not None:
        watched = [a for a in event.sets if a.key == x.want.key]
        text += (
            f" (sets {x.want.key} = {show_value(watched[0].value, literal=True)})"
            if watched
            else " (sets nothing)"
            if not event.sets
            else " (sets no key it watches)"
        )
    return text


PHRASES: dict[str, Phrase] = {
    "expectation": _expectation,
    "standpoint": _standpoint,
    "opening": _opening,
    "want": _want,
    "candidates": _candidates,
    "candidate": _candidate,
    "evidence": _evidence,
    "authority": _authority,
    "agent_claim": _agent_claim,
    "link": _link,
    "outcome": lambda node, project: f"outcome {node.code}",
    "unrecorded": _unrecorded,
    "closing": _closing,
    "transition": _transition,
    "tie": _tie,
    "reopening": _reopening,
    "footprint": _footprint,
    "channel": _channel,
    "gap": _gap,
    "bound": _bound,
    "preconditions": _preconditions,
    "precondition": _precondition,
    "flags": _flags,
    "flag": _flag,
    "snapshot_section": lambda node, project: "snapshot",
    "snapshot": _reason,
    "doubt": _reason,
    "verdict": _verdict,
    "why_not": _why_not,
    "missing": _missing,
    "nearest": _nearest,
}
