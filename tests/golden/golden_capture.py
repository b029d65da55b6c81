"""The command outputs the golden test compares: every fixture history, every standpoint its
test blocks name, through ``status``, ``check``, ``graph``, ``explain`` and ``receipt``.

Run ``python tests/golden/golden_capture.py`` to write the golden files again (only after a
change that is meant to alter an output; say which in the change).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from resolver.cli.main import main
from resolver.language.loader import load
from resolver.language.model import StandpointClause
from resolver.times import format_time

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
GOLDEN = Path(__file__).resolve().parent


def histories() -> list[Path]:
    """Every folder under fixtures/ that holds files of its own (one history each) and has a
    golden file (a new fixture gets one when the golden files are written again)."""
    found = []
    for folder in sorted(p for p in FIXTURES.rglob("*") if p.is_dir()):
        if any(f.suffix in (".ol", ".jsonl") for f in folder.iterdir() if f.is_file()):
            found.append(folder)
    return found


def goldens() -> list[Path]:
    """The histories that have a golden file."""
    return [h for h in histories() if golden_path(h).exists()]


def golden_path(history: Path) -> Path:
    """``fixtures/support-mission/base`` → ``tests/golden/support-mission__base.txt``."""
    return GOLDEN / ("__".join(history.relative_to(FIXTURES).parts) + ".txt")


def _standpoints(history: Path) -> list[list[str]]:
    project = load([history])
    seen: list[list[str]] = []
    for block in project.tests:
        for step in block.steps:
            if not isinstance(step, StandpointClause):
                continue
            args = ["--at", format_time(step.at)]
            if step.known_latest:
                args += ["--known", "latest"]
            elif step.known is not None:
                args += ["--known", format_time(step.known)]
            if args not in seen:
                seen.append(args)
    return seen or [["--at", "2100-01-01", "--known", "latest"]]


def commands(history: Path) -> Iterator[list[str]]:
    """The argument lists run on one history (paths relative to the repository)."""
    where = str(history.relative_to(ROOT))
    project = load([history])
    points = _standpoints(history)
    for point in points:
        yield ["status", where, *point, "--format", "json", "--reasons", "all"]
        yield ["status", where, *point]
        yield ["check", where, *point]
        yield ["graph", where, *point, "--format", "json"]
        for task in project.tasks:
            yield ["receipt", task.id, where, *point]
            yield ["check", where, *point, "--task", task.id, "--format", "json"]
    last = points[-1]
    for item in [x.id for x in project.expectations] + [t.id for t in project.tasks]:
        yield ["explain", item, where, *last, "--full"]
        yield ["explain", item, where, *last, "--format", "json", "--full"]
    for x in project.expectations:
        for status in ("satisfied", "cancelled", "open"):
            yield ["explain", x.id, where, *last, "--why-not", status, "--full"]


def run(argv: list[str]) -> str:
    """One command's exit code, stdout and stderr as text, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    text = f"$ openloop {' '.join(argv)}\n[exit {code}]\n{out.getvalue()}"
    if err.getvalue():
        text += f"[stderr]\n{err.getvalue()}"
    return text


def render(history: Path) -> str:
    """The golden text of one history."""
    return "\n".join(run(argv) for argv in commands(history))


def write_all() -> None:
    """Write every golden file."""
    chosen = [FIXTURES / name for name in sys.argv[1:]] or goldens() or histories()
    for history in chosen:
        golden_path(history).write_text(render(history), encoding="utf-8")
        print(golden_path(history).name)


if __name__ == "__main__":
    sys.exit(write_all())
