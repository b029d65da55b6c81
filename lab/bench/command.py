"""``python -m lab bench``: time reading, loading, preparing and resolving synthetic histories.

Also the sequence-gaps history (``--gaps``), the real-history rows of git bundles (``--real``)
and, kept here for the commands already written down, the accuracy study (``--study``, the same
as ``python -m lab study``). The product's ``openloop bench PATH`` times a user's own history
(:mod:`resolver.benchmark`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from lab.bench import gaps_bench, harness
from resolver.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` subcommand."""
    parser = subparsers.add_parser(
        "bench",
        help="benchmark openloop on generated histories (floor, cold, warm, peak RSS)",
        description="Generate deterministic synthetic histories and measure, each size in a "
        "fresh process: floor (reading the .jsonl with the json module), cold "
        "(load + prepare + resolve one standpoint), warm (one more standpoint) and "
        "peak RSS, with ratios to the floor and the performance targets (PASS/MISS); "
        "then what a user runs, in CPU seconds: status --format json end to end (with and "
        "without partitions), the median of --warm-queries standpoints, explain, check, and "
        "with --compare two yardsticks: a hand-rolled SQLite state-tier query, and the least a "
        "long-lived solver with the standpoint as externals could cost per query. "
        "Progress goes to stderr.",
    )
    parser.add_argument(
        "--events", type=_count, metavar="N", help="measure this one size (default: --sizes)"
    )
    parser.add_argument(
        "--sizes",
        type=_sizes,
        metavar="N,N...",
        default=harness.DEFAULT_SIZES,
        help="comma-separated event counts (default: 10000,100000)",
    )
    parser.add_argument("--million", action="store_true", help="also measure 1,000,000 events")
    parser.add_argument(
        "--gaps",
        action="store_true",
        help="instead, measure a history whose seq steps by 2 (a gap at every second number) "
        "against its gap-free twin, in table and JSON form (target: within 3x in time and "
        f"memory; default {gaps_bench.EVENTS:,} events, {gaps_bench.EXPECTATIONS} expectations)",
    )
    parser.add_argument(
        "--expectations",
        type=_count,
        metavar="X",
        help="expectations and obligations per history (default: events/100, between 5 and 1000)",
    )
    parser.add_argument(
        "--runs",
        type=_count,
        default=3,
        metavar="R",
        help="runs of floor and cold; medians are reported (default: 3)",
    )
    parser.add_argument(
        "--standpoints",
        type=_count,
        default=7,
        metavar="W",
        help="random standpoints timed warm; the median is reported (default: 7)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="seed of the generator and of the standpoints (default: 0)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="keep generated histories in DIR and reuse them on later runs "
        "(default: a temporary folder, removed afterwards)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="give up on a size after this long (reported as an error)",
    )
    parser.add_argument(
        "--memory-limit-mb",
        type=int,
        default=16_384,
        metavar="MB",
        help="address-space cap of each measuring process, to protect the "
        "machine (default: 16384; 0 for none)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="also profile one cold run and the warm standpoints with cProfile: "
        "DIR/SIZE/{cold,warm}.prof and top-25 summaries .txt",
    )
    parser.add_argument(
        "--warm-queries",
        type=_count,
        default=100,
        metavar="Q",
        help="warm standpoints of the user-facing row, median per query (default: 100)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="add two yardsticks on the same history: a hand-rolled SQLite state-tier query, "
        "and one clingo Control grounded once with the standpoint as externals (nine rules: "
        "the least a long-lived solver could cost per query)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per size, one per line, instead of a table",
    )
    parser.add_argument(
        "--study",
        type=Path,
        metavar="BUNDLE",
        help="instead: the accuracy study on a real git history (a repository or bundle): "
        "clone, ingest --todos, judge at three standpoints, compare with git, print Markdown "
        "(the same as: python -m lab study BUNDLE)",
    )
    parser.add_argument(
        "--real",
        nargs="+",
        metavar="BUNDLE",
        help="instead: the real-history row of each git bundle: clone, ingest --todos, then "
        "status (from the files, then on the store), explain, report and the hook, each in a "
        "fresh interpreter, CPU seconds and peak RSS",
    )
    parser.set_defaults(func=run)


def _count(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(_count(part) for part in text.split(",") if part.strip())


def _ensure_folder(option: str, folder: Path | None) -> None:
    """Create ``folder`` now, so that a file in its place or a read-only parent is bad input
    (exit 2) before anything is generated."""
    if folder is None:
        return
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{option}: '{folder}' is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{option}: cannot create '{folder}': {exc.strerror or exc}") from None


def _real(args: argparse.Namespace) -> int:
    """``--real BUNDLE...``: the real-history row of each bundle."""
    from lab.bench import real_rows

    for bundle in args.real:
        if not Path(bundle).is_file():
            raise InputError(f"--real: no such bundle: {bundle}")
    results = []
    for bundle in args.real:
        result = real_rows.measure(bundle, lambda m: print(f"[bench real] {m}", file=sys.stderr))
        results.append(result)
        if args.json:
            print(json.dumps({"schema_version": 1, **result}), flush=True)
    if not args.json:
        sys.stdout.write(real_rows.table(results))
    return 0


def _gaps(args: argparse.Namespace) -> int:
    """The sequence-gaps measurement; exit 1 if a run failed (a MISS is not a failure)."""
    with tempfile.TemporaryDirectory(prefix="openloop-gaps-") as scratch:
        result = gaps_bench.measure(
            args.data or Path(scratch),
            args.events or gaps_bench.EVENTS,
            args.expectations or gaps_bench.EXPECTATIONS,
            args.memory_limit_mb or None,
            args.timeout,
        )
    sys.stdout.write(json.dumps(result) + "\n" if args.json else gaps_bench.table(result))
    failed = any(
        "error" in result[f][side] for f in gaps_bench.FORMATS for side in ("gaps", "twin")
    )
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    """Measure every size; exit 1 if a size could not be measured (crash or timeout).

    The commands measured run as an installed package's do, their bytecode written and read:
    with ``PYTHONDONTWRITEBYTECODE`` set (some environments set it) every fresh interpreter
    would compile every module from source, a cost no user pays after the first run."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.study is not None:
        from lab.study.report import run_study_command

        return run_study_command(args.study)
    if args.real:
        return _real(args)
    sizes = (args.events,) if args.events else tuple(args.sizes)
    if args.million and harness.MILLION not in sizes:
        sizes = (*sizes, harness.MILLION)
    if any(size < 20 for size in sizes):
        raise InputError("--events/--sizes: a synthetic history needs at least 20 events")
    for option, folder in (("--data", args.data), ("--profile", args.profile)):
        _ensure_folder(option, folder)
    if args.gaps:
        return _gaps(args)
    options = harness.Options(
        sizes=sizes,
        expectations=args.expectations,
        runs=args.runs,
        standpoints=args.standpoints,
        seed=args.seed,
        data=args.data,
        timeout=args.timeout,
        memory_limit_mb=args.memory_limit_mb or None,
        profile=args.profile,
        warm_queries=args.warm_queries,
        compare=args.compare,
    )

    def stream(result: dict) -> None:
        if args.json:
            print(json.dumps({"schema_version": 1, "kind": "bench", **result}), flush=True)

    results = harness.run(options, on_result=stream)
    if not args.json:
        sys.stdout.write(harness.table(results))
    return 1 if any(r.get("error") for r in results) else 0
