"""Property: a policy's instances are expectations like any other (SPEC 5.2).

On random small histories, the instances two policies open are rewritten as hand-declared
expectations (same ids, same clauses, ``opened_by`` the trigger). At every standpoint the two
projects must give exactly the same verdicts, except that an instance whose trigger is not
visible is not listed at all, where its hand-declared twin is NOT_OPENED. Which events trigger
is computed here by a plain reference reading of the conditions, independent of the rules.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import api
from resolver.verdicts.resolution import ExpectationVerdict

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HEADER = """
channel sessions mention
channel commits work
channel releases work
actor alice principal
actor bot agent
"""

POLICIES = """
policy todo {
  title "Resolve the TODO $1"
  when channel commits
  when set todo.* = "open"
  when not by bot
  want $key = "removed"
  superseded_when $key = "gone"
  within 3d
}

policy docs {
  title "Document $event"
  when touches "src/**"
  when not kind merge
  want touches "docs/**"
  before next kind release
  verify state
}
"""

EVENT = st.fixed_dictionaries(
    {
        "channel": st.sampled_from(["commits", "commits", "sessions", "releases"]),
        "kind": st.sampled_from(["commit", "commit", "merge", "release"]),
        "by": st.sampled_from(["alice", "bob", "bot"]),
        "sets": st.lists(
            st.tuples(
                st.sampled_from(["todo.a", "todo.b", "x"]),
                st.sampled_from(["open", "open", "removed", "gone"]),
            ),
            max_size=2,
            unique_by=lambda kv: kv[0],
        ),
        "files": st.lists(
            st.sampled_from(["src/a.py", "src/p/b.py", "docs/a.md", "README.md"]),
            max_size=2,
            unique=True,
        ),
        "late": st.sampled_from([0, 0, 0, 2]),
        "outcome": st.sampled_from(["confirmed", "confirmed", "confirmed", "failed"]),
        "marker": st.sampled_from(["", "", "", "cancels", "reopens"]),
        "gap": st.booleans(),
    }
)


def _events(drawn: list[dict]) -> list[dict]:
    out, seq = [], 0
    for number, spec in enumerate(drawn, start=1):
        seq += 2 if spec["gap"] and number == 3 else 1
        out.append({"id": f"e{number:02d}", "day": number, "seq": seq, **spec})
    return out


def _event_text(e: dict, targets: list[str]) -> str:
    parts = [
        f"event {e['id']} {{ channel {e['channel']} seq {e['seq']}",
        f"at 2024-03-{e['day']:02d}T10:00 recorded 2024-03-{e['day'] + e['late']:02d}T10:00",
        f"by {e['by']} kind {e['kind']} outcome {e['outcome']}",
    ]
    parts += [f'set {k} = "{v}"' for k, v in e["sets"]]
    if e["files"]:
        parts.append("files " + ", ".join(f'"{f}"' for f in e["files"]))
    if e["marker"] and targets:
        parts.append(f"{e['marker']} {targets[e['day'] % len(targets)]}")
    return " ".join(parts) + " }\n"


def _instances(events: list[dict]) -> list[tuple[str, str, str]]:
    """(id, trigger, declaration body) of every instance, by reading the conditions directly."""
    out = []
    for e in events:
        if e["channel"] == "commits" and e["by"] != "bot":
            for key, value in e["sets"]:
                if key.startswith("todo.") and value == "open":
                    body = (
                        f'title "Resolve the TODO {key[5:]}" want {key} = "removed" '
                        f'superseded_when {key} = "gone" within 3d'
                    )
                    out.append((f"todo/{e['id']}/{key}", e["id"], body))
        src = any(f.startswith("src/") for f in e["files"])
        if src and e["kind"] != "merge":
            body = (
                f'title "Document {e["id"]}" want touches "docs/**" '
                "before next kind release verify state"
            )
            out.append((f"docs/{e['id']}", e["id"], body))
    return out


def _write(text: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="openloop-equivalence-"))
    (folder / "history.ol").write_text(text, encoding="utf-8")
    return folder


def _plain(v: ExpectationVerdict) -> ExpectationVerdict:
    return replace(v, policy=None, trigger=None)


@SETTINGS
@given(st.lists(EVENT, min_size=1, max_size=7))
def test_instances_equal_their_hand_declared_twins(drawn: list[dict]) -> None:
    events = _events(drawn)
    instances = _instances(events)
    targets = [ident for ident, _, _ in instances]
    log = "".join(_event_text(e, targets) for e in events)
    by_policy = api.prepare([_write(HEADER + POLICIES + log)])
    declared = "".join(
        f"expectation {ident} {{ opened_by {trigger} {body} }}\n"
        for ident, trigger, body in instances
    )
    by_hand = api.prepare([_write(HEADER + declared + log)])
    points = [(f"2024-03-{d:02d}T12:00", None) for d in range(1, len(events) + 4)]
    points += [(f"2024-03-{d:02d}T12:00", "latest") for d in (1, len(events) // 2 + 1)]
    for at, known in points:
        ours = api.status(by_policy, at=at, known=known)
        theirs = api.status(by_hand, at=at, known=known)
        listed = {x.id: x for x in ours.expectations}
        twins = {x.id: x for x in theirs.expectations if x.status != "NOT_OPENED"}
        assert listed.keys() == twins.keys(), (at, known)
        for ident, verdict in listed.items():
            trigger = next(t for i, t, _ in instances if i == ident)
            assert (verdict.policy, verdict.trigger) == (ident.split("/")[0], trigger)
            assert _plain(verdict) == twins[ident], (at, known, ident)
        assert ours.findings == theirs.findings
