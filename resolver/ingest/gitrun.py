"""Running the ``git`` binary: checked set-up calls and streaming plumbing output.

git is read only through its own commands (never by parsing objects), with the options that a
user's configuration could otherwise change pinned on the command line (colour, quoting of paths,
output encoding, signatures, diff prefixes), so that two machines produce the same events.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from resolver.errors import InputError

__all__ = ["Repository", "nul_tokens", "source_error"]

_CHUNK = 1 << 20

_PINNED = (
    "-c", "core.quotePath=false",
    "-c", "i18n.logOutputEncoding=UTF-8",
    "-c", "log.showSignature=false",
    "-c", "color.ui=never",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicPrefix=false",
    "-c", "trailer.separators=:",
    "-c", "log.showRoot=true",
)  # fmt: skip


def source_error(source: str, message: str) -> InputError:
    """An input error about a whole source (a repository, a file): ``SOURCE: error: ...``."""
    error = InputError(message)
    error.args = (f"{source}: error: {message}",)
    return error


class Repository:
    """A git repository named by the user, checked to exist and to hold commits."""

    def __init__(self, path: str | Path) -> None:
        self.name = str(path)
        if shutil.which("git") is None:
            raise source_error(self.name, "the git command is not installed")
        if not Path(path).is_dir():
            raise source_error(self.name, "not a directory; expected a git repository")
        done = self.run("rev-parse", "--git-dir", check=False)
        if done.returncode != 0:
            raise source_error(self.name, "not a git repository (expected a folder inside one)")
        self.path = str(path)

    def command(self, *args: str) -> list[str]:
        """The full argument vector for ``git ARGS`` in this repository."""
        return ["git", "-C", str(self.name), *_PINNED, *args]

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a short git command to completion; with ``check``, a failure is an input error."""
        done = subprocess.run(
            self.command(*args), capture_output=True, text=True, env=_environment(), check=False
        )
        if check and done.returncode != 0:
            detail = (done.stderr.strip().splitlines() or ["failed"])[-1]
            raise source_error(self.name, f"git {args[0]}: {detail}")
        return done

    def resolve(self, rev: str) -> str:
        """The commit hash REV names; an unknown REV is an input error."""
        if rev.startswith("-"):
            raise source_error(self.name, f"revision {rev!r}: expected a commit, not an option")
        done = self.run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}",
                        check=False)  # fmt: skip
        if done.returncode != 0 or not done.stdout.strip():
            if (
                rev == "HEAD"
                and self.run("rev-parse", "--verify", "-q", "HEAD", check=False).stdout == ""
            ):
                raise source_error(self.name, "the repository has no commits yet")
            raise source_error(self.name, f"revision {rev!r} does not exist (expected a commit)")
        return done.stdout.strip()

    @contextmanager
    def stream(self, *args: str, stdin: IO[bytes] | None = None) -> Iterator[IO[bytes]]:
        """``git ARGS`` with its stdout as a byte stream; a non-zero exit is reported at the end.

        ``stdin``, when given, is a file git reads its input from (so that writing a long input
        can never block on git's output).
        """
        with tempfile.TemporaryFile() as errors:  # a file, so a chatty stderr cannot block git
            process = subprocess.Popen(
                self.command(*args),
                stdin=stdin if stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=_environment(),
                bufsize=1 << 16,
            )
            assert process.stdout is not None
            finished = False
            try:
                yield process.stdout
                finished = True
            finally:
                if not finished:
                    process.kill()
                process.stdout.close()
                code = process.wait()
                errors.seek(0)
                error = errors.read().decode("utf-8", errors="replace")
        if code != 0:
            detail = (error.strip().splitlines() or [f"exit {code}"])[-1]
            raise source_error(self.name, f"git {args[0]}: {detail}")


def nul_tokens(stream: IO[bytes]) -> Iterator[bytes]:
    """NUL-separated tokens of a stream (``git log -z``), read in large chunks."""
    rest = b""
    while chunk := stream.read(_CHUNK):
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        yield from parts
    if rest:
        yield rest


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"})
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env
