"""The importers fuzzed from scratch (issue 29): every generated input either imports and reads
back cleanly through the loader, or is refused with exit 2 and one ``SOURCE...: error:`` line,
leaving nothing written; never a traceback, never a hang.

Inputs come from :mod:`tests.fuzz.sources`: GitHub exports, JUnit reports, and git repositories
built in a temporary folder by one ``git fast-import`` (random messages, trailers, identities,
dates, file names and TODO lines). Case ``N`` of seed ``S`` is a pure function of the two
(replay one with ``OPENLOOP_FUZZ_ONLY=N``). ``OPENLOOP_FUZZ_IMPORT_CASES`` sets the cases per
source (default 50, a few seconds each source); CI runs a longer pass as its own step. Each
case has ``HANG_SECONDS`` to finish: a case that takes longer fails as a hang.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fuzz import sources
from tests.fuzz.roundtrip import import_problem
from tests.fuzz.test_crash_fuzz import ONLY, SEED

CASES = int(os.environ.get("OPENLOOP_FUZZ_IMPORT_CASES", "50"))
HANG_SECONDS = 30


class _Hang(BaseException):
    """Raised by the alarm inside a case that ran past ``HANG_SECONDS``."""


def _alarm(signum: int, frame: object) -> None:
    raise _Hang(f"no answer within {HANG_SECONDS} s")


def _github(rng: random.Random, scratch: Path) -> tuple[list[str], Path, list[Path]] | None:
    source = scratch / "gh.json"
    source.write_bytes(sources.github_export(rng))
    out, ol = scratch / "out.jsonl", scratch / "out.ol"
    argv = ["ingest", "github", str(source), "-o", str(out)]
    return (
        ([*argv, "--ol", str(ol)], source, [out, ol])
        if rng.random() < 0.7
        else (argv, source, [out])
    )


def _junit(rng: random.Random, scratch: Path) -> tuple[list[str], Path, list[Path]] | None:
    source = scratch / "report.xml"
    source.write_bytes(sources.junit_report(rng))
    out = scratch / "out.jsonl"
    extra = ["--at", "2024-03-05T00:00:00Z"] if rng.random() < 0.5 else []
    return ["ingest", "junit", str(source), "-o", str(out), *extra], source, [out]


def _git(rng: random.Random, scratch: Path) -> tuple[list[str], Path, list[Path]] | None:
    repo = scratch / "repo"
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=env)
    built = subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=repo,
        input=sources.git_history(rng),
        capture_output=True,
        env=env,
    )
    if built.returncode != 0:
        return None  # git itself refused the history (an identity or date it cannot hold)
    out = scratch / "out.jsonl"
    todos = ["--todos"] if rng.random() < 0.7 else []
    return ["ingest", "git", str(repo), "-o", str(out), *todos], repo, [out]


SOURCES: dict[str, Callable[[random.Random, Path], tuple[list[str], Path, list[Path]] | None]] = {
    "github": _github,
    "junit": _junit,
    "git": _git,
}


def fuzz(kind: str, count: int, seed: int, scratch: Path, only: int | None = None):
    """Run ``count`` cases of one source; the failure reports and how many git refused."""
    failures, refused = [], 0
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for index in [only] if only is not None else range(count):
            case = scratch / f"case-{index}"
            case.mkdir()
            rng = random.Random(f"{kind}:{seed}:{index}")
            signal.alarm(HANG_SECONDS)
            try:
                built = SOURCES[kind](rng, case)
                if built is None:
                    refused += 1
                    continue
                argv, source, outputs = built
                problem = import_problem(argv, source, outputs)
            except _Hang as exc:
                problem = f"a hang: {exc}"
            finally:
                signal.alarm(0)
            if problem is not None:
                failures.append(
                    f"{kind} case {index} (seed {seed}): openloop {argv[:2]}: {problem}"
                )
    finally:
        signal.signal(signal.SIGALRM, previous)
    return failures, refused


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_generated_inputs_import_and_read_back_or_are_refused(tmp_path: Path, kind: str) -> None:
    only = int(ONLY) if ONLY is not None else None
    failures, refused = fuzz(kind, CASES, SEED, tmp_path, only)
    shown = "\n".join(failures[:5])
    assert not failures, f"{len(failures)} of {CASES} {kind} inputs failed:\n{shown}"
    assert refused <= CASES // 2, f"git refused {refused} of {CASES} generated histories"


def test_the_generators_are_deterministic() -> None:
    for make in (sources.github_export, sources.junit_report, sources.git_history):
        first = [make(random.Random(f"d:{n}")) for n in range(20)]
        assert first == [make(random.Random(f"d:{n}")) for n in range(20)]
        assert len(set(first)) > 10  # and they vary
