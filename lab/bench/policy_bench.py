"""Measuring policies (SPEC 5): 100 policies cost at most twice their instances declared by hand.

A synthetic history of N commits (``events.jsonl``, each with ``files``, some setting
``feature.J.N = "requested"`` and later ``"done"``) is read twice, each time in a fresh
interpreter (``python -m lab.bench.policy_bench SPEC``):

* ``policies``: ``policies.ol`` holds 100 policies (50 ``api-I``: a commit touching
  ``src/modI/**`` and not ``docs/modI/**`` owes a commit touching ``docs/modI/**`` within 14
  days; 50 ``feature-J``: a ``feature.J.*`` key set to ``"requested"`` owes ``"done"`` within 30
  days), so the rules derive every instance;
* ``by hand``: ``declared.ol`` holds the same instances as plain expectations (same ids, same
  clauses, ``opened_by`` the trigger), written from the instances the first run derived.

Each run is cold: load, prepare, and resolve at the end of the history (what one ``openloop
status`` does). Times are medians of ``RUNS`` runs; the target is ``policies <= 2 x by hand``.
Both runs must give the same number of open and satisfied instances, which the row reports.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

POLICY_FROM = 10_000  # measure policies for benchmark sizes of at least this many events
POLICIES = 100
RUNS = 3
LIMIT = 2.0
_START = 1_704_067_200  # 2024-01-01T00:00:00Z
_STEP = 300  # one commit every five minutes
_MODULES = POLICIES // 2


def _stamp(unix: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))


def policies_text() -> str:
    """The 100 policies."""
    out = ["channel commits work\n"]
    for i in range(_MODULES):
        out.append(
            f'policy api-{i} {{ title "Document $event" when channel commits '
            f'when touches "src/mod{i}/**" when not touches "docs/mod{i}/**" '
            f'want touches "docs/mod{i}/**" within 14d verify state }}\n'
        )
    for j in range(_MODULES):
        out.append(
            f'policy feature-{j} {{ title "Deliver feature {j} item $1" '
            f'when set feature.{j}.* = "requested" want $key = "done" within 30d }}\n'
        )
    return "".join(out)


def generate(folder: Path, events: int, seed: int = 0) -> dict[str, Path]:
    """Write ``policies.ol`` and ``events.jsonl`` (deterministic for a seed); reuse if present."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"policies": folder / "policies.ol", "log": folder / "events.jsonl"}
    if all(p.is_file() for p in paths.values()):
        return paths
    rng = random.Random(seed)
    words = ("cache", "parser", "index", "queue", "router", "schema", "worker", "report")
    requested: list[str] = []
    lines = []
    for n in range(1, events + 1):
        files = [f"src/misc/file{rng.randrange(400)}.py"]
        sets: dict[str, str] = {}
        roll = rng.random()
        module = rng.randrange(_MODULES)
        if roll < 0.01:
            files.append(f"src/mod{module}/api.py")
        elif roll < 0.017:
            files.append(f"docs/mod{module}/guide.md")
        elif roll < 0.019:
            files += [f"src/mod{module}/api.py", f"docs/mod{module}/api.md"]
        elif roll < 0.025:
            key = f"feature.{module}.{n}"
            sets[key] = "requested"
            requested.append(key)
        elif roll < 0.03 and requested:
            sets[requested.pop(rng.randrange(len(requested)))] = "done"
        record = {
            "id": f"commit-{n:07d}",
            "channel": "commits",
            "seq": n,
            "at": _stamp(_START + n * _STEP),
            "by": f"dev{rng.randrange(40)}@example.com",
            "kind": "commit",
            "text": f"Work on the {rng.choice(words)} {rng.choice(words)} {n}",
            "files": files,
        }
        if sets:
            record["set"] = sets
        lines.append(json.dumps(record))
    paths["log"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths["policies"].write_text(policies_text(), encoding="utf-8")
    return paths


def declared_text(project, prepared) -> str:
    """The instances the rules derived, written as hand-declared expectations."""
    out = ["channel commits work\n"]
    for x, _, _ in prepared.core.get("instance_of"):
        shape = project.derived[prepared.facts.item_id(x)]
        clauses = [f'title "{shape.title}"', f"opened_by {shape.opened_by}"]
        if shape.want is not None:
            clauses.append(f'want {shape.want.key} = "{shape.want.value}"')
        if shape.want_touches is not None:
            clauses.append(f'want touches "{shape.want_touches}"')
        if shape.within is not None:
            clauses.append(f"within {shape.within}s")
        if shape.verify is not None:
            clauses.append(f"verify {shape.verify}")
        out.append(f"expectation {shape.id} {{ {' '.join(clauses)} }}\n")
    return "".join(out)


def run(
    sizes: Sequence[int], base: Path, seed: int = 0, env: dict[str, str] | None = None
) -> dict | None:
    """Measure the largest size of at least ``POLICY_FROM`` events; None when there is none."""
    chosen = [s for s in sizes if s >= POLICY_FROM]
    if not chosen:
        return None
    return measure(max(chosen), base / f"policies-{max(chosen)}-seed-{seed}", seed, env)


def measure(events: int, folder: Path, seed: int = 0, env: dict | None = None) -> dict:
    """Both variants of one history, each in fresh interpreters; the row of the table."""
    paths = generate(folder, events, seed)
    declared = folder / "declared.ol"
    results: dict[str, list[dict]] = {"policies": [], "by_hand": []}
    for run_number in range(RUNS):
        for variant in ("policies", "by_hand"):
            spec = {
                "variant": variant,
                "paths": [str(paths["log"]), str(paths.get(variant, declared))],
                "declared": str(declared),
                "write_declared": variant == "policies" and run_number == 0,
            }
            print(
                f"[bench policies] {events} events: {variant}, run {run_number + 1}",
                file=sys.stderr,
            )
            child = subprocess.run(
                [sys.executable, "-m", "lab.bench.policy_bench", json.dumps(spec)],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
                check=False,
            )
            if child.returncode != 0:
                return {"kind": "policies", "events": events, "error": "measuring failed"}
            results[variant].append(json.loads(child.stdout.strip().splitlines()[-1]))
    policy_s = statistics.median(r["cold_s"] for r in results["policies"])
    hand_s = statistics.median(r["cold_s"] for r in results["by_hand"])
    policy_cpu = statistics.median(r["cpu_s"] for r in results["policies"])
    hand_cpu = statistics.median(r["cpu_s"] for r in results["by_hand"])
    same = results["policies"][0]["counts"] == results["by_hand"][0]["counts"]
    return {
        "kind": "policies",
        "events": events,
        "policies": POLICIES,
        "instances": results["policies"][0]["instances"],
        "counts": results["policies"][0]["counts"],
        "same_verdicts": same,
        "policies_s": round(policy_s, 3),
        "by_hand_s": round(hand_s, 3),
        "ratio": round(policy_s / hand_s, 3),
        "policies_cpu_s": round(policy_cpu, 3),
        "by_hand_cpu_s": round(hand_cpu, 3),
        "cpu_ratio": round(policy_cpu / hand_cpu, 3),
        "target": policy_s <= LIMIT * hand_s,
    }


def table(result: dict) -> str:
    """One line for the benchmark's report."""
    if result.get("error"):
        return f"policies: {result['events']:,} events: {result['error']}\n"
    verdict = "PASS" if result["target"] else "MISS"
    return (
        f"policies: {result['policies']} policies over {result['events']:,} events, "
        f"{result['instances']:,} instances: {result['policies_s']:.2f} s cold vs "
        f"{result['by_hand_s']:.2f} s declared by hand = {result['ratio']:.2f}x "
        f"(CPU {result['policies_cpu_s']:.2f} s vs {result['by_hand_cpu_s']:.2f} s = "
        f"{result['cpu_ratio']:.2f}x; target <= {LIMIT:.0f}x: {verdict}; same verdicts: "
        f"{result['same_verdicts']})\n"
    )


def _child(spec: dict) -> dict:
    from resolver import api
    from resolver.engine.prepared import Prepared
    from resolver.language.loader import load

    started, cpu = time.perf_counter(), time.process_time()
    project = load(spec["paths"])
    prepared = Prepared(project)
    last = max(e.at for e in project.events)
    resolution = api.status(prepared, at=_stamp(last), known="latest")
    cold, cold_cpu = time.perf_counter() - started, time.process_time() - cpu
    counts: dict[str, int] = {}
    for verdict in resolution.expectations:
        counts[verdict.status] = counts.get(verdict.status, 0) + 1
    if spec["write_declared"]:
        Path(spec["declared"]).write_text(declared_text(project, prepared), encoding="utf-8")
    return {
        "cold_s": cold,
        "cpu_s": cold_cpu,
        "counts": counts,
        "instances": len(resolution.expectations),
    }


if __name__ == "__main__":
    print(json.dumps(_child(json.loads(sys.argv[1]))))
