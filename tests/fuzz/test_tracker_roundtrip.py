"""The tracker importers (beads, Task Master) under the importer property: mutated samples of
``tests/trackers/data`` import and read back through the loader, or are refused with exit 2 and
nothing written (:func:`tests.fuzz.roundtrip.import_problem`). A known failure found by this
fuzzer is kept as an expected failure until its importer is fixed."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.fuzz.mutations import mutate
from tests.fuzz.roundtrip import import_problem
from tests.fuzz.test_crash_fuzz import SEED

DATA = Path(__file__).resolve().parents[1] / "trackers" / "data"
SOURCES = (
    ("beads_issues.jsonl", "beads"),
    ("taskmaster_tasks.json", "taskmaster"),
)
CASES = int(os.environ.get("OPENLOOP_FUZZ_IMPORT_CASES", "50"))


def _argv(kind: str, source: Path, out: Path, ol: Path) -> list[str]:
    return ["ingest", kind, str(source), "-o", str(out), "--ol", str(ol)]


@pytest.mark.parametrize(("name", "kind"), SOURCES)
def test_mutated_tracker_exports_read_back_or_are_refused(tmp_path: Path, name, kind) -> None:
    sample = (DATA / name).read_bytes()
    failures = []
    for index in range(CASES):
        data, steps = mutate(random.Random(f"tracker:{SEED}:{kind}:{index}"), name, sample)
        source, out, ol = tmp_path / name, tmp_path / "out.jsonl", tmp_path / "out.ol"
        source.write_bytes(data)
        problem = import_problem(_argv(kind, source, out, ol), source, [out, ol])
        if problem is not None:
            failures.append(f"{kind} case {index} ({'; '.join(steps)}): {problem}")
    assert not failures, "\n".join(failures[:5])


def test_beads_fields_with_an_escape_read_back_or_are_refused(tmp_path: Path) -> None:
    line = (DATA / "beads_issues.jsonl").read_text(encoding="utf-8").splitlines()[0]
    source = tmp_path / "issues.jsonl"
    out, ol = tmp_path / "out.jsonl", tmp_path / "out.ol"
    for old, new in (("fixed in the loader", "e\\u001b[2K"), ('"alice"', '"e\\u001b[2K"')):
        source.write_text(line.replace(old, new) + "\n", "utf-8")
        assert import_problem(_argv("beads", source, out, ol), source, [out, ol]) is None
