"""``python -m lab bench|eval|study ...``: the lab's commands, run from a checkout.

The same conventions as ``openloop``: exit 0 on success, 1 when a measurement failed or a
figure or target was not met (per command), 2 for bad input with one line on standard error and
nothing written, 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lab.bench import command as bench
from lab.evaluation import command as evaluation
from resolver.errors import InputError
from resolver.faces.safe_text import terminal
from resolver.output import check_target

#: Exit code after Ctrl-C, as shells report a command killed by SIGINT.
INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    """The parser with the lab's three commands."""
    parser = argparse.ArgumentParser(
        prog="python -m lab",
        description="The laboratory beside openloop: benchmarks on generated and real "
        "histories, the accuracy study, and the seeds' experiments. Run from a checkout.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    bench.register(subparsers)
    evaluation.register(subparsers)
    study = subparsers.add_parser(
        "study",
        help="the accuracy study on a real git history (a bundle or a clone), in Markdown",
        description="Clone the history, run openloop init and ingest git --todos, judge every "
        "TODO instance and issue expectation at three standpoints along the first-parent line, "
        "compare with ground truth read from git, and print the write-up in Markdown (with the "
        "output sizes a maintainer reads at HEAD). Exit 0 when every target is met, 1 otherwise.",
    )
    study.add_argument("bundle", type=Path, metavar="BUNDLE", help="a git bundle or clone")
    study.set_defaults(func=_study)
    return parser


def _study(args: argparse.Namespace) -> int:
    from lab.study.report import run_study_command

    return run_study_command(args.bundle)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one of the lab's commands; returns its exit code."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    try:
        output = getattr(args, "output", None)
        if isinstance(output, str) and output != "-":
            check_target(output)
        return int(args.func(args))
    except InputError as exc:
        print(terminal(str(exc)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("lab: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
