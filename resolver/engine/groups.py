"""Groups: the declarations no rule connects, so that a part of them can be solved alone.

Expectations and tasks fall into groups that no rule connects: an expectation's verdict reads
its own opening, candidates, bound and footprint, and beyond that only what a declaration or an
event ties it to (a task and its obligations, ``requires``, ``part_of``, the items one event's
markers name together). Policies and templates derive items from the events, so everything a
policy or template could touch (every policy and template, a task made from a template, and any
item a reference names that is not declared) is one group.

Grouping decides no verdict: it only splits the declarations. Every part gets all channels,
actors, aliases and *every* event, and is prepared and solved by the ordinary engine
(:class:`~resolver.engine.prepared.Prepared`); the parts' verdicts are then concatenated in the
order a single solve lists them. ``tests/perf/test_partition.py`` checks on random histories
that any partitioning gives byte-identical ``status --format json``.

Running the parts (in processes or on a cluster) and merging their verdicts is the API's
(:mod:`resolver.api.parallel`); a scope (:func:`scoped`) is one group, what the commands about one
item prepare.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from random import Random

from resolver.language.model import Project

#: The group of everything policies and templates may derive or touch.
_DERIVED = "\x00derived"


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class _Groups:
    """Union-find over item ids."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, item: str) -> str:
        root = self.parent.setdefault(item, item)
        while root != self.parent[root]:
            root = self.parent[root]
        while item != root:  # path compression
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def groups(project: Project) -> list[list[str]]:
    """The independent groups of declared item ids (expectations and tasks), each sorted, in
    the order of their first id; the policy group (if any) holds the marker ``_DERIVED``."""
    found = _Groups()
    declared = {x.id for x in project.expectations} | {t.id for t in project.tasks}
    derives = bool(project.policies or project.templates)

    def named(item: str | None) -> str | None:
        if item is None:
            return None
        if item in declared:
            return item
        return _DERIVED if derives else None  # names nothing declared: only a policy may make it

    if derives:
        found.find(_DERIVED)
    for item in sorted(declared):
        found.find(item)
    for x in project.expectations:
        for other in (x.part_of, *x.requires):
            target = named(other)
            if target is not None:
                found.union(x.id, target)
    for task in project.tasks:
        if task.template is not None and derives:
            found.union(task.id, _DERIVED)
        for other in (*task.obligations, *task.requires):
            target = named(other)
            if target is not None:
                found.union(task.id, target)
    for event in project.marked_events():
        targets = [t for t in (named(m.target) for m in event.markers) if t is not None]
        for other in targets[1:]:
            found.union(targets[0], other)
    members: dict[str, list[str]] = {}
    for item in sorted(found.parent):
        members.setdefault(found.find(item), []).append(item)
    return sorted(members.values(), key=lambda group: group[0])


def split(project: Project, parts: int, seed: int | None = None) -> list[list[str]]:
    """The groups packed into at most ``parts`` parts of about equal size (largest group
    first, each into the lightest part); ``seed`` instead deals groups to parts at random
    (the property tests use it to try arbitrary partitionings)."""
    found = groups(project)
    count = max(1, min(parts, len(found)))
    bins: list[list[str]] = [[] for _ in range(count)]
    if seed is not None:
        rng = Random(seed)
        for group in found:
            bins[rng.randrange(count)].extend(group)
    else:
        for group in sorted(found, key=lambda g: (-len(g), g[0])):
            min(bins, key=len).extend(group)
    return [sorted(b) for b in bins if b]


def subproject(project: Project, items: Sequence[str]) -> Project:
    """The project with only ``items`` declared (and the policies and templates if the part
    holds the policy group); every channel, actor, alias and event is kept."""
    keep = set(items)
    derives = _DERIVED in keep
    return replace(
        project,
        expectations=tuple(x for x in project.expectations if x.id in keep),
        tasks=tuple(t for t in project.tasks if t.id in keep),
        policies=project.policies if derives else (),
        templates=project.templates if derives else (),
        tests=(),
        derived={},
    )


def scoped(project: Project, item: str | None) -> Project:
    """The project with only the declarations of ``item``'s group, or the whole project.

    Groups are :func:`groups`: a task with its obligations, what ``requires`` and ``part_of``
    join, the items one event's markers name together, and one group for everything policies
    and templates touch. Every channel, actor, alias and event is kept. No rule reads across
    groups, so the item's verdict and explanation are those of the whole history
    (``tests/engine/test_scoped.py``) at the cost of its group alone: on a real history one
    expectation's explanation no longer grounds every other expectation's candidates. An id in
    no group (undeclared, or an instance only a policy makes) keeps the whole project.
    """
    if item is None:
        return project
    group = next((g for g in groups(project) if item in g), None)
    return project if group is None else subproject(project, group)
