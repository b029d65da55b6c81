"""What a stored history is keyed by: the bytes of every input file and the code that read them.

A key made of sizes and modification times can be fooled (an edit of the same size, with the old
mtime restored, reads as unchanged); a digest of the content cannot. The key covers the
openloop version, the grammar, every rule file and the Python that turns files into facts (a
new rule or a changed fact writer changes every answer, also in an editable install), the scope
asked for, and each input file's resolved path and SHA-256, in the order the loader reads them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from resolver import __version__, resources

#: Bumped whenever what an entry holds changes shape: an entry of another format is a miss.
FORMAT = 6
#: The packages whose code decides the facts and the atoms a stored history holds.
_DECIDING = ("language", "facts", "engine", "store")


@cache
def code_stamp() -> str:
    """A digest of the code that decides answers: version, grammar and rules."""
    digest = hashlib.sha256(f"openloop {__version__} store {FORMAT}\n".encode())
    digest.update(resources.grammar_text().encode("utf-8"))
    package = Path(__file__).resolve().parent.parent
    # (engine/groups.py draws a scope's group: an entry of a scope holds that group's atoms.)
    sources = [package / "times.py", package / "vocabulary.py"]
    for name in _DECIDING:
        sources.extend(sorted((package / name).glob("*.py")))
    for path in [*resources.rule_files(), *sources]:
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class FileStamp:
    """One input file as it was read: its resolved path, size and SHA-256, and its name as
    the command was given it (locations in the answers carry that name: ``status h/`` and
    ``status /abs/h/`` name their files differently)."""

    path: str
    size: int
    digest: str
    given: str = ""


@dataclass(frozen=True)
class Stamp:
    """Every input file's stamp and the key they make with the code and the scope."""

    files: tuple[FileStamp, ...]
    scope: str | None
    key: str

    @classmethod
    def of(cls, files: Sequence[str], scope: str | None = None) -> Stamp:
        """Read and digest every file (an unreadable one raises ``OSError``)."""
        stamps = []
        for name in files:
            with open(name, "rb") as stream:
                digest = hashlib.file_digest(stream, "sha256")
                size = stream.tell()
            resolved = str(Path(name).resolve())
            stamps.append(FileStamp(resolved, size, digest.hexdigest(), str(name)))
        return cls(tuple(stamps), scope, _key(stamps, scope))

    @classmethod
    def of_digested(cls, stamps: Sequence[FileStamp], scope: str | None = None) -> Stamp:
        """The stamp of files already digested (their stamps, in reading order)."""
        return cls(tuple(stamps), scope, _key(stamps, scope))

    def unscoped(self) -> Stamp:
        """The stamp of the same files read whole (no scope), without reading them again."""
        return Stamp(self.files, None, _key(self.files, None))


def _key(stamps: Sequence[FileStamp], scope: str | None) -> str:
    whole = hashlib.sha256(code_stamp().encode())
    whole.update(f"\0scope\0{scope or ''}\n".encode())
    for found in stamps:
        line = f"{found.path}\0{found.given}\0{found.size}\0{found.digest}\n"
        whole.update(line.encode("utf-8", errors="surrogateescape"))
    return whole.hexdigest()


def entry_name(files: Sequence[str], scope: str | None = None) -> str:
    """The file name of the entry for these input paths (and scope): one entry per history a
    user asks about, replaced whenever its content changes."""
    key = "\0".join(str(Path(name).resolve()) for name in files)
    if scope is not None:
        key += f"\0\0scope\0{scope}"
    return f"prepared-{hashlib.sha256(key.encode()).hexdigest()[:24]}.sqlite"


def entry_path(files: Sequence[str], scope: str | None = None) -> Path:
    """Where the entry for these input paths lives: in the user's cache folder."""
    return resources.cache_dir() / entry_name(files, scope)
