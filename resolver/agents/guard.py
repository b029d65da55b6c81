"""The PreToolUse guard: an agent's tools must not write the evidence (SPEC §8).

A gate that judges the history is only as good as the history: an agent that can append a line,
drop a second ``.jsonl`` beside the log, tear the last line or edit the ``.ol`` can make its own
claim pass. The guard reads each tool call before the host runs it and denies the ones that would
write under the protected paths: the hook's PATHs (a folder protects everything under it, new
files included), the log, and openloop's cache folder (the identity declaration and the prepared
store live there). It also denies ``openloop record`` run as anyone but ``--as`` or onto an
``authoritative`` channel, and ``openloop ingest`` writing into the history. Every other call is
allowed silently.

What it reads:
- file tools (``Edit``, ``Write``, ``MultiEdit``, ``NotebookEdit``, Cursor's and Copilot's and
  Gemini's equivalents): the path fields of the tool input (``file_path``, ``path``,
  ``notebook_path``, ``target_file``, ...), and the files a Codex ``apply_patch`` names;
- shell tools: the command, split as a POSIX shell would (``shlex``) into simple commands at
  ``;``, ``&&``, ``||``, ``|``, ``&`` and newlines, following ``cd``; in each, redirections
  (``>``, ``>>``, ``&>``, ``>|``), the writing commands (``tee``, ``sed -i``, ``perl -i``,
  ``mv``, ``cp``, ``rm``, ``touch``, ``truncate``, ``dd of=``, ``ln``, ``install``, ``chmod``,
  ``rsync``, ``git checkout/restore/rm/mv/clean/reset/stash/apply``, ...), interpreters given a
  script (``python -c``, ``bash -c`` read recursively), and any other command that names a
  protected path and is not known to only read (``cat``, ``grep``, ``jq``, ``openloop status``).

Limits, said plainly (``docs/guide/agents.md``, threat model): a static reading of a shell command
cannot follow every indirection (a path assembled in a variable, a script file that writes the
log). The guard closes the paths an agent is handed and the obvious ones; the write path itself
refuses backdated records and reused sequence numbers, and the hook refuses a history that is
torn or ambiguous, so what slips past the guard still cannot open the gate silently.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _names(text: str) -> frozenset[str]:
    """A set of words written as one string (long lists read better so)."""
    return frozenset(text.split())


#: Tool-input fields that name a file the tool writes.
PATH_FIELDS = ("file_path", "path", "notebook_path", "target_file", "filePath", "filename")
#: Shell tools by host, and where their command is.
SHELL_TOOLS = frozenset(
    {"bash", "shell", "run_shell_command", "powershell", "terminal", "exec_command", "local_shell"}
)
#: Tools that only read, whatever path they name.
READ_TOOLS = _names(
    "read view glob grep ls list_directory read_file read_many_files search_file_content "
    "webfetch web_fetch websearch notebookread todowrite task ask_user google_web_search "
    "codebase_search file_search"
)
_OPERATORS = frozenset({";", "&&", "||", "|", "&", "\n", "|&", ";;", "(", ")"})
_REDIRECTS = re.compile(r"^(\d*|&)(>>?|>\||<>)$")
#: Commands that may name a protected path and only read it.
READERS = _names(
    "cat less more head tail grep egrep fgrep rg ag wc jq sort uniq diff cmp ls stat file "
    "md5sum sha256sum sha1sum nl od xxd hexdump strings awk cut column tac realpath "
    "readlink basename dirname test [ echo printf true false find tree du"
)
#: Writers whose every non-option argument is a target.
WRITERS = _names("tee rm rmdir unlink touch truncate shred mkdir mkfifo mknod chmod chown chgrp")
#: Writers whose arguments are all touched (moved away or onto).
MOVERS = _names("mv cp ln install rsync scp")
_PREFIXES = _names("sudo env command nohup time nice ionice exec stdbuf timeout doas")
_GIT_WRITES = _names(
    "checkout restore rm mv clean reset stash apply am merge rebase cherry-pick revert switch pull"
)
_INTERPRETERS = re.compile(r"^(python[\d.]*|node|ruby|perl|php|lua|deno|bun|pwsh|powershell)$")
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish"})
_READ_OPENLOOP = _names(
    "status check explain ready brief report graph lint test receipt ledger bench"
)


@dataclass(frozen=True)
class Verdict:
    """Deny with a reason, or allow (``reason`` is None)."""

    reason: str | None = None

    @property
    def deny(self) -> bool:
        return self.reason is not None


ALLOW = Verdict()


@dataclass
class Guard:
    """The protected roots and the identity; ``authoritative`` is asked lazily (it loads the
    project's declarations, which only an ``openloop record`` command needs)."""

    roots: Sequence[Path]
    identity: str
    authoritative: Callable[[], frozenset[str]]

    def tool(self, name: str, tool_input: Any, cwd: str | None) -> Verdict:
        """Judge one tool call (host-neutral: the host module maps its names and fields)."""
        base = Path(cwd) if cwd else Path.cwd()
        lowered = name.lower()
        if isinstance(tool_input, str) and lowered not in SHELL_TOOLS:
            tool_input = {"command": tool_input} if lowered == "apply_patch" else {}
        if not isinstance(tool_input, dict):
            return ALLOW
        if lowered in SHELL_TOOLS or (
            lowered not in READ_TOOLS and "command" in tool_input and lowered != "apply_patch"
        ):
            command = tool_input.get("command")
            if isinstance(command, list):
                command = shlex.join(str(part) for part in command)
            return self.shell(command, base) if isinstance(command, str) else ALLOW
        if lowered in READ_TOOLS:
            return ALLOW
        targets = [tool_input[f] for f in PATH_FIELDS if isinstance(tool_input.get(f), str)]
        if lowered == "apply_patch" and isinstance(tool_input.get("command"), str):
            targets += _patch_files(tool_input["command"])
        edits = tool_input.get("edits")
        if isinstance(edits, list):
            targets += [
                e[f]
                for e in edits
                if isinstance(e, dict)
                for f in PATH_FIELDS
                if isinstance(e.get(f), str)
            ]
        for target in targets:
            if self.protected(target, base):
                return Verdict(f"{name} would write {target}, {self._why(target, base)}")
        return ALLOW

    def shell(self, command: str, cwd: Path, depth: int = 0) -> Verdict:
        """Judge a shell command line."""
        try:
            lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
            lexer.whitespace = " \t\r"
            lexer.whitespace_split = True
            tokens = list(lexer)
        except ValueError:  # unbalanced quotes: judge the raw text
            return self._mentions(command, cwd, "a shell command it cannot read")
        here = cwd
        for simple in _split(tokens):
            verdict, here = self._simple(simple, here, depth)
            if verdict.deny:
                return verdict
        return ALLOW

    def _simple(self, words: list[str], cwd: Path, depth: int) -> tuple[Verdict, Path]:
        rest: list[str] = []
        index = 0
        while index < len(words):  # redirections first: their target is written
            word = words[index]
            if _REDIRECTS.match(word) and index + 1 < len(words):
                target = words[index + 1]
                if ">" in word and self.protected(target, cwd):
                    return Verdict(f"redirects output onto {target}, {self._why(target, cwd)}"), cwd
                index += 2
                continue
            rest.append(word)
            index += 1
        while rest and (("=" in rest[0] and not rest[0].startswith("-")) or rest[0] in _PREFIXES):
            rest = rest[1:]
        if not rest:
            return ALLOW, cwd
        program, args = os.path.basename(rest[0]), rest[1:]
        if program == "cd":
            target = args[0] if args else str(Path.home())
            return ALLOW, _resolve(target, cwd)
        return self._program(program, args, cwd, depth), cwd

    def _program(self, program: str, args: list[str], cwd: Path, depth: int) -> Verdict:
        operands = [a for a in args if not a.startswith("-")]
        if program in WRITERS or program in MOVERS:
            return self._first(program, operands, cwd)
        if program == "dd":
            return self._first("dd", [a[3:] for a in args if a.startswith("of=")], cwd)
        if program in ("sed", "perl") and any(_in_place(a) for a in args):
            return self._first(f"{program} -i", operands, cwd)
        if program == "git" and operands and operands[0] in _GIT_WRITES:
            return self._git(operands[0], args, cwd)
        if program in _SHELLS and "-c" in args and depth < 3:
            script = args[args.index("-c") + 1] if args.index("-c") + 1 < len(args) else ""
            return self.shell(script, cwd, depth + 1)
        if program.startswith("python") and args[:2] == ["-m", "resolver"]:
            return self._openloop(args[2:], cwd)
        if _INTERPRETERS.match(program):
            return self._mentions(" ".join(args), cwd, f"{program} with a script that names it")
        if program == "openloop":
            return self._openloop(args, cwd)
        if program in READERS:
            return ALLOW
        return self._first(program, operands, cwd)

    def _git(self, sub: str, args: list[str], cwd: Path) -> Verdict:
        operands = [a for a in args[1:] if not a.startswith("-") and a != sub]
        named = self._first(f"git {sub}", operands, cwd)
        if named.deny:
            return named
        tree_wide = sub in ("clean", "stash") or (
            sub in ("reset", "checkout", "restore") and ("--hard" in args or "." in operands)
        )
        if tree_wide and any(_under(root, cwd) or _under(cwd, root) for root in self.roots):
            return Verdict(f"git {sub} would rewrite the files of the history under {cwd}")
        return ALLOW

    def _openloop(self, args: list[str], cwd: Path) -> Verdict:
        operands = [a for a in args if not a.startswith("-")]
        if not operands or operands[0] in _READ_OPENLOOP or operands[0] in ("hook", "mcp"):
            return ALLOW
        if operands[0] == "record":
            by, channel = _option(args, "--by"), _option(args, "--channel")
            if by is not None and by != self.identity:
                return Verdict(
                    f"openloop record --by {by}: you record only as {self.identity} "
                    "(an agent's events are written under its own identity)"
                )
            if channel is not None and channel in self.authoritative():
                return Verdict(
                    f"openloop record --channel {channel}: {channel} is an authoritative "
                    "channel, a system of record; an agent cannot write to it"
                )
            return ALLOW
        return self._first(f"openloop {operands[0]}", operands[1:], cwd)

    def _first(self, what: str, targets: Iterable[str], cwd: Path) -> Verdict:
        for target in targets:
            if self.protected(target, cwd):
                return Verdict(f"{what} would write {target}, {self._why(target, cwd)}")
        return ALLOW

    def _mentions(self, text: str, cwd: Path, what: str) -> Verdict:
        for token in re.findall(r"[\w./~@+:-]+", text):
            if ("/" in token or "." in token) and self.protected(token, cwd):
                return Verdict(f"{what} {token}, {self._why(token, cwd)}")
        return ALLOW

    def protected(self, target: str, cwd: Path) -> bool:
        """Whether ``target`` (as the tool would resolve it from ``cwd``) is under a root."""
        if not target or target.startswith("/dev/"):
            return False
        head = re.split(r"[*?\[{]", target, maxsplit=1)[0]  # a glob's fixed prefix
        path = _resolve(head or ".", cwd)
        return any(
            _under(path, root) or (head != target and _under(root, path)) for root in self.roots
        )

    def _why(self, target: str, cwd: Path) -> str:
        path = _resolve(re.split(r"[*?\[{]", target, maxsplit=1)[0] or ".", cwd)
        root = next((r for r in self.roots if _under(path, r) or _under(r, path)), None)
        return (
            f"which is part of the evidence openloop judges ({root}); only openloop's write "
            f"path may add to it: record your work with `openloop record ... --by "
            f"{self.identity}` or the MCP record tool"
        )


def _split(tokens: list[str]) -> Iterable[list[str]]:
    current: list[str] = []
    for token in tokens:
        if token in _OPERATORS or (set(token) <= set(";&|()") and token and ">" not in token):
            if current:
                yield current
            current = []
        else:
            current.append(token)
    if current:
        yield current


def _in_place(arg: str) -> bool:
    return (
        arg == "--in-place"
        or arg.startswith("--in-place=")
        or (arg.startswith("-") and not arg.startswith("--") and "i" in arg[1:])
    )


def _option(args: list[str], name: str) -> str | None:
    for index, arg in enumerate(args):
        if arg == name and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def _patch_files(patch: str) -> list[str]:
    pattern = r"^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$"
    return [a or b for a, b in re.findall(pattern, patch, flags=re.M)]


def _resolve(target: str, cwd: Path) -> Path:
    path = Path(os.path.expanduser(target))
    if not path.is_absolute():
        path = cwd / path
    return Path(os.path.realpath(path))


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def roots_of(paths: Sequence[str | Path], extra: Iterable[str | Path] = ()) -> list[Path]:
    """The protected roots: every PATH and extra path, resolved (symlinks followed)."""
    return [Path(os.path.realpath(Path(p).expanduser())) for p in [*paths, *extra]]
