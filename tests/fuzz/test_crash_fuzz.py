"""The crash fuzzer: mutated fixture histories must never crash a command.

Every input is written to a scratch folder and run in-process through
``resolver.cli.main.main`` with standard output and error captured (stdout is a strict UTF-8
stream, as a terminal or a pipe is, so unencodable text is a crash too). A run fails on any
exception escaping ``main`` (a traceback), on an exit code other than 0, 1, 2 or 3, and on an
exit 2 whose message is not one ``error:`` line. Every input is linted; a share of those that
load is also resolved by a command chosen in turn (every format of ``status``, ``check``,
``explain``, ``receipt``, ``graph``, and ``test``), with the history's snapshot mutated too.

``OPENLOOP_FUZZ_COUNT`` sets the number of inputs (default 2,400, in three slices of about 12 s);
``OPENLOOP_FUZZ_SEED`` the seed (default 0). Replay one input with ``OPENLOOP_FUZZ_ONLY=N``.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import shutil
import traceback
from pathlib import Path

import pytest

from resolver.cli.main import main
from tests.fuzz.mutations import Mutant, histories, mutant

COUNT = int(os.environ.get("OPENLOOP_FUZZ_COUNT", "2400"))
SEED = int(os.environ.get("OPENLOOP_FUZZ_SEED", "0"))
ONLY = os.environ.get("OPENLOOP_FUZZ_ONLY")
#: Share of loadable inputs that are also resolved (the rest are only linted).
RESOLVE_SHARE = 0.15
ALLOWED = {0, 1, 2, 3}
STANDPOINTS = (
    ["--at", "2024-08-23"],
    ["--at", "2024-09-30", "--known", "latest"],
    ["--at", "2030-01-01"],
)
_DEEP = (
    ["status", "--format", "table"],
    ["status", "--format", "json"],
    ["status", "--format", "md"],
    ["check"],
    ["check", "--format", "json"],
    ["check", "--format", "github"],
    ["check", "--format", "sarif"],
    ["explain", "{x}"],
    ["explain", "{x}", "--format", "json"],
    ["explain", "{x}", "--why-not", "satisfied"],
    ["receipt", "{t}"],
    ["graph", "--format", "graphml"],
    ["graph", "--format", "lifelines"],
    ["graph", "--format", "mermaid"],
    ["test"],
)
_EXPECTATION = re.compile(rb"(?:expectation|obligation)\s+([A-Za-z_][\w.:/@+-]*)")
_TASK = re.compile(rb"task\s+([A-Za-z_][\w.:/@+-]*)\s*\{")


def _run(argv: list[str]) -> tuple[int | None, str, str]:
    """Exit code (None after an escaped exception), stdout, stderr or the traceback."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="")
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
            out.flush()
    except BaseException:  # a traceback is exactly what the fuzzer looks for
        return None, "", traceback.format_exc()
    return code, raw.getvalue().decode("utf-8"), err.getvalue()


def _problem(code: int | None, err: str) -> str | None:
    if code is None:
        return "exception escaped main"
    if code not in ALLOWED:
        return f"exit code {code}"
    if code == 2 and (err.count("\n") != 1 or "error:" not in err):
        return "exit 2 without a one-line error message"
    return None


def _write(folder: Path, case: Mutant) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, data in case.files.items():
        (folder / name).write_bytes(data)


def _commands(case: Mutant, folder: Path, rng: random.Random) -> list[list[str]]:
    commands = [["lint", str(folder)]]
    if rng.random() >= RESOLVE_SHARE:
        return commands
    text = b"".join(data for name, data in case.files.items() if name.endswith(".ol"))
    x = (_EXPECTATION.findall(text) or [b"nothing"])[0].decode("utf-8", "replace")
    t = (_TASK.findall(text) or [b"nothing"])[0].decode("utf-8", "replace")
    deep = [part.format(x=x, t=t) for part in rng.choice(_DEEP)]
    command = [deep[0], *deep[1:], str(folder)]
    if deep[0] != "test":
        command += rng.choice(STANDPOINTS)
        snapshot = folder / "snapshot.json"
        if snapshot.exists() and deep[0] in ("status", "explain"):
            command += ["--snapshot", str(snapshot)]
    commands.append(command)
    return commands


def fuzz(
    count: int, seed: int, scratch: Path, only: int | None = None, part: tuple[int, int] = (0, 1)
) -> list[str]:
    """Run ``count`` inputs (of them the ``part[0]``-th of ``part[1]`` interleaved slices);
    the reports of those that failed (empty when none did)."""
    pool = histories()
    failures = []
    indices = [only] if only is not None else range(part[0], count, part[1])
    for index in indices:
        case = mutant(pool, seed, index)
        folder = scratch / "history"
        _write(folder, case)
        rng = random.Random(f"{seed}:{index}:commands")
        for number, argv in enumerate(_commands(case, folder, rng)):
            code, _, err = _run(argv)
            if number == 0 and code != 0:
                problem = _problem(code, err)
                if problem:
                    failures.append(_report(index, case, argv, problem, err))
                break  # only loadable histories go on to be resolved
            problem = _problem(code, err)
            if problem:
                failures.append(_report(index, case, argv, problem, err))
    return failures


def _report(index: int, case: Mutant, argv: list[str], problem: str, err: str) -> str:
    fixture = case.source.folder.relative_to(case.source.folder.parents[1])
    return (
        f"input {index} ({fixture}; {'; '.join(case.steps)}): openloop "
        f"{' '.join(a if len(a) < 60 else a[:57] + '...' for a in argv)}: {problem}\n{err}"
    )


#: The inputs run as this many tests, so that parallel workers share them.
SLICES = 3


@pytest.mark.parametrize("part", range(SLICES))
def test_mutated_fixtures_never_crash(tmp_path, part):
    if ONLY is not None and part:
        pytest.skip("OPENLOOP_FUZZ_ONLY replays one input, in the first slice")
    only = int(ONLY) if ONLY is not None else None
    failures = fuzz(COUNT, SEED, tmp_path, only, (part, SLICES))
    shown = "\n".join(failures[:5])
    assert not failures, f"{len(failures)} of {COUNT} inputs failed (seed {SEED}):\n{shown}"


def test_the_generator_is_deterministic():
    pool = histories()
    assert [mutant(pool, 7, i).files for i in range(30)] == [
        mutant(pool, 7, i).files for i in range(30)
    ]
    assert {mutant(pool, 0, i).source.folder for i in range(len(pool))} == {
        h.folder for h in pool
    }, "every fixture history is mutated"
