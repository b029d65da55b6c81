"""Which history a ``test`` block runs against: discovering suites from the paths given.

``openloop test PATH...`` and the pytest plugin both group the ``.ol`` files they find into
histories (a folder may hold several: ``fixtures/`` does), prepare each once, and run its blocks
with :class:`resolver.testing.runner.TestRunner`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from resolver import api
from resolver.engine.prepared import Prepared
from resolver.language.loader import collect_files
from resolver.language.model import TestBlock
from resolver.testing.runner import BlockResult, TestReport, TestRunner

#: A cheap pre-check for "this .ol file may hold a test block" (the parser has the last word).
_TEST_BLOCK = re.compile(r'(?i)(?:^|[\s}])test\s*"')


def may_hold_tests(path: str | Path) -> bool:
    """True when the file's text looks like it holds a ``test`` block."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True  # let the loader report it
    return bool(_TEST_BLOCK.search(text))


@dataclass(frozen=True)
class Suite:
    """One history and the files whose test blocks run against it.

    ``files`` None means every test block of the history.
    """

    paths: tuple[str, ...]
    files: frozenset[Path] | None

    __test__ = False

    def blocks(self, prepared: Prepared) -> tuple[TestBlock, ...]:
        """The test blocks of this suite, in reading order."""
        if self.files is None:
            return prepared.project.tests
        return tuple(
            b for b in prepared.project.tests if Path(b.location.file).resolve() in self.files
        )


def discover(paths: Sequence[str | Path]) -> list[Suite]:
    """Group the PATHs of ``openloop test`` into histories.

    A folder may hold several independent histories (``fixtures/`` does), so a test block runs
    against the folder of its ``.ol`` file, read recursively: the same history ``openloop test
    FOLDER`` or the pytest plugin would load. Files named explicitly form one history together.
    """
    suites: list[Suite] = []
    explicit = [str(p) for p in paths if not Path(p).is_dir()]
    folders: dict[Path, tuple[str, set[Path]]] = {}
    for entry in paths:
        if not Path(entry).is_dir():
            continue
        for name in collect_files([entry]):
            if not name.endswith(".ol") or not may_hold_tests(name):
                continue
            folder = Path(name).parent
            key = folder.resolve()
            folders.setdefault(key, (str(folder), set()))[1].add(Path(name).resolve())
    for _, (folder, files) in sorted(folders.items()):
        suites.append(Suite((folder,), frozenset(files)))
    if explicit:
        suites.append(Suite(tuple(explicit), None))
    return suites


def run_paths(paths: Sequence[str | Path], select: str | None = None) -> TestReport:
    """Discover, prepare each history once, and run its blocks (``select``: a name filter)."""
    blocks: list[BlockResult] = []
    for suite in discover(paths):
        prepared = api.prepare(list(suite.paths))
        chosen = [b for b in suite.blocks(prepared) if select is None or select in b.name]
        if chosen:
            blocks.extend(TestRunner(prepared).run(chosen).blocks)
    return TestReport(tuple(blocks))
