"""Wilson score intervals for a proportion: honest at small counts and at 0 or 1."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """``hits`` of ``total`` with its 95% Wilson interval (None when there is nothing to count)."""

    hits: int
    total: int

    @property
    def value(self) -> float | None:
        """The observed proportion."""
        return self.hits / self.total if self.total else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson score interval."""
        return wilson(self.hits, self.total)

    def text(self) -> str:
        """``0.25 [0.14, 0.41] (9/36)``, or ``- (0/0)``."""
        if not self.total:
            return "- (0/0)"
        low, high = self.interval  # type: ignore[misc]
        return f"{self.value:.2f} [{low:.2f}, {high:.2f}] ({self.hits}/{self.total})"

    def as_dict(self) -> dict[str, object]:
        """The rate as JSON."""
        interval = self.interval
        return {
            "hits": self.hits,
            "total": self.total,
            "rate": None if self.value is None else round(self.value, 4),
            "ci95": None if interval is None else [round(interval[0], 4), round(interval[1], 4)],
        }


def wilson(hits: int, total: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``hits / total`` (None when ``total`` is 0)."""
    if total <= 0:
        return None
    if not 0 <= hits <= total:
        raise ValueError(f"{hits} hits out of {total}")
    p = hits / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == total else min(1.0, centre + half)
    return low, high
