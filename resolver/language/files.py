"""Which files a command reads: named files as given, folders expanded recursively, in a
stable order, with every problem an error (a missing file changes verdicts, so nothing below a
named folder is skipped silently but hidden files and folders).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from resolver.errors import InputError, Location

__all__ = ["SUFFIXES", "collect_files", "path_error"]

#: File name endings the loader reads.
SUFFIXES = (".ol", ".jsonl")


class _PathLocation(Location):
    """A location that is a whole file or folder: prints as ``PATH`` alone (line is 0)."""

    def __str__(self) -> str:
        return self.file


def _path_error(path: str, message: str) -> InputError:
    return InputError(message, _PathLocation(path, 0))


def path_error(path: str, message: str) -> InputError:
    """An error about a whole file or folder (printed as ``PATH: error: ...``)."""
    return InputError(message, _PathLocation(path, 0))


def collect_files(paths: Iterable[str | Path] | str | Path) -> list[str]:
    """The files to read, in order: named files as given, folders expanded recursively.

    A file reached twice (named and inside a named folder, say) is read once, at its first
    place. Names are kept as the user spelled them (joined with the folder's relative path) so
    that messages point where the user looks.
    """
    files: list[str] = []
    seen: set[Path] = set()

    def add(name: str) -> None:
        key = Path(name).resolve()
        if key not in seen:
            seen.add(key)
            files.append(name)

    if isinstance(paths, str | Path):
        paths = [paths]  # one path, not a sequence of one-character names
    for entry in paths:
        name = str(entry)
        path = Path(entry)
        if path.is_dir():
            for found in _walk(path):
                add(found)
        elif path.is_file():
            if path.suffix not in SUFFIXES:
                raise path_error(
                    name, f"cannot read '{path.suffix or path.name}' files; expected .ol or .jsonl"
                )
            add(name)
        elif path.exists():
            raise path_error(name, "not a regular file or folder")
        else:
            raise path_error(name, "no such file or directory")
    return files


def _walk(root: Path) -> list[str]:
    """Every ``.ol`` / ``.jsonl`` file below root, sorted by path components, hidden skipped.

    Nothing below root is skipped silently, since a missing file changes verdicts: a folder
    that cannot be listed and a symlink to an ``.ol`` or ``.jsonl`` file that points nowhere
    are errors. Symlinked folders are followed, each real folder once (a link back to an
    ancestor ends there).
    """
    found: list[tuple[tuple[str, ...], str]] = []
    visited: set[tuple[int, int]] = set()

    def visit(folder: Path) -> None:
        try:
            status = folder.stat()
            key = (status.st_dev, status.st_ino)
            if key in visited:
                return
            visited.add(key)
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            raise path_error(str(folder), f"cannot read folder: {exc.strerror or exc}") from None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = folder / entry.name
            if _is_dir(entry):
                visit(path)
            elif entry.name.endswith(SUFFIXES):
                if entry.is_symlink() and not path.exists():
                    raise path_error(str(path), "symlink to a file that does not exist")
                if not path.is_file():
                    raise path_error(str(path), "not a regular file")
                found.append((path.relative_to(root).parts, str(path)))

    visit(root)
    return [name for _, name in sorted(found)]


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder, or a symlink to one (a dangling or looping link is not)."""
    try:
        return entry.is_dir()
    except OSError:
        return False
