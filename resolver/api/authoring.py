"""``lint`` and ``test``: checking what a user wrote, before any standpoint is asked.

``lint`` loads the files as every command does and reports what will run but is probably not
what was meant (:mod:`resolver.verdicts.lint`); ``test`` runs the ``test`` blocks written
beside a history (:mod:`resolver.testing`), each history prepared once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from resolver.language.loader import Diagnostic
    from resolver.testing.runner import BlockResult, TestReport

__all__ = ["LintReport", "block_text", "junit_xml", "lint", "test"]


@dataclass(frozen=True)
class LintReport:
    """What ``lint`` found (errors are raised, not listed) and how many files it read."""

    diagnostics: tuple[Diagnostic, ...]
    files: int

    @property
    def warnings(self) -> int:
        """The warnings among the diagnostics (notes are information, not problems)."""
        from resolver.verdicts.lint import WARNING

        return sum(1 for d in self.diagnostics if d.severity == WARNING)


def lint(paths: Sequence[str | Path]) -> LintReport:
    """Load ``paths`` (anything the resolver cannot run is an input error, raised) and list
    dangling references, dead declarations, clashing clauses, duplicates, and the ``by`` values
    each quoted actor pattern matched."""
    from resolver.language.loader import load_with_warnings
    from resolver.verdicts.lint import lint as lint_project

    project, loaded = load_with_warnings(paths)
    found = lint_project(project, loaded)  # integer ranges the rules cannot take are errors too
    return LintReport(tuple(found), len(project.sources))


def test(paths: Sequence[str | Path], select: str | None = None) -> TestReport:
    """Run every ``test`` block among ``paths`` (``select``: only those whose name contains
    it), each against the history of its folder; files named explicitly form one history."""
    from resolver.testing.discovery import run_paths

    return run_paths(paths, select)


test.__test__ = False  # type: ignore[attr-defined]  # an API function, not a pytest test


def block_text(result: BlockResult) -> str:
    """One test block's result as ``openloop test`` prints it (each failed assertion with the
    expected and actual value and the rules' reason)."""
    from resolver.testing.runner import format_block

    return format_block(result)


def junit_xml(report: TestReport) -> bytes:
    """A test run as a JUnit XML report."""
    from resolver.testing.junit import to_xml

    return to_xml(report)
