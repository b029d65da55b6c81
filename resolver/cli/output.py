"""Writing a command's output where ``> FILE`` would, without ever leaving half a file.

- A regular file (or a new name) is written through a temporary file in the same folder and
  renamed into place, so a failure (a full disk, Ctrl-C) leaves the old content or nothing. An
  existing file keeps its permission bits.
- A symlink is followed, as the shell follows it: the file it points to is what gets written,
  and the link stays a link.
- A FIFO, a device (``/dev/null``, ``/dev/stdout``) or a socket cannot be renamed over without
  destroying it, so it is opened and written like the shell does.
- A target that is one of the command's input files is refused (see :mod:`resolver.inputs`),
  as are folders and names whose folder does not exist.

Every refusal is an :class:`~resolver.errors.InputError` printed as ``FILE: error: ...`` (exit 2).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from resolver import inputs
from resolver.errors import InputError, Location


class _Whole(Location):
    """A location that is a whole file: prints as ``FILE`` alone."""

    def __str__(self) -> str:
        return self.file


def target_error(target: str, message: str) -> InputError:
    """An error about an output target, printed as ``TARGET: error: MESSAGE``."""
    return InputError(message, _Whole(target, 0))


def check_target(output: str) -> None:
    """Refuse, before any work is done, a target that can never be written: a folder, or a
    name in a folder that does not exist."""
    real = _follow(output)
    if real.is_dir():
        raise target_error(output, "is a folder; expected a file name")
    if not real.exists() and not real.parent.is_dir():
        raise target_error(output, f"no such folder '{real.parent}'")


def write_bytes(data: bytes, output: str) -> None:
    """Write ``data`` to ``output`` as ``> output`` would, atomically for regular files."""
    real = _follow(output)
    check_target(output)
    source = inputs.read_as(real)
    if source is not None:
        raise target_error(output, f"refusing to overwrite the input file '{source}'")
    try:
        status = os.stat(real)
    except FileNotFoundError:
        status = None
    except OSError as exc:
        raise target_error(output, f"cannot write: {exc.strerror}") from None
    if status is not None and not stat.S_ISREG(status.st_mode):
        _write_in_place(data, real, output)
        return
    mode = stat.S_IMODE(status.st_mode) if status is not None else 0o666 & ~_umask()
    _write_atomically(data, real, output, mode)


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output and flush it, so a full disk is reported here."""
    stream = sys.stdout
    if stream is None:
        raise InputError("cannot write to standard output: it is closed")
    stream.write(text)
    stream.flush()


def _follow(output: str) -> Path:
    """The path a write to ``output`` lands on: symlinks resolved (a dangling link names the
    file that writing creates)."""
    try:
        return Path(os.path.realpath(output, strict=False))
    except OSError as exc:  # a symlink loop
        raise target_error(output, f"cannot write: {exc.strerror or exc}") from None


def _write_atomically(data: bytes, real: Path, output: str, mode: int) -> None:
    try:
        handle, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.")
    except OSError as exc:
        raise target_error(output, f"cannot write in '{real.parent}': {exc.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)  # mkstemp makes 0600; give the usual (or the kept) mode
        os.replace(temporary, real)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise target_error(output, f"cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_in_place(data: bytes, real: Path, output: str) -> None:
    """A FIFO or a device: opened and written as the shell would (no temporary file)."""
    try:
        with open(real, "wb") as stream:
            stream.write(data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENXIO:
            reason = "not a file, FIFO or device that can be written"
        raise target_error(output, f"cannot write: {reason}") from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
