"""The spec's words for Python: statuses, tiers, flags, confidence classes and markers.

The same words as ``rules/vocabulary.lp``, which the rules read; ``tests/rules/test_vocabulary.py``
solves that file and checks that every tuple here holds exactly its atoms, in the order given
here. Python uses these to validate what users type (``--why-not STATUS``, test assertions),
to order output and to choose words and colours; it never decides a verdict with them.
Words are lower case as the rules name them; output upper-cases statuses and classes.
"""

from __future__ import annotations

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
#: Task statuses.
TASK_STATUSES = ("complete", "incomplete", "unknown")

#: Closing tiers, strongest first (rank 1..4 in the rules).
TIERS = ("state", "explicit", "semantic", "textual")
#: The tier ``verify`` names when an expectation says nothing.
DEFAULT_VERIFY = "semantic"

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
#: The finding a false claim makes, per claim marker.
CLAIM_FINDINGS = {"claims_complete": "false_completion", "reports_pending": "false_pending"}
