"""A prepared history kept warm between hook calls: a pickle in the user's cache folder.

A hook is a fresh process each time the agent stops, and preparing a 10k-event history costs
seconds; reading a pickled :class:`Prepared` costs a tenth of that. The cache entry is keyed by
the resolved input paths and is valid only while every input file has the size and modification
time it had when the entry was written, and the openloop version, grammar and rules are the same;
anything else is a miss, and the history is prepared from the files as usual. The cache is only
ever a copy: deleting it changes no answer.

The folder is ``$OPENLOOP_CACHE_DIR``, else ``$XDG_CACHE_HOME/openloop``, else
``~/.cache/openloop``. Entries are written to a temporary file and renamed into place.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from resolver import __version__, resources
from resolver.engine.prepared import Prepared
from resolver.language.loader import collect_files, load


def cache_dir() -> Path:
    """Where entries live."""
    explicit = os.environ.get("OPENLOOP_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "openloop"


@cache
def _code_stamp() -> str:
    digest = hashlib.sha256(__version__.encode())
    digest.update(resources.grammar_text().encode("utf-8"))
    for path in resources.rule_files():
        digest.update(path.read_bytes())
    return digest.hexdigest()


def signature(files: Sequence[str]) -> str:
    """What the entry must match: every file's resolved path, size and mtime, and the code."""
    digest = hashlib.sha256(_code_stamp().encode())
    for name in files:
        stat = os.stat(name)
        digest.update(f"{Path(name).resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _entry(files: Sequence[str]) -> Path:
    key = "\0".join(str(Path(name).resolve()) for name in files)
    return cache_dir() / f"prepared-{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"


def load_prepared(paths: Sequence[str | Path], use_cache: bool = True) -> Prepared:
    """The prepared history of ``paths``: from the cache when it is current, else from files."""
    files = collect_files(paths)
    if not use_cache:
        return Prepared(load(files))
    stamp = signature(files)  # taken before reading: an entry is never newer than its stamp
    try:
        with open(_entry(files), "rb") as stream:
            stored, prepared = pickle.load(stream)
        if stored == stamp and isinstance(prepared, Prepared):
            return prepared
    except Exception:  # a missing, torn or foreign entry is a miss, never an error
        pass
    prepared = Prepared(load(files))
    store(files, prepared, stamp)
    return prepared


def store(files: Sequence[str], prepared: Prepared, stamp: str) -> None:
    """Write an entry (best effort: a cache never fails a call)."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".prepared-")
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump((stamp, prepared), stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, _entry(files))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        pass


def warm_in_background(paths: Sequence[str | Path]) -> None:
    """Prepare the history of ``paths`` as the files are now in a detached child, and store it.

    The parent returns at once; the child lets go of stdin, stdout and stderr first, so the host
    reading the hook's output sees it end as soon as the parent exits. The child takes the
    files' stamp before it reads them, so a write racing with it only causes a later miss.
    """
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        return
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        files = collect_files(paths)
        stamp = signature(files)
        store(files, Prepared(load(files)), stamp)
    finally:
        os._exit(0)
