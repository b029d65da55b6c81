"""CPU seconds of one call, and the median over a series of standpoints: the bench's one clock.

CPU time (``process_time``) is the steady number on a shared machine, where wall time moves
with other jobs; every in-process row of the bench times its work through these two helpers.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def cpu_seconds(work: Callable[[], object]) -> float:
    """The CPU seconds ``work()`` takes in this process."""
    started = time.process_time()
    work()
    return time.process_time() - started


def median_cpu(work: Callable[[T], R], inputs: Iterable[T]) -> tuple[float, R | None]:
    """The median CPU seconds of ``work(x)`` over ``inputs``, and the last answer."""
    spent: list[float] = []
    answer: R | None = None
    for value in inputs:
        started = time.process_time()
        answer = work(value)
        spent.append(time.process_time() - started)
    return statistics.median(spent), answer
