"""``openloop hook install HOST``: write or merge the host's hook configuration (SPEC §8).

The configuration is the user's file as much as openloop's: other hooks, other settings and the
order of keys are kept; openloop's own entries (a command that runs ``openloop hook HOST`` or
``-m resolver hook HOST``) are replaced in place when the options changed, added when absent,
and never duplicated, so installing twice writes the same bytes. A file that is not a JSON
object is an error and is left as it is. The new file is written to a temporary file beside it
and renamed into place.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location


def hook_command(host: str, task: str, paths: Sequence[str], options: Sequence[str] = ()) -> str:
    """The shell command a host runs: ``openloop`` when it is on PATH, else this Python."""
    program = ["openloop"] if shutil.which("openloop") else [sys.executable, "-m", "resolver"]
    return shlex.join([*program, "hook", host, "--task", task, *options, *paths])


def is_ours(command: Any, host: str) -> bool:
    """Whether a configured command is an openloop hook for ``host``."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    for index in range(len(words) - 1):
        if words[index] == "hook" and words[index + 1] == host:
            head = words[:index]
            return bool(head) and (
                os.path.basename(head[-1]) == "openloop" or head[-2:] == ["-m", "resolver"]
            )
    return False


def _hooks(config: dict[str, Any], event: str) -> list[Any]:
    hooks = config.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InputError("the configuration's 'hooks' is not an object")
    entries = hooks.setdefault(event, [])
    if not isinstance(entries, list):
        raise InputError(f"the configuration's hooks.{event} is not a list")
    return entries


def add_nested(
    config: dict[str, Any], event: str, command: str, matcher: str | None, name: str | None = None
) -> None:
    """Claude-style ``hooks.EVENT = [{"matcher"?, "hooks": [{"type": "command", ...}]}]``."""
    entries = _hooks(config, event)
    host = _host_of(command)
    hook: dict[str, Any] = {"type": "command", "command": command}
    if name:
        hook["name"] = name
    for group in entries:
        inner = group.get("hooks") if isinstance(group, dict) else None
        for index, existing in enumerate(inner if isinstance(inner, list) else []):
            if isinstance(existing, dict) and is_ours(existing.get("command"), host):
                inner[index] = {**existing, **hook}
                if matcher is not None:
                    group["matcher"] = matcher
                return
    group = {"hooks": [hook]} if matcher is None else {"matcher": matcher, "hooks": [hook]}
    entries.append(group)


def add_flat(config: dict[str, Any], event: str, entry: dict[str, Any]) -> None:
    """Cursor- and Copilot-style ``hooks.EVENT = [{"command" | "bash": ..., ...}]``."""
    entries = _hooks(config, event)
    command = entry.get("command", entry.get("bash"))
    host = _host_of(command)
    for index, existing in enumerate(entries):
        if isinstance(existing, dict) and is_ours(
            existing.get("command", existing.get("bash")), host
        ):
            entries[index] = {**existing, **entry}
            return
    entries.append(entry)


def _host_of(command: str) -> str:
    words = shlex.split(command)
    return words[words.index("hook") + 1]


def read_config(path: Path) -> dict[str, Any]:
    """The configuration as it stands ({} when the file does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", Location(str(path), 1)) from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", Location(str(path), exc.lineno)) from None
    if not isinstance(data, dict):
        raise InputError("the configuration must be a JSON object", Location(str(path), 1))
    return data


def write_config(path: Path, config: dict[str, Any]) -> bool:
    """Write ``config`` atomically; False when the file already holds exactly these bytes."""
    data = (json.dumps(config, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True


def install(
    host_name: str,
    task: str,
    paths: Sequence[str],
    folder: Path,
    options: Sequence[str] = (),
    max_refusals: int = 4,
) -> tuple[Path, bool]:
    """Merge the host's hooks into ``folder``'s configuration; (its path, whether it changed)."""
    from resolver.agents.hosts import host

    module = host(host_name)
    path = folder / module.config_path()
    config = read_config(path)
    command = hook_command(host_name, task, paths, options)
    if host_name == "cursor":
        module.install(config, command, max_refusals)
    else:
        module.install(config, command)
    return path, write_config(path, config)
