"""The commitment-graph experiment, run as a simulation of the judging step.

The proposal asks whether a commitment graph reduces false completion more than a trace or a
strong flat checklist. Here the same generated instances (:mod:`commitments_world`) go to six
judges, each answering "is this task complete?" when the observation window closes:

- ``trace``: accepts the agent's claim (the trace records activity, not obligations);
- ``checklist``: a strong flat checklist of the hidden obligations, complete when the agent has
  ticked every item;
- ``openloop``: the commitment graph: the task's status as the rules derive it from the
  history (complete only when ``COMPLETE``; ``UNKNOWN`` is not complete);
- three ablations of the graph, each with one component removed from the history it reads: no
  evidence links (any tick satisfies an obligation), no effect receipts (every action's outcome
  counts as confirmed), no dependency typing (``supersedes`` and ``requires`` edges dropped).

The false-completion rate is the share of truly incomplete runs a judge calls complete; the
false-pending rate the share of truly complete runs it calls not complete. Both come with 95%
Wilson intervals, per family and pooled. Runs still inside the window of delayed evidence are
censored: reported apart, counted in neither rate. Nothing here is a study of language-model
agents: the agent is a coin with family-specific error rates.
"""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lab.evaluation import commitments_world as world
from lab.evaluation.intervals import Rate
from resolver import api
from resolver.verdicts.resolution import Resolution

JUDGES = ("trace", "checklist", "openloop", *world.VARIANTS[1:])
DISCLAIMER = (
    "This is a simulation of the judging step, not a study of language-model agents: the "
    "agent is simulated with fixed, family-specific error rates, and every judge reads the "
    "same generated instances."
)
DEFAULT_PER_FAMILY = 60
#: The proposal's decision rule: the graph must cut the pooled false-completion rate below the
#: checklist's by at least this much (fixed before any run), significantly on paired runs.
MARGIN = 0.10


@dataclass(frozen=True)
class Cell:
    """One judge on one family (or ``all``): its two error rates."""

    judge: str
    family: str
    false_completion: Rate
    false_pending: Rate


@dataclass
class Experiment:
    """Everything one run of the simulation measured."""

    seed: int
    per_family: int
    instances: int
    cells: list[Cell]
    censored: dict[str, dict[str, int]]
    modes: dict[str, dict[str, int]]
    seconds: float
    paired: list[dict[str, object]] = field(default_factory=list)
    claims: dict[str, int] = field(default_factory=dict)

    def cell(self, judge: str, family: str = "all") -> Cell:
        """The rates of one judge on one family."""
        return next(c for c in self.cells if c.judge == judge and c.family == family)

    def decision(self) -> dict[str, object]:
        """The proposal's decision rule, applied to the pooled rates of this simulation."""
        graph = self.cell("openloop").false_completion.value or 0.0
        checklist = self.cell("checklist").false_completion.value or 0.0
        pair = next(
            (
                p
                for p in self.paired
                if p["against"] == "checklist" and p["metric"] == "false_completion"
            ),
            {"p_exact": 1.0},
        )
        reduction = checklist - graph
        return {
            "margin": MARGIN,
            "reduction": round(reduction, 4),
            "p_exact": pair["p_exact"],
            "met": reduction >= MARGIN and float(pair["p_exact"]) < 0.05,
        }

    def as_dict(self) -> dict[str, object]:
        """The experiment as JSON."""
        return {
            "disclaimer": DISCLAIMER,
            "seed": self.seed,
            "per_family": self.per_family,
            "instances": self.instances,
            "judges": list(JUDGES),
            "rates": [
                {
                    "judge": c.judge,
                    "family": c.family,
                    "false_completion": c.false_completion.as_dict(),
                    "false_pending": c.false_pending.as_dict(),
                }
                for c in self.cells
            ],
            "censored": self.censored,
            "paired": self.paired,
            "claims": self.claims,
            "decision": self.decision(),
            "modes": self.modes,
        }


def judge_graph(instances: list[world.Instance], variant: str, folder: Path) -> Resolution:
    """The rules' verdicts on one variant's history, when the observation window closes."""
    paths = world.write(instances, folder / variant, variant)
    prepared = api.prepare(paths)
    return api.status(prepared, at=world.OBSERVED, known="latest", reasons=False)


