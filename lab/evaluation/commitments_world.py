"""The simulated world of the commitment-graph experiment: tasks, hidden obligations, evidence.

Three task families (code, support operations, research evidence) are generated from one
``random.Random(seed)``. Each instance is a task with a hidden obligation list; its history holds
the evidence a real system would leave (CI runs, commits, a principal's approval, an agent's
actions with their effect receipts, a customer's reply) and, planted in most instances, one of
the failure modes the proposal names: delayed acceptance, conflicting requirements, permissions
revoked mid-task, a partially met objective, an action whose effect cannot be confirmed. A
simulated agent then ticks the items it believes done and claims completion (or reports pending)
with family-specific error rates.

The ground truth (is every obligation met when the observation window closes, or is the run
still inside the window of a delayed obligation: censored) is the generator's own record of
what it planted. It is the oracle of the simulation, never an input of the judges.

:func:`write` turns the instances into an ordinary openloop history (``world.ol`` and
``events.jsonl``), whole or with one component of the commitment graph removed (an ablation).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from resolver import times

#: When the observation window of every run closes (the standpoint of every judge).
OBSERVED = times.parse_time("2025-06-30T00:00:00Z")
HOUR, DAY = 3_600, 86_400
#: How long delayed evidence (an acceptance) may take to arrive.
ACCEPTANCE_WINDOW = 7 * DAY
VARIANTS = ("full", "no_evidence_links", "no_effect_receipts", "no_dependency_typing")

#: Obligation kinds: state (a system observes the value), approval (the principal's explicit
#: completion), action (the agent's own action, with an effect receipt: its outcome),
#: acceptance (delayed evidence from outside: a customer's or reviewer's reply).
FAMILIES: dict[str, tuple[tuple[str, str], ...]] = {
    "code": (
        ("reproduce", "state"),
        ("patch", "state"),
        ("tests", "state"),
        ("review", "approval"),
        ("deploy", "action"),
    ),
    "support": (
        ("reproduce", "state"),
        ("fix", "state"),
        ("deploy", "action"),
        ("refund", "action"),
        ("customer", "acceptance"),
    ),
    "research": (
        ("sources", "state"),
        ("comparison", "state"),
        ("citations", "state"),
        ("signoff", "acceptance"),
    ),
}
#: The failure modes planted per family.
MODES: dict[str, tuple[str, ...]] = {
    "code": ("partial", "revoked", "unconfirmable", "conflict"),
    "support": ("delayed", "unconfirmable", "revoked", "partial"),
    "research": ("conflict", "partial", "delayed"),
}
#: The agent's error rates: claiming completion when the task is not complete, and reporting
#: pending when it is.
FALSE_CLAIM = {"code": 0.6, "support": 0.75, "research": 0.5}
FALSE_PENDING = {"code": 0.08, "support": 0.05, "research": 0.15}
#: How often a claiming agent ticks the item a failure mode left unmet.
TICKS_FAILED_ITEM = {
    "delayed": 0.9,
    "unconfirmable": 1.0,
    "revoked": 0.9,
    "partial": 0.5,
    "conflict": 0.8,
}
CLEAN_SHARE = 0.4


@dataclass
class Item:
    """One hidden obligation of an instance and what happened to it."""

    name: str
    kind: str
    met: bool = True
    ticked: bool = False
    superseded: bool = False
    requires: tuple[str, ...] = ()


@dataclass
class Instance:
    """One task of the simulation: its obligations, its planted mode, the truth and the claim."""

    ident: str
    family: str
    mode: str
    opened: int
    items: list[Item]
    events: list[dict] = field(default_factory=list)
    claim: str = "complete"
    censored: bool = False

    @property
    def complete(self) -> bool:
        """The truth when the window closes: every obligation met or superseded."""
        return all(i.met or i.superseded for i in self.items)

    @property
    def complete_at_claim(self) -> bool:
        """The truth when the agent spoke: delayed evidence had not arrived yet."""
        return self.complete and self.mode != "delayed"

    @property
    def claim_event(self) -> str:
        """The id of the agent's claim (the instance's last event)."""
        return str(self.events[-1]["id"])


def generate(per_family: int, seed: int = 0) -> list[Instance]:
    """``per_family`` instances of each family, the same for the same arguments."""
    rng = random.Random(seed)
    out = []
    for family in FAMILIES:
        for n in range(per_family):
            out.append(_instance(rng, family, f"{family[0]}{n:03d}"))
    return out


def _instance(rng: random.Random, family: str, ident: str) -> Instance:
    mode = "clean" if rng.random() < CLEAN_SHARE else rng.choice(MODES[family])
    names = [name for name, _ in FAMILIES[family]]
    items = [
        Item(name, kind, requires=(names[k - 1],) if k and kind != "acceptance" else ())
        for k, (name, kind) in enumerate(FAMILIES[family])
    ]
    if mode == "conflict":
        items += [Item("require-a", "state"), Item("require-b", "state")]
    opened = OBSERVED - rng.randrange(2 * DAY, 14 * DAY, HOUR)
    x = Instance(ident, family, mode, opened, items)
    clock = opened
    for item in items:
        if item.kind == "acceptance":
            continue
        clock += 4 * HOUR
        _work(rng, x, item, clock)
    claim_at = clock + 2 * HOUR
    for item in items:
        if item.kind == "acceptance":
            _acceptance(rng, x, item, claim_at)
    _agent(rng, x, claim_at)
    return x


def _event(x: Instance, at: int, channel: str, by: str, **fields: object) -> dict:
    event = {"id": f"{x.ident}/e{len(x.events) + 1}", "channel": channel, "at": _stamp(at)}
    event.update(by=by, **fields)
    x.events.append(event)
    return event


def _work(rng: random.Random, x: Instance, item: Item, at: int) -> None:
    key = f"{item.name.replace('-', '_')}.{x.ident}"
    if item.kind == "approval":
        _event(x, at, "reviews", "maria", kind="review", completes=[_oid(x, item)])
        return
    if item.name == "require-b":
        if rng.random() < 0.6:  # the principal settles the conflict in favour of require-a
            item.superseded = True
            _event(x, at, "decisions", "maria", kind="decision", supersedes=[_oid(x, item)])
        item.met = False
        return
    value = "a" if item.name == "require-a" else "done"
    failing = _failing(x)
    outcome = "confirmed"
    if item is failing and x.mode == "partial":
        item.met, value = False, "partial"
    if item.kind == "action":
        if item is failing and x.mode == "revoked":
            _event(x, at - HOUR, "permissions", "maria", kind="revoke")
            item.met, outcome = False, "failed"
        elif item is failing and x.mode == "unconfirmable":
            item.met, outcome = rng.random() < 0.5, "unknown"
        _event(x, at, "actions", "agent", kind="action", set={key: value}, outcome=outcome)
        return
    _event(x, at, "systems", "ci", kind="observation", set={key: value})


def _failing(x: Instance) -> Item | None:
    """The obligation the planted mode strikes (the last of its kind, for determinism)."""
    kinds = {"partial": "state", "revoked": "action", "unconfirmable": "action"}
    wanted = kinds.get(x.mode)
    if wanted is None:
        return None
    pool = [i for i in x.items if i.kind == wanted and not i.name.startswith("require")]
    return pool[-1] if pool else None


def _acceptance(rng: random.Random, x: Instance, item: Item, claim_at: int) -> None:
    key = f"{item.name}.{x.ident}"
    if x.mode != "delayed":
        _event(x, claim_at - HOUR, "replies", "customer", kind="reply", set={key: "confirmed"})
        return
    arrives = None if rng.random() < 0.3 else claim_at + rng.randrange(HOUR, 14 * DAY, HOUR)
    if arrives is not None and arrives <= OBSERVED:
        _event(x, arrives, "replies", "customer", kind="reply", set={key: "confirmed"})
        return
    item.met = False
    x.censored = claim_at + ACCEPTANCE_WINDOW > OBSERVED


def _agent(rng: random.Random, x: Instance, claim_at: int) -> None:
    if x.complete_at_claim:
        x.claim = "pending" if rng.random() < FALSE_PENDING[x.family] else "complete"
    else:
        x.claim = "complete" if rng.random() < FALSE_CLAIM[x.family] else "pending"
    unticked = rng.choice(x.items).name if x.claim == "pending" and x.complete else None
    for item in x.items:
        done = (item.met or item.superseded) and item.name != unticked
        if not done and x.claim == "complete":
            done = rng.random() < TICKS_FAILED_ITEM.get(x.mode, 0.0)
        item.ticked = done
        if done:
            _event(
                x, claim_at - HOUR // 2, "agent", "agent", kind="tick", completes=[_oid(x, item)]
            )
    marker = "claims_complete" if x.claim == "complete" else "reports_pending"
    _event(x, claim_at, "agent", "agent", kind="claim", **{marker: [x.ident]})


def _oid(x: Instance, item: Item) -> str:
    return f"{x.ident}/{item.name}"


def _stamp(unix: int) -> str:
    return times.format_time(unix)


def write(instances: list[Instance], folder: Path, variant: str = "full") -> list[Path]:
    """Write the instances as one openloop history, with one component removed if asked."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        "# A generated world of the commitment-graph simulation.",
        "channel agent work",
        # effect receipts are the system's record of each action, not the agent's word (SPEC 3)
        "channel actions work authoritative",
        "actor maria principal",
        "actor agent agent",
    ]
    for x in instances:
        lines.append(f'task {x.ident} {{ title "{x.family} task {x.ident}" '
                     f"opened {_stamp(x.opened)} principal maria")  # fmt: skip
        for item in x.items:
            lines.append("  " + _obligation(x, item, variant))
        lines.append("}")
    events = []
    for x in instances:
        for event in x.events:
            event = dict(event)
            if variant == "no_effect_receipts":
                event.pop("outcome", None)
            if variant == "no_dependency_typing":
                event.pop("supersedes", None)
            events.append(json.dumps(event, sort_keys=True))
    ol, jsonl = folder / "world.ol", folder / "events.jsonl"
    ol.write_text("\n".join(lines) + "\n", encoding="utf-8")
    jsonl.write_text("\n".join(events) + "\n", encoding="utf-8")
    return [ol, jsonl]


def _obligation(x: Instance, item: Item, variant: str) -> str:
    clauses = [f"obligation {_oid(x, item)} {{"]
    if item.kind == "approval":
        clauses.append("verify explicit")
    else:
        value = "a" if item.name == "require-a" else "b" if item.name == "require-b" else None
        wanted = "confirmed" if item.kind == "acceptance" else value or "done"
        clauses.append(f'want {item.name.replace("-", "_")}.{x.ident} = "{wanted}" verify state')
    if variant == "no_evidence_links":
        clauses[-1] = clauses[-1].replace("verify explicit", "").replace("verify state", "")
        clauses.append("verify textual")
    if item.kind == "acceptance":
        clauses.append("window 7d")
    if item.requires and variant != "no_dependency_typing":
        clauses.append("requires " + ", ".join(f"{x.ident}/{r}" for r in item.requires))
    return " ".join([*clauses, "}"])
