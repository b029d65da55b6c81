"""``openloop init [REPO] [--ol FILE] [--force]``: write a starter ``.ol`` for a repository.

A first run should show something true (issue 27.4): the starter (:mod:`resolver.init_starter`)
declares the repository's channel, its bots, the TODO-debt policy and one expectation per issue,
so ``init``, ``ingest git --todos`` and ``status`` give the TODO debt with nothing written by
hand. The file goes through the one output path (:mod:`resolver.output`): written whole or
not at all, never over an existing file without ``--force`` (the check and the write are one
step), never over an input. The ``history/`` folder the next commands write into is created
beside it.
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path

from resolver import inputs
from resolver.ingest.gitrun import Repository
from resolver.init_starter import BOT_PATTERNS, Starter, build
from resolver.output import check_target, target_error, write_bytes

#: Where the starter goes unless ``--ol`` says otherwise.
DEFAULT_OL = "openloop.ol"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``init`` subcommand."""
    parser = subparsers.add_parser(
        "init",
        help="write a starter .ol for a repository (channels, bots, TODO debt, issues)",
        description="Write a starter .ol for REPO: the commits channel as a system of record, "
        "bot authors as agents, the TODO-debt policy (SPEC 6.1) and one expectation per issue "
        "the history closes with a keyword (or, with --github, per issue of an `ingest github` "
        "export). Prints what it wrote and the next two commands. Never replaces an existing "
        "file unless --force.",
        epilog="example: openloop init . && openloop ingest git . --todos -o "
        "history/commits.jsonl && openloop status openloop.ol history/",
    )
    parser.add_argument(
        "repo", nargs="?", default=".", metavar="REPO", help="the git repository (default: .)"
    )
    parser.add_argument(
        "--ol",
        default=DEFAULT_OL,
        metavar="FILE",
        help=f"the file to write (default: {DEFAULT_OL} in the current folder)",
    )
    parser.add_argument("--rev", default="HEAD", metavar="REV", help="tip to read (default: HEAD)")
    parser.add_argument(
        "--github",
        action="append",
        metavar="FILE.json",
        help="an `ingest github` export (gh issue/pr list --json ...): the issues' "
        "expectations come from it instead of the history's closing keywords (repeatable)",
    )
    parser.add_argument(
        "--issue-prefix",
        default="issue-",
        metavar="P",
        help="id prefix of issues (default: issue-)",
    )
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the starter, write it, say what it holds and what to run next."""
    target = args.ol
    check_target(target)  # a folder, or a missing folder: refused before the history is read
    if not args.force and os.path.lexists(target):
        raise target_error(target, "already exists; --force replaces it")
    for name in args.github or ():
        inputs.note(name)
    repo = Repository(args.repo)
    starter = build(repo, args.rev, args.github, args.issue_prefix)
    write_bytes(starter.text.encode("utf-8"), target, replace=args.force)
    history = Path(target).parent / "history"
    history.mkdir(exist_ok=True)
    print(_summary(args, starter, target, history))
    return 0


def _summary(args: argparse.Namespace, starter: Starter, target: str, history: Path) -> str:
    issues = starter.issues
    shown = ", ".join(issues[:3]) + (", ..." if len(issues) > 3 else "")
    lines = [
        f"wrote {target}:",
        f"  channels: {', '.join(starter.channels)} (work, authoritative)",
        f"  bot authors as agents: {len(BOT_PATTERNS)} e-mail patterns",
        "  policy todo-removed: every TODO/FIXME/XXX/HACK comment owes its removal",
        f"  {len(issues)} issue expectation(s) from {starter.issues_from}"
        + (f": {shown}" if issues else ""),
        "next:",
        f"  openloop ingest git {shlex.quote(args.repo)} --todos -o "
        f"{shlex.quote(str(history / 'commits.jsonl'))}",
    ]
    for name in args.github or ():
        lines.append(
            f"  openloop ingest github {shlex.quote(name)} -o "
            f"{shlex.quote(str(history / 'issues.jsonl'))}"
        )
    lines.append(f"  openloop status {shlex.quote(target)} {shlex.quote(str(history))}/")
    return "\n".join(lines)
