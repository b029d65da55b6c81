"""The size of what a maintainer reads at HEAD of the study's history, measured as a user runs it.

Each output is produced by the real command in a subprocess (``status --format json``,
``explain`` of the TODO instance with the most candidates, ``graph --format mermaid``,
``report``), and its bytes and lines are recorded with the time it took.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from lab.study.truth import StudyPoint
from resolver import times

__all__ = ["first_screen", "measure"]


def _run(arguments: Sequence[str]) -> tuple[str, float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "resolver", *arguments], capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1, 3):
        raise RuntimeError(f"openloop {arguments[0]} failed: {done.stderr.strip()[-300:]}")
    return done.stdout, elapsed


def first_screen(folder: Path, lines: int = 50) -> tuple[str, int]:
    """The first ``lines`` lines of ``openloop status FOLDER`` (at now, as a user first runs it)
    and how many lines the whole output has."""
    text, _ = _run(["status", str(folder)])
    return "\n".join(text.split("\n")[:lines]), text.count("\n")


def measure(history: Path, point: StudyPoint) -> dict[str, int]:
    """Bytes, lines, counts and milliseconds of each output at ``point``."""
    at = times.format_time(point.time)
    where = [str(history), "--at", at]
    sizes: dict[str, int] = {}
    text, seconds = _run(["status", *where, "--format", "json"])
    sizes["status_json_bytes"] = len(text.encode())
    sizes["status_json_ms"] = round(seconds * 1000)
    data = json.loads(text)
    expectations = data.get("expectations", [])
    sizes["expectations"] = len(expectations)
    sizes["reasons"] = sum(len(x.get("reasons", [])) for x in expectations)
    sizes["reasons_omitted"] = sum(int(x.get("reasons_omitted", 0)) for x in expectations)
    text, seconds = _run(["status", *where])
    sizes["status_table_lines"] = text.count("\n")
    sizes["status_table_ms"] = round(seconds * 1000)
    todos = [x for x in expectations if str(x.get("id", "")).startswith("todo-")]
    if todos:
        busiest = max(todos, key=lambda x: len(x.get("reasons", [])) + x.get("reasons_omitted", 0))
        text, _ = _run(["explain", busiest["id"], *where])
        sizes["explain_lines"] = text.count("\n")
        try:
            text, _ = _run(["explain", busiest["id"], *where, "--full"])
            sizes["explain_full_lines"] = text.count("\n")
        except RuntimeError:  # an explain without --full prints everything already
            sizes["explain_full_lines"] = sizes["explain_lines"]
    text, _ = _run(["graph", *where, "--format", "mermaid"])
    sizes["graph_mermaid_lines"] = text.count("\n")
    with tempfile.TemporaryDirectory() as scratch:
        page = Path(scratch) / "report.html"
        _, seconds = _run(["report", *where, "-o", str(page)])
        sizes["report_bytes"] = page.stat().st_size if page.exists() else 0
        sizes["report_ms"] = round(seconds * 1000)
    return sizes
