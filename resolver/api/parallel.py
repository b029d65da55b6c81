"""Parts: every verdict at one standpoint, solved in independent parts on cores or a cluster.

The parts are groups of declarations no rule connects (:mod:`resolver.engine.groups`); each part
gets every channel, actor, alias and event, is prepared and solved by the ordinary engine, and
the parts' verdicts are concatenated in the order a single solve lists them.
``tests/perf/test_partition.py`` checks on random histories that any partitioning gives
byte-identical ``status --format json``.

Parts run in ``--jobs N`` processes (threads gain nothing, clingo and the fact builder hold
the interpreter): this process solves the first part itself while ``N - 1`` forked workers
solve the others, so no process only waits and one answer is never pickled. The loaded project
(columns, shared with the workers by the fork) is frozen out of the garbage collector's reach
before the fork. With ``--cluster ADDRESS`` the parts run on a running ``dask.distributed``
scheduler instead (the optional extra ``openloop-resolver[cluster]``); a worker finds
:func:`solve_part` by its module path, so every worker needs openloop installed.

What the parts cost beyond one solve (``docs/design/performance.md``, "Partitions"): each part
builds its own facts from every event (the text linker's index and the channel log are the same in
every part), parses the rules twice (one ``prepare`` and one ``standpoint`` control) and grounds
the events that the text links to items of more than one part; the standpoint solve, which grows
faster than the items, costs less in parts.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace

from resolver.api.history import snapshot_facts
from resolver.engine.groups import default_jobs, groups, split, subproject
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.facts.interning import Interner
from resolver.language.model import Project
from resolver.verdicts.resolution import Resolution, resolve

__all__ = [
    "Answer",
    "Ask",
    "default_jobs",
    "groups",
    "merge",
    "resolve_parts",
    "solve_part",
    "split",
    "wanted",
]

#: With the default ``--jobs`` (the core count), a history smaller than this is solved in one
#: process: starting workers costs more than it saves. An explicit ``--jobs N`` always splits.
PARALLEL_FROM_EVENTS = 5_000
#: Seconds to wait for a ``--cluster`` scheduler before giving up with a one-line error.
CONNECT_TIMEOUT = "10s"


@dataclass(frozen=True)
class Ask:
    """One standpoint's question, as every part answers it (``every_reason`` False: only the
    key reasons and a count of the rest, as :class:`~resolver.engine.query.Query` says)."""

    standpoint: Standpoint
    snapshot: str | None = None
    reasons: bool = True
    every_reason: bool = True


@dataclass(frozen=True)
class Answer:
    """A part's verdicts (without its atoms) and the policy instances its facts built."""

    resolution: Resolution
    derived: dict


def solve_part(project: Project, items: Sequence[str], ask: Ask) -> Answer:
    """Prepare and resolve one part with the ordinary engine."""
    prepared = Prepared(subproject(project, items))
    query = snapshot_facts(prepared, ask.snapshot) if ask.snapshot else Query()
    query = replace(query, every_reason=ask.every_reason)
    resolution = resolve(prepared, ask.standpoint, query, reasons=ask.reasons)
    return Answer(replace(resolution, atoms=None), dict(prepared.project.derived))


def merge(standpoint: Standpoint, answers: Sequence[Answer]) -> Resolution:
    """The parts' verdicts as one resolution, in a single solve's order (by id; findings by
    event, kind and target)."""
    resolutions = [a.resolution for a in answers]
    expectations = sorted((x for r in resolutions for x in r.expectations), key=lambda x: x.id)
    tasks = sorted((t for r in resolutions for t in r.tasks), key=lambda t: t.id)
    findings = sorted(
        (f for r in resolutions for f in r.findings), key=lambda f: (f.event, f.kind, f.target)
    )
    return Resolution(standpoint, tuple(expectations), tuple(tasks), tuple(findings))


# -- running the parts -------------------------------------------------------------------------

_WORKER_PROJECT: Project | None = None


def _init_worker(project: Project) -> None:
    global _WORKER_PROJECT
    _WORKER_PROJECT = project


