"""The bench's results as text: the fixed-width table of each size, then the other rows."""

from __future__ import annotations

from collections.abc import Sequence

from lab.bench import ingest_bench, ledger_bench, policy_bench, store_rows
from lab.bench import rows as user_facing
from lab.bench.measure import label_of
from lab.bench.targets import TARGETS, applies


def _verdict(value: bool | None) -> str:
    return "-" if value is None else "PASS" if value else "MISS"


def _failed_verdict(result: dict, target: str) -> str:
    if not applies(target, result["events"]):
        return "-"
    return "MISS" if result["targets"].get(target) is False else "fail"


def _number(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def table(results: Sequence[dict]) -> str:
    """The results as a fixed-width table, then each size's phases, for humans."""
    head = (
        "events",
        "expect.",
        "floor s",
        "cold s",
        "warm ms",
        "cold/floor",
        "warm/floor",
        "peak RSS MB",
        *(t for t, _ in TARGETS),
    )
    rows = []
    ingest = [r for r in results if r.get("ingest")]
    ledger = [r for r in results if r.get("kind") == "ledger"]
    policies = [r for r in results if r.get("kind") == "policies"]
    results = [
        r for r in results if not r.get("ingest") and r.get("kind") not in ("ledger", "policies")
    ]
    for r in results:
        if r.get("error"):
            # A failed size still shows what it measured; the target it missed reads "fail".
            rows.append(
                (
                    f"{r['events']:,}",
                    str(r["expectations"]),
                    _number(r.get("floor_s"), ".3f"),
                    _number(r.get("cold_s"), ".2f"),
                    "-",
                    "-",
                    "-",
                    _number(r.get("peak_rss_mb"), ".0f"),
                    *(_failed_verdict(r, t) for t, _ in TARGETS),
                )
            )
            continue
        rows.append(
            (
                f"{r['events']:,}",
                str(r["expectations"]),
                f"{r['floor_s']:.3f}",
                f"{r['cold_s']:.2f}",
                f"{r['warm_s'] * 1000:.1f}",
                f"{r['cold_over_floor']:.1f}",
                f"{r['warm_over_floor']:.3f}",
                f"{r['peak_rss_mb']:.0f}",
                *(_verdict(r["targets"][t]) for t, _ in TARGETS),
            )
        )
    widths = [
        max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(head)
    ]
    lines = ["  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines.append("")
    lines.append("targets: " + "; ".join(f"{t}: {d}" for t, d in TARGETS))
    for r in results:
        if r.get("error"):
            done = ", ".join(f"{k} {v:.2f} s" for k, v in r.get("phases", {}).items())
            lines.append(f"{label_of(r['events'])}: {r['error']}" + (f"; {done}" if done else ""))
            continue
        p, z = r["phases"], r["sizes"]
        lines.append(
            f"{label_of(r['events'])}: load {p['load_s']:.2f} s, prepare {p['prepare_s']:.2f} s "
            f"(facts {p['facts_s']:.2f} s), first resolve {p['first_resolve_s']:.2f} s; warm "
            f"solve {p['warm_solve_s'] * 1000:.0f} ms + read {p['warm_read_s'] * 1000:.0f} ms; "
            f"{sum(v for k, v in z.items() if k.endswith('_facts')):,} facts, "
            f"{z.get('prepared_atoms', 0):,} prepared atoms; median of {r['runs']} runs, "
            f"{r['standpoints']} warm standpoints"
        )
    lines.append("")
    lines.append(user_facing.table(results).rstrip("\n"))
    lines.append(store_rows.table(results).rstrip("\n"))
    lines += [ingest_bench.row(r) for r in ingest]
    lines += [policy_bench.table(r).rstrip("\n") for r in policies]
    return "\n".join(lines) + "\n" + "".join(ledger_bench.table(r) for r in ledger)
