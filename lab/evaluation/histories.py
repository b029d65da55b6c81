"""Prepared fixture histories and their verdicts, each prepared once per evaluation run."""

from __future__ import annotations

from pathlib import Path

from resolver import api
from resolver.engine.prepared import Prepared
from resolver.errors import InputError
from resolver.verdicts.resolution import ExpectationVerdict, Resolution


class Histories:
    """The fixtures under one folder, prepared on first use and kept for the run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._prepared: dict[str, Prepared] = {}

    def path(self, name: str) -> Path:
        """The folder of fixture ``name`` (``four-futures/open``)."""
        return self.root / name

    def label(self, name: str) -> str:
        """How a row names the history it ran on."""
        return f"fixtures/{name}"

    def prepared(self, name: str) -> Prepared:
        """The prepared history of fixture ``name``."""
        if name not in self._prepared:
            self._prepared[name] = api.prepare([self.path(name)])
        return self._prepared[name]

    def status(
        self,
        name: str,
        at: str,
        known: str | None = None,
        snapshot: str | Path | None = None,
    ) -> Resolution:
        """Every verdict of fixture ``name`` at one standpoint, with reasons."""
        return api.status(self.prepared(name), at=at, known=known, snapshot=snapshot)

    def verdict(
        self, name: str, ident: str, at: str, known: str | None = None
    ) -> ExpectationVerdict:
        """The verdict of one expectation (an error if the fixture lacks it)."""
        found = self.status(name, at, known).expectation(ident)
        if found is None:
            raise InputError(f"{self.path(name)}: declares no expectation {ident!r}")
        return found


def describe(verdict: ExpectationVerdict) -> str:
    """``SATISFIED by commit-118 (state)``, ``OPEN, CORROBORATED_OPEN`` ..."""
    text = verdict.status
    if verdict.closed_by:
        text += f" by {verdict.closed_by}"
        if verdict.tier:
            text += f" ({verdict.tier})"
    if verdict.confidence:
        text += f", {verdict.confidence}"
    if verdict.flags:
        text += " [" + ", ".join(verdict.flags) + "]"
    return text
