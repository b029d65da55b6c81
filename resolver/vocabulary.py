"""The spec's words for Python: statuses, tiers, flags, classes, markers, outcomes and verdicts.

Every word list the package uses is named here once, so that adding a word (a closing tier, a
status) is one edit here and one in the rules. The lists that ``rules/vocabulary.lp`` names are
the same atoms there, and ``tests/rules/test_vocabulary.py`` solves that file and checks each
tuple here against them (and the few lists another rule file names, such as the outcomes and
the audit's verdicts, against that file's text); ``tests/test_vocabulary_single_source.py``
fails when a module spells one of these lists out again. Python uses the words to validate what
users type (``--why-not STATUS``, test assertions), to order output and to choose words and
colours; it never decides a verdict with them. Words are lower case as the rules name them;
output upper-cases statuses and classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

#: Expectation statuses (SPEC §3), in the order output lists them.
STATUSES = ("open", "satisfied", "cancelled", "superseded", "waived", "not_opened", "unknown")
#: Statuses in which an expectation is closed.
CLOSED_STATUSES = ("satisfied", "cancelled", "superseded", "waived")
#: While a precondition is in one of these, what requires it is ``blocked``.
UNSETTLED_STATUSES = ("open", "unknown", "not_opened")
#: Outstanding for a task and for the gate.
PENDING_STATUSES = ("open", "not_opened")
#: Verdicts a snapshot speaks to (still owed, as far as the log shows).
OPEN_LIKE_STATUSES = ("open", "unknown")
#: Task statuses; the first is the one that is done.
TASK_STATUSES = ("complete", "incomplete", "unknown")
#: The task status that is done: every other one is outstanding.
TASK_DONE = TASK_STATUSES[0]
#: Task statuses that are still outstanding (an UNKNOWN task is, as an UNKNOWN expectation is).
TASK_OUTSTANDING = TASK_STATUSES[1:]

#: Closing tiers, strongest first (rank 1..4 in the rules).
TIERS = ("state", "explicit", "semantic", "textual")
#: The tier ``verify`` names when an expectation says nothing.
DEFAULT_VERIFY = "semantic"
#: Closes that rank after every satisfied tier at one instant, in rank order (``close_rank``
#: 5..7): of two closes at the same instant, the lower rank wins.
LATER_CLOSES = ("superseded", "cancelled", "waived")
#: Closed statuses in the order their closes rank at one instant: satisfied first (ranked by
#: its tier), then the later closes.
CLOSE_ORDER = ("satisfied", *LATER_CLOSES)

#: Flags (SPEC §3).
FLAGS = (
    "deadline_passed",
    "late",
    "awaiting",
    "blocked",
    "precondition_unmet",
    "reopened",
    "claimed_unverified",
)
#: Confidence classes of an open (or unknown) verdict.
CONFIDENCE = ("corroborated_open", "incomplete_search", "unknown")

#: Marker clauses an event may carry, in the order the spec lists them.
MARKERS = (
    "completes",
    "cancels",
    "supersedes",
    "waives",
    "reopens",
    "claims_complete",
    "reports_pending",
)
#: Markers that need authority to take effect.
ENDING_MARKERS = ("cancels", "supersedes", "waives", "reopens")
#: Markers that spread from a task to its obligations.
SPREADING_MARKERS = ("cancels", "supersedes", "waives", "reopens")
#: The status each ending marker closes with (``reopens`` opens again).
MARKER_STATUSES = {
    "cancels": "cancelled",
    "supersedes": "superseded",
    "waives": "waived",
    "reopens": "open",
}
#: Ending markers that close an expectation (with a closed status), in marker order.
CLOSING_MARKERS = tuple(m for m, status in MARKER_STATUSES.items() if status in CLOSED_STATUSES)
#: The finding a false claim makes, per claim marker.
CLAIM_FINDINGS = {"claims_complete": "false_completion", "reports_pending": "false_pending"}
#: The claim markers, and the finding kinds, in the same order.
CLAIM_MARKERS = tuple(CLAIM_FINDINGS)
FINDINGS = tuple(CLAIM_FINDINGS.values())

#: Rejections that speak against satisfaction (the nearest ``satisfied`` candidate is sought
#: among candidates rejected with one of them).
SAT_REJECTIONS = (
    "wrong_value",
    "value_not_named",
    "merge_text",
    "restatement",
    "no_done_cue",
    "no_link",
    "claim_only",
    "failed_outcome",
)
#: Rejections that make a reason of their own code, never a ``candidate_rejected`` one.
NARRATIVE_REJECTIONS = ("proposal", "below_verify", "unconfirmed_effect")

#: Event outcomes; the first, ``confirmed``, is the default (the rules read the others:
#: ``outcome(E, unknown)``, ``outcome(E, failed)``).
OUTCOMES = ("confirmed", "unknown", "failed")
#: Channel roles (``work(C)``, ``mention(C)`` in the rules).
CHANNEL_ROLES = ("mention", "work")

#: What ``openloop audit`` says of a past close (``audit_verdict`` in ``rules/query/audit.lp``),
#: in the order its summary counts them.
AUDIT_VERDICTS = ("complete_when_closed", "landed_later", "never_supported", "unknown")
#: Audit verdicts of a close the record did not support then.
UNSUPPORTED_VERDICTS = ("landed_later", "never_supported")
#: What the audit finds an item to be, at a close or now (``audit_state``,
#: ``audit_now_state``): the task statuses' words.
AUDIT_STATES = TASK_STATUSES

_Value = TypeVar("_Value")


def per_word(words: tuple[str, ...], table: Mapping[str, _Value]) -> dict[str, _Value]:
    """``table`` (a value for each of ``words``: a colour, a sentence, a rank) in the order of
    ``words``, checked to name each word once and nothing else.

    A face that has something to say per status or per class writes it as such a table: when
    a word is added here, the table fails at import instead of leaving the new word without
    a colour or a sentence. Keys may be upper case, as output prints statuses and classes.
    """
    by_lower = {key.lower(): key for key in table}
    if len(by_lower) != len(table) or set(by_lower) != set(words):
        missing = sorted(set(words) - set(by_lower))
        extra = sorted(set(by_lower) - set(words))
        raise ValueError(f"a per-word table must name each word once: {missing=} {extra=}")
    return {by_lower[word]: table[by_lower[word]] for word in words}


def upper(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words as output prints statuses and classes (``NOT_OPENED``)."""
    return tuple(word.upper() for word in words)
