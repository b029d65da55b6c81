"""``openloop hook doctor [HOST]``: check that a host's hook would judge what the user expects.

For each host (or the one named) whose configuration file exists in the folder: the file is
JSON, it holds openloop hook commands for the events that matter (a claim or stop event, and
a tool guard), each command's program resolves, its PATHs load (readable, not torn), the log it
appends to is determined (``--log`` or the single ``.jsonl``), its ``--task`` is declared, and
the ``--as`` identity is declared an agent in the user's files (the hook treats it as one
anyway, but ``status`` and ``check`` read only the user's files). Each check prints one line,
``ok``, ``warning`` or ``error``; any error makes the command exit 1.
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from resolver.agents.hosts import HOSTS, host
from resolver.agents.hosts.install import is_ours, read_config
from resolver.errors import InputError

_VALUED = ("--task", "--log", "--as", "--max-refusals")
_EVENTS = {
    "claude-code": (("TaskCompleted", "Stop", "SubagentStop"), ("PreToolUse",)),
    "codex": (("Stop", "SubagentStop"), ("PreToolUse",)),
    "cursor": (("stop",), ("beforeShellExecution", "preToolUse")),
    "copilot": (
        ("agentStop", "subagentStop", "Stop", "SubagentStop"),
        ("preToolUse", "PreToolUse"),
    ),
    "gemini": (("AfterAgent",), ("BeforeTool",)),
}


def _commands(config: dict[str, Any], name: str) -> Iterator[tuple[str, str]]:
    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            inner = entry.get("hooks") if isinstance(entry.get("hooks"), list) else [entry]
            for hook in inner:
                if isinstance(hook, dict):
                    command = hook.get("command", hook.get("bash"))
                    if is_ours(command, name):
                        yield event, command


def _options(command: str, name: str) -> tuple[dict[str, str], list[str], str]:
    words = shlex.split(command)
    start = words.index("hook") + 2
    options: dict[str, str] = {}
    paths: list[str] = []
    index = start
    while index < len(words):
        word = words[index]
        if word in _VALUED and index + 1 < len(words):
            options[word] = words[index + 1]
            index += 2
            continue
        if not word.startswith("-"):
            paths.append(word)
        index += 1
    return options, paths, words[0]


def check(folder: Path, only: str | None = None) -> tuple[list[str], bool]:
    """The report's lines, and whether every check passed (warnings allowed)."""
    lines: list[str] = []
    ok = True
    found = False
    for name in [only] if only else HOSTS:
        path = folder / host(name).config_path()
        if not path.exists():
            if only:
                lines.append(f"error: {name}: no configuration at {path}")
                ok = False
            continue
        found = True
        try:
            config = read_config(path)
        except InputError as exc:
            lines.append(f"error: {name}: {exc}")
            ok = False
            continue
        commands = list(_commands(config, name))
        stops, tools = _EVENTS[name]
        events = {event for event, _ in commands}
        if not events & set(stops):
            lines.append(f"error: {name}: {path}: no openloop hook on {' or '.join(stops)}")
            ok = False
        if not events & set(tools):
            lines.append(
                f"warning: {name}: {path}: no guard on {'/'.join(tools)}: the "
                "agent's tools may write the history"
            )
        for event, command in commands:
            good, report = _command(name, event, command, folder)
            ok = ok and good
            lines.extend(report)
    if not found and not only:
        lines.append(f"error: no agent host configuration under {folder}")
        ok = False
    return lines, ok


def _command(name: str, event: str, command: str, folder: Path) -> tuple[bool, list[str]]:
    from resolver.agents.hook import default_log
    from resolver.agents.identity import DEFAULT_IDENTITY
    from resolver.language.loader import collect_files, load

    where = f"{name} {event}"
    options, paths, program = _options(command, name)
    if shutil.which(program) is None and not Path(program).is_file():
        return False, [f"error: {where}: the command '{program}' is not found on PATH"]
    lines = [f"ok: {where}: runs {program}"]
    resolved = [str(folder / p) if not Path(p).is_absolute() else p for p in paths]
    task = options.get("--task")
    try:
        log = options.get("--log")
        default_log(resolved, str(folder / log) if log else None)
        project = load(collect_files(resolved))
    except InputError as exc:
        return False, [*lines, f"error: {where}: the history does not load: {exc}"]
    lines.append(f"ok: {where}: the history loads ({len(project.events)} events)")
    if task is None or project.task(task) is None:
        return False, [*lines, f"error: {where}: --task {task!r} is not a declared task"]
    lines.append(f"ok: {where}: task {task} is declared")
    identity = options.get("--as", DEFAULT_IDENTITY)
    role = next((a.role for a in project.actors if not a.pattern and a.name == identity), None)
    if role != "agent":
        said = "declares it " + role if role else "does not declare it"
        lines.append(
            f"warning: {where}: the project {said}; the hook treats '{identity}' as an agent, "
            f"but status and check read your files: add `actor {identity} agent`"
        )
    return True, lines
