"""``openloop hook HOST``, ``hook install`` and ``hook doctor`` (SPEC §8).

``openloop hook HOST --task ID PATH...`` reads one hook payload of HOST (``claude-code``,
``codex``, ``cursor``, ``copilot``, ``gemini``) on stdin and answers in that host's protocol
(``resolver.agents.hosts``); the judge is ``resolver.agents.hook``. Exit codes are the host's,
not the other commands': 0 with JSON on stdout for most answers, 2 with the reason on stderr
where the host reads a refusal that way (Claude Code's ``TaskCompleted``, and any payload that
is not JSON). ``install`` and ``doctor`` are ordinary commands (exit 2 on bad input; ``doctor``
exits 1 when a check fails).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from resolver.agents.hook import DEFAULT_MAX_REFUSALS, Options, answer
from resolver.agents.hosts import HOSTS, host
from resolver.agents.identity import DEFAULT_IDENTITY
from resolver.cli.common import add_paths
from resolver.errors import InputError

_HOST_HELP = {
    "claude-code": "Claude Code (and Devin): TaskCompleted, Stop, SubagentStop, PreToolUse",
    "codex": "Codex CLI: Stop, SubagentStop, PreToolUse",
    "cursor": "Cursor: stop, beforeShellExecution, preToolUse",
    "copilot": "GitHub Copilot CLI: agentStop, subagentStop, preToolUse",
    "gemini": "Gemini CLI: AfterAgent, BeforeTool",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``hook`` subcommand: one subcommand per host, plus ``install`` and ``doctor``."""
    parser = subparsers.add_parser(
        "hook",
        help="agent hooks: refuse a false completion inside the agent's loop",
        description="Agent hooks (SPEC 8). `openloop hook HOST` reads one hook payload of "
        "HOST on stdin: a completion claim is recorded (claims_complete TASK, channel agent, "
        "by --as) and judged at now with known latest; a stop is a claim only when the "
        "agent's last message claims completion; a tool call that would write the history, "
        "or run `openloop record` as someone else or onto an authoritative channel, is denied.",
    )
    hosts = parser.add_subparsers(dest="host", metavar="HOST")
    hosts.required = True
    for name in HOSTS:
        sub = hosts.add_parser(
            name,
            help=_HOST_HELP[name],
            description=f"Read a {_HOST_HELP[name]} hook payload on stdin and answer in its "
            "protocol. Bad input (a payload that is not JSON, an unreadable, torn or "
            "ambiguous history, an unknown --task) refuses the claim; only an internal error "
            "allows, with a message the user sees, and --strict refuses then too.",
        )
        _judge_options(sub)
        sub.set_defaults(func=run)
    install = hosts.add_parser(
        "install",
        help="write or merge a host's hook configuration",
        description="Write or merge HOST's hook configuration in --dir (default: the current "
        "folder): the claim and stop events and the tool guard, each running `openloop hook "
        "HOST --task ID PATH...`. Other hooks and settings are kept; installing again "
        "changes nothing.",
    )
    install.add_argument("target", metavar="HOST", choices=HOSTS, help=", ".join(HOSTS))
    install.add_argument(
        "--task",
        metavar="ID",
        help="the task claims are judged against (default: the only task the paths declare)",
    )
    install.add_argument("--dir", default=".", metavar="DIR", help="the project folder")
    install.add_argument("--log", metavar="FILE", help="passed to the hook")
    install.add_argument("--as", dest="identity", metavar="ACTOR", help="passed to the hook")
    install.add_argument("--observe", action="store_true", help="passed to the hook")
    install.add_argument("--strict", action="store_true", help="passed to the hook")
    install.add_argument("--max-refusals", type=int, default=DEFAULT_MAX_REFUSALS, metavar="N")
    add_paths(install)
    install.set_defaults(func=run_install)
    doctor = hosts.add_parser(
        "doctor",
        help="check a host's hook configuration",
        description="Check each host configuration in --dir (or HOST's): present and JSON, "
        "openloop hooks on the claim and tool events, the command found, the history "
        "readable, the task declared, the identity declared an agent. Exit 1 on an error.",
    )
    doctor.add_argument("target", metavar="HOST", nargs="?", choices=HOSTS, help="one host")
    doctor.add_argument("--dir", default=".", metavar="DIR", help="the project folder")
    doctor.set_defaults(func=run_doctor)