def judgements(
    instances: list[world.Instance],
) -> tuple[dict[str, dict[str, bool]], set[tuple[str, str]]]:
    """Judge -> instance id -> judged complete; and the full graph's findings (kind, event)."""
    out: dict[str, dict[str, bool]] = {
        "trace": {x.ident: x.claim == "complete" for x in instances},
        "checklist": {x.ident: all(i.ticked for i in x.items) for x in instances},
    }
    findings: set[tuple[str, str]] = set()
    with tempfile.TemporaryDirectory(prefix="openloop-eval-") as folder:
        for variant in world.VARIANTS:
            resolution = judge_graph(instances, variant, Path(folder))
            name = "openloop" if variant == "full" else variant
            out[name] = {t.id: t.status == "COMPLETE" for t in resolution.tasks}
            if variant == "full":
                findings = {(f.kind, f.event) for f in resolution.findings}
    return out, findings


def audit_claims(instances: list[world.Instance], findings: set[tuple[str, str]]) -> dict[str, int]:
    """The agent's claims against the full graph's findings, each judged at the claim's time."""
    said_done = [x for x in instances if x.claim == "complete"]
    said_pending = [x for x in instances if x.claim == "pending"]
    false_done = [x for x in said_done if not x.complete_at_claim]
    true_done = [x for x in said_done if x.complete_at_claim]
    false_pending = [x for x in said_pending if x.complete_at_claim]

    def flagged(runs: list[world.Instance], kind: str) -> int:
        return sum((kind, x.claim_event) in findings for x in runs)

    return {
        "false_completion_claims": len(false_done),
        "flagged_false_completion": flagged(false_done, "FALSE_COMPLETION"),
        "true_completion_claims": len(true_done),
        "true_claims_flagged": flagged(true_done, "FALSE_COMPLETION"),
        "false_pending_reports": len(false_pending),
        "flagged_false_pending": flagged(false_pending, "FALSE_PENDING"),
        "false_pending_unconfirmed": sum(x.mode == "unconfirmable" for x in false_pending),
    }


def run(per_family: int = DEFAULT_PER_FAMILY, seed: int = 0) -> Experiment:
    """Generate, judge and score one simulation."""
    started = time.perf_counter()
    instances = world.generate(per_family, seed)
    verdicts, findings = judgements(instances)
    families = [*world.FAMILIES, "all"]
    cells = []
    for judge in JUDGES:
        for family in families:
            runs = [x for x in instances if family in ("all", x.family) and not x.censored]
            incomplete = [x for x in runs if not x.complete]
            complete = [x for x in runs if x.complete]
            fc = sum(verdicts[judge][x.ident] for x in incomplete)
            fp = sum(not verdicts[judge][x.ident] for x in complete)
            cells.append(Cell(judge, family, Rate(fc, len(incomplete)), Rate(fp, len(complete))))
    censored: dict[str, dict[str, int]] = {}
    for family in families:
        held = [x for x in instances if x.censored and family in ("all", x.family)]
        censored[family] = {"runs": len(held)} | {
            f"judged_complete_by_{judge}": sum(verdicts[judge][x.ident] for x in held)
            for judge in JUDGES
        }
    modes: dict[str, dict[str, int]] = {}
    for x in instances:
        modes.setdefault(x.family, {}).setdefault(x.mode, 0)
        modes[x.family][x.mode] += 1
    return Experiment(
        seed,
        per_family,
        len(instances),
        cells,
        censored,
        {f: dict(sorted(m.items())) for f, m in modes.items()},
        time.perf_counter() - started,
        paired(instances, verdicts),
        audit_claims(instances, findings),
    )


def paired(
    instances: list[world.Instance], verdicts: dict[str, dict[str, bool]]
) -> list[dict[str, object]]:
    """openloop against each other judge on the same runs: discordant pairs, exact McNemar p."""
    runs = [x for x in instances if not x.censored]
    out = []
    for other in JUDGES:
        if other == "openloop":
            continue
        for metric, truth in (("false_completion", False), ("false_pending", True)):
            pool = [x for x in runs if x.complete is truth]
            wrong = {
                j: {x.ident for x in pool if verdicts[j][x.ident] is not truth}
                for j in (other, "openloop")
            }
            better = len(wrong[other] - wrong["openloop"])
            worse = len(wrong["openloop"] - wrong[other])
            out.append(
                {
                    "against": other,
                    "metric": metric,
                    "openloop_right_other_wrong": better,
                    "openloop_wrong_other_right": worse,
                    "p_exact": mcnemar(better, worse),
                }
            )
    return out


def mcnemar(b: int, c: int) -> float:
    """Two-sided exact McNemar test: the binomial probability of a split this uneven."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)
