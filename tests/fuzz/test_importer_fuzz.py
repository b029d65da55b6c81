"""The importers under the same fuzzer: mutated exports must never crash ``openloop ingest``.

Each input is one of the sample exports in ``tests/ingest/data`` (GitHub issues and pull
requests as ``gh --json`` writes them, a JUnit XML report) with one to three mutations (see
:mod:`tests.fuzz.mutations`), imported in-process with ``openloop ingest github|junit`` into a
file. A run fails on a traceback, an exit code other than 0 or 2, an exit 2 that is not one
``FILE...: error:`` line or that leaves an output, or an output the loader refuses
(:func:`tests.fuzz.roundtrip.import_problem`). ``OPENLOOP_FUZZ_COUNT`` scales the
count (a fifth of it here, default 600).
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.fuzz.mutations import mutate
from tests.fuzz.roundtrip import import_problem
from tests.fuzz.test_crash_fuzz import COUNT, SEED

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data"
SOURCES = (("gh_issues.json", "github"), ("gh_prs.json", "github"), ("junit.xml", "junit"))


def fuzz_importers(count: int, seed: int, scratch: Path) -> list[str]:
    """Run ``count`` importer inputs; the reports of those that failed."""
    failures = []
    samples = {name: (DATA / name).read_bytes() for name, _ in SOURCES if (DATA / name).exists()}
    sources = [(name, source) for name, source in SOURCES if name in samples]
    for index in range(count):
        rng = random.Random(f"importer:{seed}:{index}")
        name, source = sources[index % len(sources)]
        data, steps = mutate(rng, name, samples[name])
        path = scratch / name
        path.write_bytes(data)
        output = scratch / "events.jsonl"
        argv = ["ingest", source, str(path), "-o", str(output)]
        problem = import_problem(argv, path, [output])
        if problem:
            failures.append(f"input {index} ({'; '.join(steps)}): {problem}")
    return failures


def test_mutated_exports_never_crash_an_importer(tmp_path):
    count = max(COUNT // 5, 1)
    failures = fuzz_importers(count, SEED, tmp_path)
    shown = "\n".join(failures[:5])
    assert not failures, f"{len(failures)} of {count} inputs failed (seed {SEED}):\n{shown}"
