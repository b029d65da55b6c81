"""Random small histories for the store's equivalence tests: every clause a standpoint compares
against a time (openings, `opened`, deadlines, `before`, windows, `within`, late records,
gaps), so that a plateau drawn too wide shows as a difference. The generator is the shared one
(:mod:`tests.random_histories`), whose defaults are the store's shape."""

from __future__ import annotations

from tests.random_histories import (
    DAY,
    HERE,
    ITEMS,
    KEYS,
    MARKERS,
    SPAN,
    START,
    VALUES,
    WORDS,
    declarations,
    events,
    histories,
    instants,
    standpoints,
)

__all__ = [
    "DAY",
    "HERE",
    "ITEMS",
    "KEYS",
    "MARKERS",
    "SPAN",
    "START",
    "VALUES",
    "WORDS",
    "declarations",
    "events",
    "histories",
    "instants",
    "standpoints",
]