def _pool_part(items: list[str], ask: Ask) -> Answer:
    assert _WORKER_PROJECT is not None
    return solve_part(_WORKER_PROJECT, items, ask)


def _run_pool(project: Project, parts: list[list[str]], ask: Ask, jobs: int) -> list[Answer]:
    """The first part solved here while ``jobs - 1`` forked workers solve the others.

    This process would only wait otherwise, and its answer needs no pickling. The loaded
    project is moved to the garbage collector's permanent generation before the fork
    (``gc.freeze``): a worker's collections then never walk the inherited objects, which costs
    CPU and writes to (so copies) every page holding one; it is thawed again afterwards
    unless the caller had frozen it already.
    """
    import multiprocessing  # here, not at the top: a command that solves in one process
    from concurrent.futures import ProcessPoolExecutor  # never pays their 20-30 ms of import

    methods = multiprocessing.get_all_start_methods()
    # fork hands the loaded project to the workers without pickling it
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    thaw = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        with ProcessPoolExecutor(
            max_workers=max(1, min(jobs, len(parts)) - 1),
            mp_context=context,
            initializer=_init_worker,
            initargs=(project,),
        ) as pool:
            # with fork, the first submit starts every worker: before the work here begins
            futures = [pool.submit(_pool_part, items, ask) for items in parts[1:]]
            try:
                here = solve_part(project, parts[0], ask)
            except BaseException:
                pool.shutdown(cancel_futures=True)  # start no queued part for a lost answer
                raise
            return [here, *(future.result() for future in futures)]
    finally:
        if thaw:
            gc.unfreeze()


def _run_cluster(project: Project, parts: list[list[str]], ask: Ask, address: str) -> list:
    from resolver.errors import InputError

    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--cluster needs dask.distributed: pip install 'openloop-resolver[cluster]'"
        ) from None
    try:
        client = Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"--cluster: cannot reach the scheduler at {address!r}: {exc}") from None
    with client:
        shared = client.scatter(project, broadcast=True)
        futures = [client.submit(solve_part, shared, items, ask, pure=False) for items in parts]
        return client.gather(futures)


def _check_snapshot(path: str | Path | None) -> None:
    """Read the snapshot once up front, so that bad input is one error before any work."""
    if path is not None:
        snapshot_facts(SimpleNamespace(facts=SimpleNamespace(interner=Interner())), path)


def resolve_parts(
    project: Project,
    standpoint: Standpoint,
    snapshot: str | Path | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    parts: list[list[str]] | None = None,
    reasons: bool = True,
    every_reason: bool = True,
) -> Resolution:
    """Every verdict at ``standpoint``, solved in parts; identical to one solve.

    ``parts`` (default: :func:`~resolver.engine.groups.split` into ``jobs`` parts) lists each
    part's item ids. With ``cluster`` the parts run on that dask scheduler, else in ``jobs``
    processes: this one and ``jobs - 1`` forked workers. ``reasons`` and ``every_reason`` are the
    query's (False: no reasons; only the key reasons and a count of the rest). Policy instances
    the parts built are added to ``project.derived`` so that every face reads them as a single
    solve would leave them.
    """
    _check_snapshot(snapshot)
    ask = Ask(standpoint, None if snapshot is None else str(snapshot), reasons, every_reason)
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if parts is None:
        parts = split(project, jobs)
    if cluster is not None:
        answers = _run_cluster(project, parts, ask, cluster)
    elif len(parts) <= 1 or jobs <= 1:
        answers = [solve_part(project, items, ask) for items in parts]
    else:
        answers = _run_pool(project, parts, ask, jobs)
    for answer in answers:
        project.derived.update(answer.derived)
    return merge(standpoint, answers)


def wanted(project: Project, jobs: int | None, cluster: str | None) -> bool:
    """Whether to split at all: always on a cluster or with an explicit ``--jobs`` above 1;
    with the default, only on a multi-core machine and a history worth it."""
    if cluster is not None:
        return True
    if jobs is not None:
        return jobs > 1
    return default_jobs() > 1 and len(project.events) >= PARALLEL_FROM_EVENTS
