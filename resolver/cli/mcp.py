"""``openloop mcp``: serve the history to agents over the Model Context Protocol (SPEC §8).

Needs the optional extra ``openloop-resolver[mcp]`` (the official ``mcp`` SDK); without it the
command says how to install it and exits 2.
"""

from __future__ import annotations

import argparse

from resolver.cli.common import add_paths
from resolver.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``mcp`` subcommand."""
    parser = subparsers.add_parser(
        "mcp",
        help="serve the history to agents as a Model Context Protocol server (stdio)",
        description="A Model Context Protocol server on stdin/stdout. Read-only tools status, "
        "check, explain and ready return the --format json contract of their command as "
        "structured content (with its JSON Schema as output schema); record(event) appends "
        "one event to the log as the --as identity (an agent): another by, a given recorded "
        "or seq, or an authoritative channel is refused. Each task's receipt is a resource "
        "openloop://receipt/TASK. The history stays prepared between calls and is read again "
        "when a file changes.",
        epilog="example (.mcp.json): "
        '{"mcpServers": {"openloop": {"command": "openloop", "args": ["mcp", "history/"]}}}',
    )
    add_paths(parser)
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="the .jsonl log `record` appends to (default: the single .jsonl among PATHs)",
    )
    parser.add_argument(
        "--as",
        dest="identity",
        default="agent",
        metavar="ACTOR",
        help="the identity record writes under, always treated as an agent (default: agent)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes the session."""
    try:
        from resolver.agents.mcp_server import serve
    except ImportError as exc:
        raise InputError(
            f"openloop mcp needs the MCP SDK ({exc.name or exc}): "
            "pip install 'openloop-resolver[mcp]'"
        ) from None
    serve(args.paths, args.log, args.identity)
    return 0
