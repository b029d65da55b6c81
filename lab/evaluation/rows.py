"""One reproduced figure: the study's number beside openloop's, and where it was measured."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Row:
    """One line of the evaluation table.

    ``study`` is the figure the study reports, ``measured`` what this run found (text for the
    table), ``value`` the same figure as a number or tuple that tests compare, ``fixture`` the
    history it ran on, and ``agrees`` whether the measured figure reproduces the study's (None
    for a figure that is measured and reported, not reproduced: a timing on this machine).
    """

    section: str
    experiment: str
    study: str
    measured: str
    fixture: str
    agrees: bool | None
    value: object = None
    notes: tuple[str, ...] = field(default=())


def fixtures_dir(override: str | Path | None = None) -> Path:
    """The ``fixtures/`` folder of the checkout the lab sits in, or ``override`` when given."""
    if override is not None:
        return Path(override)
    checkout = Path(__file__).resolve().parents[2] / "fixtures"
    if checkout.is_dir():
        return checkout
    return Path("fixtures")


def ratio(hits: int, total: int) -> str:
    """``4/5``."""
    return f"{hits}/{total}"
