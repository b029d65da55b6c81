"""``openloop hook claude-code``: judge an agent's claim of completion inside its loop (SPEC §8).

Exit codes follow the host's hook protocol, not the other commands': a refused ``TaskCompleted``
exits 2 with the reason on stderr; a refused ``Stop``/``SubagentStop`` prints
``{"decision": "block", "reason": ...}`` on stdout and exits 0; an allowed claim exits 0 silently.
Any error (a malformed payload, an unreadable history, a bug) exits 0 with a warning on stderr,
because a hook must never block an agent by crashing; ``--strict`` makes errors exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from resolver.agents.hook import DEFAULT_MAX_REFUSALS, judge, read_payload
from resolver.cli.common import add_paths


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``hook`` subcommand (one host so far: ``claude-code``)."""
    parser = subparsers.add_parser(
        "hook",
        help="agent hooks: refuse a false completion inside the agent's loop",
        description="Agent hooks. `openloop hook claude-code` reads a Claude Code hook payload "
        "(Stop, SubagentStop or TaskCompleted) on stdin, records the agent's claim "
        "(claims_complete TASK, channel agent, by the session, at now) in the log, and judges "
        "the task at now with known latest.",
    )
    hosts = parser.add_subparsers(dest="host", metavar="HOST")
    hosts.required = True
    claude = hosts.add_parser(
        "claude-code",
        help="a Claude Code Stop, SubagentStop or TaskCompleted hook",
        description="Read a Claude Code hook payload on stdin, record the claim that TASK is "
        "complete, and judge it at now (known latest). When the task is not COMPLETE: for "
        "TaskCompleted exit 2 with the outstanding obligations and the nearest rejected "
        'candidate on stderr; for Stop/SubagentStop print {"decision": "block", '
        '"reason": ...} on stdout. With stop_hook_active, or after --max-refusals consecutive '
        "refusals, the claim is allowed with a warning (and stays recorded as a false "
        "completion). Any error exits 0 with a warning unless --strict.",
        epilog="example (.claude/settings.json): "
        '{"hooks": {"TaskCompleted": [{"hooks": [{"type": "command", "command": '
        '"openloop hook claude-code --task release-prep history/"}]}]}}',
    )
    claude.add_argument("--task", required=True, metavar="ID", help="the task being claimed")
    add_paths(claude)
    claude.add_argument(
        "--log",
        metavar="FILE",
        help="the .jsonl log the claim is appended to (default: the single .jsonl among PATHs)",
    )
    claude.add_argument(
        "--max-refusals",
        type=int,
        default=DEFAULT_MAX_REFUSALS,
        metavar="N",
        help="stop refusing after N consecutive refusals of one session's claims on the task "
        f"(default: {DEFAULT_MAX_REFUSALS}, below Claude Code's own cap)",
    )
    claude.add_argument(
        "--strict",
        action="store_true",
        help="exit 2 on any error instead of allowing with a warning",
    )
    claude.add_argument(
        "--no-cache",
        action="store_true",
        help="prepare the history from its files every time (by default a prepared copy is "
        "kept in $OPENLOOP_CACHE_DIR or ~/.cache/openloop and re-made in the background after "
        "each claim, so the next call answers quickly)",
    )
    claude.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Judge the claim and answer in the host's protocol."""
    try:
        if args.max_refusals < 0:
            raise ValueError("--max-refusals must be 0 or more")
        payload = read_payload(sys.stdin.read())
        decision = judge(
            payload,
            args.task,
            args.paths,
            args.log,
            args.max_refusals,
            use_cache=not args.no_cache,
        )
    except Exception as exc:  # a hook must never block by crashing
        if args.strict:
            print(f"openloop hook: {exc}", file=sys.stderr)
            return 2
        print(f"openloop hook: warning: {exc}; allowing", file=sys.stderr)
        return 0
    if decision.warning:
        print(f"openloop hook: warning: {decision.warning}", file=sys.stderr)
    if not decision.refuse:
        return 0
    if decision.event == "TaskCompleted":
        print(decision.reason, file=sys.stderr)
        return 2
    print(json.dumps({"decision": "block", "reason": decision.reason}, ensure_ascii=False))
    return 0