def _judge_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--task", required=True, metavar="ID", help="the task being claimed")
    add_paths(sub)
    sub.add_argument(
        "--log",
        metavar="FILE",
        help="the .jsonl log the claim is appended to (default: the single .jsonl among PATHs)",
    )
    sub.add_argument(
        "--as",
        dest="identity",
        default=DEFAULT_IDENTITY,
        metavar="ACTOR",
        help="the identity claims are recorded under, always treated as an agent "
        f"(default: {DEFAULT_IDENTITY})",
    )
    sub.add_argument(
        "--max-refusals",
        type=int,
        default=DEFAULT_MAX_REFUSALS,
        metavar="N",
        help="stop refusing after N consecutive refusals of the identity's claims on the task "
        f"(default: {DEFAULT_MAX_REFUSALS}, below the hosts' own caps); every claim stays "
        "recorded",
    )
    sub.add_argument(
        "--observe",
        action="store_true",
        help="judge and record, never block; report what it would do to the user",
    )
    sub.add_argument("--strict", action="store_true", help="refuse on an internal error too")
    sub.add_argument(
        "--no-cache",
        action="store_true",
        help="prepare the history from its files every time instead of reading the prepared "
        "copy in $OPENLOOP_CACHE_DIR (or ~/.cache/openloop)",
    )


def run(args: argparse.Namespace) -> int:
    """Judge one payload and answer in the host's protocol."""
    from resolver.agents.hook import Call, Outcome
    from resolver.agents.hosts.base import read_object, refusal_exit

    module = host(args.host)
    if args.max_refusals < 0:
        raise InputError("--max-refusals must be 0 or more")
    options = Options(
        task=args.task,
        paths=args.paths,
        log=args.log,
        identity=args.identity,
        max_refusals=args.max_refusals,
        observe=args.observe,
        strict=args.strict,
        use_cache=not args.no_cache,
    )
    try:
        call = module.parse(read_object(sys.stdin.read()))
    except InputError as exc:  # not even a payload: refuse (exit 2 blocks in every host)
        reason = f"openloop hook: cannot read the hook payload: {exc}"
        if args.observe:
            rendered = module.render(Call("other", "?"), Outcome(warning=reason))
        else:
            rendered = refusal_exit(reason)
    else:
        rendered = module.render(call, answer(call, options))
    sys.stdout.write(rendered.stdout)
    sys.stderr.write(rendered.stderr)
    if sys.argv[1:2] == ["hook"]:  # this process is the hook command itself, not a caller's
        _end_now(rendered.code)
    return rendered.code


def _end_now(code: int) -> None:
    """End the hook's process with its answer written, when it started a warm-up child.

    Tearing the interpreter down frees every object, writing to nearly every page of the
    heap, and while the child runs each of those pages is shared with it and must be copied
    first: that teardown cost the claim about 0.02 s of CPU on the Lark history, for nothing
    (no file is left open, and nothing registered to run at exit holds anything to save)."""
    from resolver.agents import warm

    if not warm.children:
        return
    sys.stdout.flush()  # a full disk or a closed stdout is reported as usual (main)
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    os._exit(code)


def run_install(args: argparse.Namespace) -> int:
    """Write or merge the configuration and say where."""
    from resolver.agents.hosts.install import install

    task = args.task or _only_task(args.paths)
    options: list[str] = []
    if args.log:
        options += ["--log", args.log]
    if args.identity:
        options += ["--as", args.identity]
    if args.max_refusals != DEFAULT_MAX_REFUSALS:
        options += ["--max-refusals", str(args.max_refusals)]
    options += [flag for flag in ("--observe", "--strict") if getattr(args, flag[2:])]
    path, changed = install(
        args.target, task, list(args.paths), Path(args.dir), options, args.max_refusals
    )
    print(f"{'wrote' if changed else 'unchanged'}: {path}")
    return 0


def _only_task(paths: list[str]) -> str:
    from resolver.language.loader import collect_files, load

    tasks = [t.id for t in load(collect_files(paths)).tasks]
    if len(tasks) != 1:
        raise InputError(
            f"--task: the paths declare {len(tasks)} tasks; name the one the hook judges"
        )
    return tasks[0]


def run_doctor(args: argparse.Namespace) -> int:
    """Print each check; exit 1 when one fails."""
    from resolver.agents.hosts.doctor import check

    lines, ok = check(Path(args.dir), args.target)
    print("\n".join(lines))
    return 0 if ok else 1
