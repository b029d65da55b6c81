"""``openloop ready``: the obligations that can be worked on now (SPEC §8).

Open, not blocked, every precondition met (derived by ``rules/query/ready.lp``), the earliest
bound first.
"""

from __future__ import annotations

import argparse
import json

from resolver import api
from resolver.agents.ready import render_text, to_dict
from resolver.cli.common import add_output, add_paths, add_standpoint, emit, prepare, standpoint


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``ready`` subcommand."""
    parser = subparsers.add_parser(
        "ready",
        help="list the obligations that can be worked on now, earliest bound first",
        description="List every expectation that is OPEN, not blocked, and whose preconditions "
        "(requires) are all met at the standpoint, sorted by bound (earliest first, unbounded "
        "last). Open obligations still waiting on a precondition are listed after them.",
        epilog="example: openloop ready fixtures/support-mission/base --at 2024-09-02T12:00",
    )
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default: text)"
    )
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resolve and print what is ready."""
    result = api.ready(prepare(args), standpoint(args))
    if args.format == "json":
        text = json.dumps(to_dict(result), indent=2, ensure_ascii=False) + "\n"
    else:
        text = render_text(result)
    emit(text, args.output)
    return 0
