"""A prepared history kept warm between hook calls: a pickle in the user's cache folder.

A hook is a fresh process each time the agent stops, and preparing a 10k-event history costs
seconds; reading a pickled :class:`Prepared` costs a tenth of that. The cache entry is keyed by
the resolved input paths (and the scope, below) and is valid only while every input file has the
size and modification time it had when the entry was written, and the openloop version, grammar
and rules are the same; anything else is a miss, and the history is prepared from the files as
usual. The cache is only ever a copy: deleting it changes no answer.

A hook judges one task, so it asks for a *scope*: the task's independent group of declarations
(:func:`resolver.engine.partition.groups`: the task, its obligations and whatever a rule ties to
them), prepared with every channel, actor, alias and event but without the other expectations.
Grouping decides no verdict (a part's verdicts are those of the whole history, checked by the
partition tests); it only leaves out the candidates, reasons and text links of items the task
does not read, which is most of the work of preparing and solving.

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


def _entry(files: Sequence[str], scope: str | None = None) -> Path:
    key = "\0".join(str(Path(name).resolve()) for name in files)
    if scope is not None:
        key += f"\0\0scope\0{scope}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return resources.cache_dir() / f"prepared-{digest}.pickle"


def prepare_files(files: Sequence[str], scope: str | None = None) -> Prepared:
    """Load and prepare ``files``; with ``scope``, only the group of declarations holding it.

    An id in no group (undeclared, or a policy's task instance, which exists only once the
    history is prepared) gets the whole history, so every task is found where it exists.
    """
    from resolver.api import scoped

    return Prepared(scoped(load(files), scope))


def load_prepared(
    paths: Sequence[str | Path], use_cache: bool = True, scope: str | None = None
) -> Prepared:
    """The prepared history of ``paths`` (of ``scope``'s group, see :func:`prepare_files`):
    from the cache when it is current, else from the files."""
    files = collect_files(paths)
    if not use_cache:
        return prepare_files(files, scope)
    stamp = signature(files)  # taken before reading: an entry is never newer than its stamp
    try:
        with open(_entry(files, scope), "rb") as stream:
            stored, prepared = pickle.load(stream)
        if stored == stamp and isinstance(prepared, Prepared):
            return prepared
    except Exception:  # a missing, torn or foreign entry is a miss, never an error
        pass
    prepared = prepare_files(files, scope)
    store(files, prepared, stamp, scope)
    return prepared


def store(files: Sequence[str], prepared: Prepared, stamp: str, scope: str | None = None) -> None:
    """Write an entry (best effort: a cache never fails a call)."""
    try:
        folder = resources.cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".prepared-")
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump((stamp, prepared), stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, _entry(files, scope))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        pass


def warm_in_background(paths: Sequence[str | Path], scope: str | None = None) -> None:
    """Prepare the history of ``paths`` (of ``scope``'s group) as the files are now in a
    detached child, and store it.

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
        store(files, prepare_files(files, scope), stamp, scope)
    finally:
        os._exit(0)
