"""The mutation check: delete each rule of ``rules/`` in turn and require a failing rules test.

Every statement of every ``.lp`` file (a rule, a fact, a constraint, a ``#show``) is deleted
in turn; the rules tests (``tests/rules/test_*.py``, facts in and atoms out) then run in this
process against the program without it, the tests of the mutated file first, stopping at the
first failure. A deletion that no test notices is a rule no test guards: it is listed, and the
check exits 1 unless every deletion was caught. Prints the kill rate.

    python tests/mutation/run.py                 # every rule file, both cores
    python tests/mutation/run.py --only tiers    # the files whose name contains "tiers"
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from resolver import resources  # noqa: E402
from resolver.engine import prepared as engine  # noqa: E402

#: A statement ends with a dot followed by white space or the end (``1..3`` is no end).
_END = re.compile(r"(?<!\.)\.(?=\s|$)")


@dataclass(frozen=True)
class Mutant:
    """One statement deleted: where it was and what it said."""

    file: str
    line: int
    statement: str
    program: str


def statements(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` spans of the statements of one rule file (comments and ``#program``
    directives are not statements)."""
    blank = re.sub(r"%[^\n]*", lambda m: " " * len(m.group(0)), text)
    spans, start = [], 0
    for match in _END.finditer(blank):
        body = blank[start : match.start()]
        if body.strip() and not body.strip().startswith("#program"):
            offset = len(body) - len(body.lstrip())
            spans.append((start + offset, match.end()))
        start = match.end()
    return spans


def mutants(only: str | None = None) -> list[Mutant]:
    """Every one-statement deletion of the rule files (whose path contains ``only``)."""
    files = resources.rule_files()
    texts = [path.read_text(encoding="utf-8") for path in files]
    root = resources.data_dir("rules")
    found = []
    for index, path in enumerate(files):
        name = path.relative_to(root).as_posix()
        if only and only not in name:
            continue
        text = texts[index]
        for start, end in statements(text):
            mutated = text[:start] + " " * (end - start) + text[end:]
            program = "\n".join(mutated if i == index else t for i, t in enumerate(texts))
            line = text.count("\n", 0, start) + 1
            found.append(Mutant(name, line, " ".join(text[start:end].split()), program))
    return found


def rules_tests() -> list[tuple[str, Callable[[], None]]]:
    """``(module stem, test function)`` of every rules test, in file order."""
    tests = []
    for path in sorted((ROOT / "tests" / "rules").glob("test_*.py")):
        module = importlib.import_module(f"tests.rules.{path.stem}")
        for name, value in vars(module).items():
            if name.startswith("test_") and callable(value):
                tests.append((path.stem, value))
    return tests


def _failing(program: str, ordered: list[tuple[str, Callable[[], None]]]) -> str | None:
    """The name of the first test that fails against ``program``, or None."""
    engine._rules_program = lambda: program  # type: ignore[assignment]
    for _, test in ordered:
        try:
            test()
        except KeyboardInterrupt:
            raise
        except BaseException:  # any failure (pytest's fail() is not an Exception) kills it
            return test.__name__
    return None


def _judge(mutant: Mutant) -> tuple[Mutant, str | None]:
    stem = "test_" + Path(mutant.file).stem
    tests = rules_tests()
    ordered = [t for t in tests if t[0] == stem] + [t for t in tests if t[0] != stem]
    return mutant, _failing(mutant.program, ordered)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="mutate only the rule files whose path contains this")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    original = engine._rules_program()
    broken = _failing(original, rules_tests())
    if broken is not None:
        print(f"the rules tests fail on the unmutated rules ({broken}): fix them first")
        return 2
    todo = mutants(args.only)
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(_judge, todo, chunksize=4)
    survivors = [m for m, killer in results if killer is None]
    for m in survivors:
        print(f"survived: rules/{m.file}:{m.line}: {m.statement}")
    killed = len(todo) - len(survivors)
    rate = 100.0 * killed / len(todo) if todo else 100.0
    elapsed = time.monotonic() - started
    print(f"mutation check: {killed}/{len(todo)} deletions killed ({rate:.1f}%) in {elapsed:.0f} s")
    return 0 if not survivors else 1


if __name__ == "__main__":
    sys.exit(main())
