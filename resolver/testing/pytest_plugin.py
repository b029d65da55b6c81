"""A pytest plugin: the ``test`` blocks of ``.ol`` files run as pytest items.

Registered under the ``pytest11`` entry point as ``openloop``, so ``pytest fixtures/`` runs the
histories' executable specifications beside the Python tests (disable with ``-p no:openloop``).
Each ``.ol`` file that holds test blocks is collected as one file node with one item per block.
A block runs against the history of its file's folder, read recursively (what ``openloop test
FOLDER`` loads); that history is prepared once per session and shared by every file and
standpoint in it, so a folder with several ``.ol`` files is loaded once and each block is
collected exactly once, by the file that holds it. A failure reads like ``openloop test``:
each failed assertion with where it is, the expected and actual value and the rules' reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from resolver.language.model import TestBlock
    from resolver.testing.runner import BlockResult, TestRunner

_RUNNERS = pytest.StashKey[dict[Path, Any]]()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect ``.ol`` files that hold test blocks."""
    if file_path.suffix != ".ol":
        return None
    from resolver.testing.discovery import may_hold_tests

    if not may_hold_tests(file_path):
        return None
    return OlFile.from_parent(parent, path=file_path)


def _runner(config: pytest.Config, folder: Path) -> TestRunner:
    """The prepared history of ``folder`` (once per session), as a test runner."""
    from resolver import api
    from resolver.testing.runner import TestRunner

    runners = config.stash.setdefault(_RUNNERS, {})
    key = folder.resolve()
    if key not in runners:
        runners[key] = TestRunner(api.prepare([folder]))
    return runners[key]


class OlFile(pytest.File):
    """A ``.ol`` file: one item per test block written in it."""

    def collect(self) -> Iterator[OlItem]:
        from resolver.errors import InputError
        from resolver.testing.discovery import Suite

        try:
            runner = _runner(self.config, self.path.parent)
        except InputError as exc:
            raise self.CollectError(f"openloop could not load {self.path.parent}: {exc}") from None
        blocks = Suite((str(self.path.parent),), frozenset({self.path.resolve()})).blocks(
            runner.prepared
        )
        seen: dict[str, int] = {}
        for block in blocks:
            seen[block.name] = seen.get(block.name, 0) + 1
            name = block.name if seen[block.name] == 1 else f"{block.name} [{seen[block.name]}]"
            yield OlItem.from_parent(self, name=name, block=block, runner=runner)


class OlTestFailed(Exception):
    """Raised by an item whose block has failed assertions; carries the block's result."""

    def __init__(self, result: BlockResult) -> None:
        super().__init__(f"{len(result.failures)} assertion(s) failed")
        self.result = result


class OlItem(pytest.Item):
    """One ``test "name" { ... }`` block."""

    def __init__(self, *, block: TestBlock, runner: TestRunner, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.block = block
        self.runner = runner

    def runtest(self) -> None:
        result = self.runner.run_block(self.block)
        if not result.passed:
            raise OlTestFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, OlTestFailed):
            from resolver.testing.runner import format_failure

            result = excinfo.value.result
            head = f'{self.block.location}: test "{self.block.name}"'
            failures = "\n\n".join(format_failure(f) for f in result.failures)
            count = len(result.failures)
            return f"{head}: {count} of {len(result.results)} assertions failed\n\n{failures}"
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.block.location.line - 1, f'openloop test "{self.block.name}"'
