"""A prepared history kept warm between hook calls: the content-keyed store.

A hook is a fresh process each time the agent stops, and preparing a real history costs
seconds. The prepared history is kept in the user's cache folder by :mod:`resolver.store`:
keyed by the SHA-256 of every input file and of the code (never by sizes and modification
times, which a same-size edit with its mtime restored fools), in a SQLite file that holds only
atoms as text (never a pickle, which would let whoever writes the cache folder run code in the
hook). Anything that does not match is a miss, and the history is prepared from the files as
usual. The cache is only ever a copy: deleting it changes no answer.

A hook judges one task, so it asks for a *scope*: the task's independent group of declarations
(:func:`resolver.engine.partition.groups`: the task, its obligations and whatever a rule ties to
them), prepared with every channel, actor, alias and event but without the other expectations.
Grouping decides no verdict (a part's verdicts are those of the whole history, checked by the
partition tests); it only leaves out the candidates, reasons and text links of items the task
does not read, which is most of the work of preparing and solving.

The folder is ``$OPENLOOP_CACHE_DIR``, else ``$XDG_CACHE_HOME/openloop``, else
``~/.cache/openloop``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the store is imported where it is used: a stop that warms never reads it
    from resolver.engine.prepared import Prepared
    from resolver.store.keys import Stamp


def signature(files: Sequence[str]) -> str:
    """What a kept history must match: the content of every file, and the code."""
    from resolver.store import Stamp

    return Stamp.of(files).key


def prepare_files(files: Sequence[str], scope: str | None = None) -> Prepared:
    """Load and prepare ``files``; with ``scope``, only the group of declarations holding it.

    An id in no group (undeclared, or a policy's task instance, which exists only once the
    history is prepared) gets the whole history, so every task is found where it exists.
    """
    from resolver.store import prepare_files as _prepare_files

    return _prepare_files(files, scope)


def load_prepared(
    paths: Sequence[str | Path],
    use_cache: bool = True,
    scope: str | None = None,
    same_log_as: Sequence[str | Path] | None = None,
    write: bool = True,
    on_read: Callable[[Stamp], object] | None = None,
) -> Prepared:
    """The prepared history of ``paths`` (of ``scope``'s group, see :func:`prepare_files`):
    from the store when its entry is current, else from the files (and, unless ``write`` is
    False, the entry written); ``same_log_as`` and ``on_read``: see
    :func:`resolver.store.load_prepared`."""
    from resolver.store import load_prepared as _stored

    return _stored(
        paths, scope, use_store=use_cache, same_log_as=same_log_as, write=write, on_read=on_read
    )


#: The warm-up children this process started: while one runs, it shares the parent's memory,
#: so every page the parent writes after the fork is copied first (see :func:`resolver.cli.hook.
#: run`, which ends the hook's process without tearing its interpreter down).
children: list[int] = []


def warm_in_background(
    paths: Sequence[str | Path],
    scope: str | None = None,
    then: Callable[[Prepared], object] | None = None,
    prepare: Callable[[], Prepared] | None = None,
) -> None:
    """Prepare the history of ``paths`` (of ``scope``'s group) as the files are now in a
    detached child, and store it (``prepare``, when given, loads it instead); ``then`` asks it
    what the next call will ask (its answer is kept by the plateau memo, so that call is a
    lookup).

    The parent returns at once; the child lets go of stdin, stdout and stderr first, so the host
    reading the hook's output sees it end as soon as the parent exits. The store writes an entry
    only when the files read the same before and after the child loaded them, so a write racing
    with it only causes a later miss.
    """
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        children.append(pid)
        return
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        prepared = load_prepared(paths, scope=scope) if prepare is None else prepare()
        if then is not None:
            then(prepared)
    finally:
        os._exit(0)


def ask_ahead(task: str, since: int | None = None) -> Callable[[Prepared], None]:
    """The next claim's question, asked on the plateaus that claim can fall on: after this
    second (a time the answer can turn on) and before any later threshold; and, after a claim
    made at ``since``, at that second and the next as well (the claim's times are thresholds, so
    a claim in the same second as the last, or the one after, is on a plateau of its own). Each
    answer is kept by the plateau memo (once per plateau), so the next claim is a lookup."""

    def ask(ready: Prepared) -> None:
        from resolver import api
        from resolver.times import now

        declared = ready.project.task(task)
        if declared is None:
            return
        moments = {now() + 1} if since is None else {since, since + 1, now() + 1}
        for moment in sorted(moments):
            api.explained(ready, api.standpoint(moment, "latest"), declared.obligations)

    return ask
