"""Hypothesis properties of the core: order, invisibility and text never change verdicts."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import api

DECLARATIONS = """
channel sessions mention
channel commits work
actor alice principal
actor bot agent
expectation x { title "Move backups to PostgreSQL" opened_by s1
                want backup.backend = "PostgreSQL" before rel }
expectation y { title "Rotate the signing key" opened 2024-07-01
                deadline 2024-08-15 verify textual }
"""

BASE_EVENTS = [
    {
        "id": "s1",
        "channel": "sessions",
        "at": "2024-07-17T09:00:00Z",
        "text": "backups still on sqlite",
    },
    {
        "id": "c1",
        "channel": "commits",
        "seq": 1,
        "at": "2024-07-20T00:00:00Z",
        "text": "backup cleanup",
    },
    {
        "id": "c2",
        "channel": "commits",
        "seq": 2,
        "at": "2024-07-25T00:00:00Z",
        "set": {"backup.backend": "MySQL"},
    },
    {
        "id": "c3",
        "channel": "commits",
        "seq": 3,
        "at": "2024-08-01T00:00:00Z",
        "recorded": "2024-08-09T00:00:00Z",
        "set": {"backup.backend": "PostgreSQL"},
    },
    {
        "id": "c4",
        "channel": "commits",
        "seq": 4,
        "at": "2024-08-05T00:00:00Z",
        "by": "bot",
        "text": "signing key rotated, done",
        "waives": "x",
    },
    {
        "id": "c5",
        "channel": "commits",
        "seq": 5,
        "at": "2024-08-10T00:00:00Z",
        "by": "alice",
        "reopens": "x",
    },
    {"id": "rel", "channel": "commits", "seq": 6, "at": "2024-08-20T00:00:00Z"},
]

STANDPOINTS = [
    ("2024-07-30", None),
    ("2024-08-06", None),
    ("2024-08-06", "latest"),
    ("2024-08-12", None),
    ("2024-09-01", None),
]


def _verdicts(events: list[dict], declarations: str = DECLARATIONS) -> list:
    folder = Path(tempfile.mkdtemp(prefix="openloop-prop-"))
    (folder / "d.ol").write_text(declarations, encoding="utf-8")
    (folder / "e.jsonl").write_text(
        "\n".join(json.dumps(e) for e in events) + "\n", encoding="utf-8"
    )
    prepared = api.prepare([folder])
    out = []
    for at, known in STANDPOINTS:
        res = api.status(prepared, at=at, known=known)
        out.append(
            [(v.id, v.status, v.closed_by, v.tier, v.confidence, v.flags) for v in res.expectations]
        )
    return out


REFERENCE = None


def _reference():
    global REFERENCE
    if REFERENCE is None:
        REFERENCE = _verdicts(BASE_EVENTS)
    return REFERENCE


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_event_order_never_changes_a_verdict(rnd: random.Random):
    shuffled = list(BASE_EVENTS)
    rnd.shuffle(shuffled)
    assert _verdicts(shuffled) == _reference()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=5), st.sampled_from(["at", "recorded"]))
def test_invisible_events_never_change_a_verdict(count: int, field: str):
    # Events after every standpoint (by at, or recorded after every known) change nothing.
    extra = []
    for i in range(count):
        event = {
            "id": f"late-{i}",
            "channel": "commits",
            "at": "2024-07-21T00:00:00Z",
            "set": {"backup.backend": "PostgreSQL"},
            "completes": ["x", "y"],
            "by": "alice",
            "cancels": "y",
            "text": "Move backups to PostgreSQL: done",
        }
        if field == "at":
            event["at"] = "2025-01-01T00:00:00Z"
        else:
            event["recorded"] = "2099-01-01T00:00:00Z"
        extra.append(event)
    ours = _verdicts(BASE_EVENTS + extra)
    ref = _reference()
    if field == "at":
        assert ours == ref
    else:  # only `known latest` sees them
        for index, (_, known) in enumerate(STANDPOINTS):
            if known != "latest":
                assert ours[index] == ref[index]


#: Noise without letters or digits: words in a text are evidence by design (hypothesis found
#: "MERG", the stem of the done cue "merged", closing x at the textual tier), so the property is
#: about everything else a text can hold: quotes, backslashes, program syntax, any symbol. Lone
#: surrogates (Cs) are left out: no UTF-8 log can hold one, and the loader refuses them.
NOISE = st.text(st.characters(exclude_categories=("L", "N", "Cs")), min_size=0, max_size=40)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NOISE)
def test_text_is_inert(noise: str):
    hostile = noise + ' "quoted" \\ a :- b. #show. #const n=1. x(1). ` \u00e9\u4e2d\U0001f600'
    events = [dict(e) for e in BASE_EVENTS]
    events[1]["text"] = "backup cleanup " + hostile
    # Ids and channels are identifiers (SPEC §2.1) and names hold no control characters, so
    # hostile text can reach only the free-text fields, and there it changes nothing.
    name = "".join(c for c in hostile[:8] if c.isprintable()) or "z"
    events.append(
        {
            "id": "hostile-event",
            "channel": "elsewhere",  # undeclared, as the hostile channel name was
            "at": "2024-07-22T00:00:00Z",
            "text": hostile,
            "by": name,
            "kind": name,
        }
    )
    assert _verdicts(events) == _reference()
