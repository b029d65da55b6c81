"""The performance targets of the bench's first table, and their verdicts on one size's result.

Reported as PASS or MISS, never enforced: :func:`finish` adds the ratios to the floor and the
verdict of each target that applies to a measured size, :func:`settle` the targets a failed size
already missed, :func:`failed` the shell of a size that could not be measured.
"""

from __future__ import annotations

COLD_LIMIT = 2.0  # cold <= 2 x floor, at every size
WARM_LIMIT = 0.02  # warm <= 0.02 x floor, up to 100k events
WARM_UP_TO = 100_000
RSS_LIMIT_MB = 2048.0  # under 2 GB, at 1M events
RSS_FROM = 1_000_000
TARGETS = (
    ("cold_le_2x_floor", "cold <= 2 x floor"),
    ("warm_le_0.02x_floor", "warm <= 0.02 x floor (<= 100k)"),
    ("rss_under_2gb", "peak RSS < 2 GB (1M)"),
)


def applies(target: str, events: int) -> bool:
    """Whether ``target`` is judged at a history of ``events`` events."""
    if target.startswith("warm"):
        return events <= WARM_UP_TO
    if target.startswith("rss"):
        return events >= RSS_FROM
    return True


def failed(shell: dict, error: str) -> dict:
    empty = dict.fromkeys(
        ("floor_s", "cold_s", "warm_s", "peak_rss_mb", "cold_over_floor", "warm_over_floor")
    )
    return {**shell, **empty, "error": error, "targets": dict.fromkeys(t for t, _ in TARGETS)}


def finish(result: dict) -> dict:
    """Add the ratios to the floor and the verdict of each target that applies (else None)."""
    floor = result["floor_s"]
    result["cold_over_floor"] = round(result["cold_s"] / floor, 3)
    result["warm_over_floor"] = round(result["warm_s"] / floor, 4)
    events = result["events"]
    met = {
        "cold_le_2x_floor": result["cold_over_floor"] <= COLD_LIMIT,
        "warm_le_0.02x_floor": result["warm_over_floor"] <= WARM_LIMIT,
        "rss_under_2gb": result["peak_rss_mb"] < RSS_LIMIT_MB,
    }
    result["targets"] = {t: met[t] if applies(t, events) else None for t, _ in TARGETS}
    return result


def settle(result: dict) -> dict:
    """For a size that failed, the targets already missed by what it measured before failing.

    Time spent and memory held only grow, so a partial cold time above the limit or a peak RSS
    above it is a definite MISS; anything else stays undecided (None).
    """
    floor, events = result.get("floor_s"), result["events"]
    spent = sum(result.get("phases", {}).get(k, 0.0) for k in ("load_s", "prepare_s"))
    targets = result["targets"]
    if floor and spent > COLD_LIMIT * floor:
        targets["cold_le_2x_floor"] = False
    rss = result.get("peak_rss_mb")
    if rss is not None and rss >= RSS_LIMIT_MB and applies("rss_under_2gb", events):
        targets["rss_under_2gb"] = False
    return result
