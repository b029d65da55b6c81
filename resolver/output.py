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
- A file that must not be clobbered (``openloop init`` without ``--force``) is linked into place
  from the temporary file, which fails if the name exists: no window between a check and the
  write in which another file could appear and be replaced.

This is the one output path: ``status -o``, ``graph -o``, ``test --junit``, every importer's
``-o`` and ``--ol`` (streamed through :func:`writing`), ``init``; ``--append`` targets are
checked by :func:`check_append_target` (appending needs a regular file it can read back).

Every refusal is an :class:`~resolver.errors.InputError` printed as ``FILE: error: ...`` (exit 2).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

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


def write_bytes(data: bytes, output: str, *, replace: bool = True) -> None:
    """Write ``data`` to ``output`` as ``> output`` would, atomically for regular files; with
    ``replace=False`` an existing ``output`` is refused instead."""
    with writing(output, replace=replace) as stream:
        try:
            stream.write(data)
        except OSError as exc:
            raise target_error(output, f"cannot write: {exc.strerror or exc}") from None


@contextlib.contextmanager
def writing(output: str, *, replace: bool = True) -> Iterator[IO[bytes]]:
    """A binary stream whose content lands on ``output`` only when the block ends normally.

    A regular file (or a new name) is a temporary file in the same folder, flushed, synced and
    renamed (or, without ``replace``, linked) into place; an exception in the block removes it
    and leaves ``output`` as it was. A FIFO or a device is opened and written in place.
    """
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
    if not replace and (status is not None or os.path.lexists(output)):
        raise _exists(output)
    if status is not None and not stat.S_ISREG(status.st_mode):
        with _in_place(real, output) as stream:
            yield stream
        return
    mode = stat.S_IMODE(status.st_mode) if status is not None else 0o666 & ~_umask()
    with _atomically(real, output, mode, replace) as stream:
        yield stream


def check_append_target(output: str) -> None:
    """Refuse, before anything is read or written, an ``--append`` target that cannot be
    appended to safely: a folder, a missing folder, an input file, or anything but a regular
    file (appending reads the log back first, which a FIFO or a device cannot give)."""
    real = _follow(output)
    check_target(output)
    source = inputs.read_as(real)
    if source is not None:
        raise target_error(output, f"refusing to append to the input file '{source}'")
    try:
        status = os.stat(real)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise target_error(output, f"cannot append: {exc.strerror}") from None
    if not stat.S_ISREG(status.st_mode):
        raise target_error(
            output, "is not a regular file; --append reads the log it adds to (use -o to stream)"
        )


def _exists(output: str) -> InputError:
    return target_error(output, "already exists; --force replaces it")


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


@contextlib.contextmanager
def _atomically(real: Path, output: str, mode: int, replace: bool) -> Iterator[IO[bytes]]:
    try:
        handle, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.")
    except OSError as exc:
        raise target_error(output, f"cannot write in '{real.parent}': {exc.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)  # mkstemp makes 0600; give the usual (or the kept) mode
        if replace:
            os.replace(temporary, real)
        else:
            _link_new(temporary, real, output)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(exc, FileExistsError) and not replace:
            raise _exists(output) from None
        raise target_error(output, f"cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _link_new(temporary: str, real: Path, output: str) -> None:
    """Put ``temporary`` at ``real`` only if nothing is there (a hard link fails on an existing
    name; where links are not supported, an exclusive rename check is the fallback)."""
    try:
        os.link(temporary, real)
    except FileExistsError:
        raise
    except OSError:  # no hard links here: the narrow check-then-rename is the best left
        if os.path.lexists(real):
            raise FileExistsError(errno.EEXIST, "exists") from None
        os.replace(temporary, real)
        return
    Path(temporary).unlink(missing_ok=True)


@contextlib.contextmanager
def _in_place(real: Path, output: str) -> Iterator[IO[bytes]]:
    """A FIFO or a device: opened and written as the shell would (no temporary file)."""
    try:
        stream = open(real, "wb")  # noqa: SIM115 (closed below, errors mapped to one line)
    except OSError as exc:
        raise target_error(output, f"cannot write: {_reason(exc)}") from None
    try:
        with stream:
            yield stream
    except OSError as exc:
        raise target_error(output, f"cannot write: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENXIO:
        return "not a file, FIFO or device that can be written"
    return exc.strerror or str(exc)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
