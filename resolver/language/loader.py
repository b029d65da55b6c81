"""Loading the files a command names into one validated :class:`~resolver.language.model.Project`.

Users keep declarations and events wherever suits them: split across ``.ol`` files, exported
from tools as ``.jsonl``, often with overlaps (the same event exported twice, an expectation
copied into two files). The loader's job is to make that one consistent picture, or to refuse:

- Folders are read recursively and in sorted order, so that the same tree always loads the same
  way (messages, "earlier record" references and tie-breaks never depend on the file system's
  listing order). Hidden files and folders (``.git``...) are skipped inside folders; nothing
  else is: an unreadable folder or a dangling symlink to an ``.ol``/``.jsonl`` file is an
  error, and symlinked folders are followed (each real folder once).
- An explicitly named file must be ``.ol`` or ``.jsonl``: a typo such as ``events.json`` should
  stop the command rather than silently contribute nothing.
- The same event recorded twice with identical content is one event: logs overlap in practice,
  and counting it twice would distort sequence gaps and candidate counts. The same id with
  different content is an error, because either record could be the truth and picking one would
  make verdicts depend on file order.
- A declaration (channel, actor, task, expectation, alias) repeated identically is harmless, so
  it is kept once and reported as a warning for ``openloop lint``; repeated with different
  content it is an error, for the same reason as events.
- Output tuples are sorted by name or id (events by id, not by time: the rules order events by
  time themselves, and a stable id order keeps generated facts and outputs reproducible). Test
  blocks keep their reading order, which is the order a user expects them to run and report in.
- A task's ``obligations`` lists every expectation that is ``part_of`` it: those declared inside
  the block (in source order) and then, sorted by id, standalone expectations that name the task
  with ``part_of``. Completion is defined over all of them, so consumers need not re-derive it.
- ``task ID from TEMPLATE`` is expanded here, once every file is read (the template may live in
  another file): plain syntax, an obligation ``ID/NAME`` per template obligation. A template or
  policy id is its own namespace; a policy that ``opens`` an unknown template, or a task ``from``
  one, is an error at that clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from resolver import inputs
from resolver.errors import InputError, Location
from resolver.language.event_columns import EventColumns
from resolver.language.eventlog import read_jsonl
from resolver.language.files import SUFFIXES, collect_files, path_error
from resolver.language.globs import touches_glob, wildcards
from resolver.language.model import (
    Actor,
    Alias,
    Assignment,
    Channel,
    Event,
    Expectation,
    Policy,
    Project,
    Task,
    Template,
    TestBlock,
)
from resolver.language.substitution import expand_template, path_names

__all__ = ["SUFFIXES", "Diagnostic", "collect_files", "load", "load_with_warnings"]


@dataclass(frozen=True)
class Diagnostic:
    """A problem that does not stop loading (``severity`` is ``warning``), for ``lint``."""

    location: Location
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"


def load(paths: Sequence[str | Path], events: EventColumns | None = None) -> Project:
    """Read files and folders into one Project; raises InputError on any bad input.

    ``events``: the events these very files hold, as a previous load of them gave them (the
    store keeps them under the files' digests: :mod:`resolver.store.columns`); the logs are then
    not read again and the ``.ol`` files give only their declarations.
    """
    project, _ = load_with_warnings(paths, events)
    return project


def load_with_warnings(
    paths: Sequence[str | Path], events: EventColumns | None = None
) -> tuple[Project, list[Diagnostic]]:
    """Like :func:`load`, also returning the warnings found while merging (duplicates)."""
    sources = collect_files(paths)
    merger = _Merger()
    for name in sources:
        inputs.note(name)
        try:
            if name.endswith(".ol"):
                merger.add_file(_parse_file(name), with_events=events is None)
            elif events is None:
                merger.add_jsonl(name)
        except OSError as exc:
            raise path_error(name, f"cannot read: {exc.strerror or exc}") from None
    return merger.project(tuple(sources), events), merger.diagnostics


def _parse_file(name: str) -> Project:
    """One ``.ol`` file's project: its kept parse when the cache holds one (so that a warm
    command never builds the grammar's parser), else parsed (``resolver/store/parsed.py``)."""
    from resolver.store.parsed import parse_file

    return parse_file(name)


def _typed(value: Any) -> Any:
    """Values with their types spelled out: in Python ``1 == True``, but ``k = 1`` and
    ``k = true`` are different states, so records differing only so must not count as one."""
    if isinstance(value, Assignment):
        return (value.key, type(value.value).__name__, value.value)
    if isinstance(value, tuple):
        return tuple(_typed(v) for v in value)
    return value


def _content(item: Any) -> tuple[Any, ...]:
    """Everything but the location: two declarations agree iff these are equal."""
    return tuple(_typed(getattr(item, f.name)) for f in fields(item) if f.name != "location")


class _Merger:
    """Accumulates declarations and events in reading order, checking duplicates as it goes."""

    def __init__(self) -> None:
        self.channels: dict[str, Channel] = {}
        self.actors: dict[str, Actor] = {}
        self.aliases: dict[tuple[str, ...], Alias] = {}
        self.tasks: dict[str, Task] = {}
        self.expectations: dict[str, Expectation] = {}
        #: Every event record read, as columns in reading order; ``first`` maps each id to the
        #: row of its first record (later identical records are dropped when the project is made).
        self.store = EventColumns()
        self.first: dict[str, int] = {}
        self.tests: list[TestBlock] = []
        self.templates: dict[str, Template] = {}
        self.policies: dict[str, Policy] = {}
        self.diagnostics: list[Diagnostic] = []

    def add_file(self, parsed: Project, with_events: bool = True) -> None:
        for channel in parsed.channels:
            self._declare(self.channels, channel.name, channel, "channel")
        for actor in parsed.actors:
            self._declare(self.actors, actor.name, actor, "actor")
        for alias in parsed.aliases:
            self._declare(self.aliases, alias.words, alias, "alias")
        for task in parsed.tasks:
            self._refuse_clash(task.id, task.location, self.expectations, "an expectation")
            self._declare(self.tasks, task.id, task, "task")
        for expectation in parsed.expectations:
            self._refuse_clash(expectation.id, expectation.location, self.tasks, "a task")
            if expectation.is_obligation:
                # An identical obligation comes with an identical task, already reported.
                self._declare(self.expectations, expectation.id, expectation, "obligation", False)
            else:
                self._declare(self.expectations, expectation.id, expectation, "expectation")
        for template in parsed.templates:
            self._declare(self.templates, template.id, template, "template")
        for policy in parsed.policies:
            self._declare(self.policies, policy.id, policy, "policy")
        if with_events:
            self.add_events(parsed.events)
        self.tests.extend(parsed.tests)

    def add_events(self, events: Iterable[Event]) -> None:
        start = len(self.store)
        for event in events:
            self.store.append_event(event)
        self._merge_rows(start)

    def add_jsonl(self, name: str) -> None:
        """Read one JSON-lines file straight into the columns, then check its records."""
        start = len(self.store)
        read_jsonl(name, into=self.store)
        self._merge_rows(start)

    def _merge_rows(self, start: int) -> None:
        """The same id twice: one event if the records agree, else an error at the later one."""
        store, first = self.store, self.first
        for row in range(start, len(store)):
            ident = store.ids[row]
            earlier = first.setdefault(ident, row)
            if earlier != row and _typed(store[earlier].content()) != _typed(store[row].content()):
                raise InputError(
                    f"event '{ident}' conflicts with its earlier record at "
                    f"{store.location(earlier)}",
                    store.location(row),
                )

    def _declare(
        self, table: dict[Any, Any], key: Any, item: Any, what: str, warn: bool = True
    ) -> None:
        first = table.get(key)
        if first is None:
            table[key] = item
            return
        shown = " ".join(key) if isinstance(key, tuple) else key
        if _content(first) != _content(item):
            raise InputError(
                f"{what} '{shown}' conflicts with its earlier declaration at {first.location}",
                item.location,
            )
        if warn:
            self.diagnostics.append(
                Diagnostic(
                    item.location,
                    "warning",
                    f"duplicate declaration of {what} '{shown}' (identical to the one at "
                    f"{first.location})",
                )
            )

    def _refuse_clash(
        self, ident: str, location: Location, other: dict[str, Any], what: str
    ) -> None:
        """One id names one thing: markers and ``part_of`` could not tell the two apart."""
        first = other.get(ident)
        if first is not None:
            raise InputError(
                f"'{ident}' is already declared as {what} at {first.location}", location
            )

    def _expand(self) -> None:
        """Expand ``task ID from TEMPLATE`` and check every template reference."""
        for policy in list(self.policies.values()):
            if policy.opens is not None and policy.opens not in self.templates:
                raise InputError(
                    f"policy '{policy.id}' opens unknown template '{policy.opens}'",
                    policy.opens_location,
                )
            if policy.opens is not None:
                self.policies[policy.id] = _opens_by_path(policy, self.templates[policy.opens])
        for task in list(self.tasks.values()):
            if task.template is None:
                continue
            template = self.templates.get(task.template)
            if template is None:
                raise InputError(
                    f"task '{task.id}' is declared from unknown template '{task.template}'",
                    task.location,
                )
            if path_names(template):
                raise InputError(
                    f"task '{task.id}' is declared from template '{template.id}', whose "
                    f"obligations use {', '.join('$' + n for n in sorted(path_names(template)))}"
                    ": only a policy with a 'when touches' can open it (a declared task has no "
                    "matched path)",
                    task.location,
                )
            expanded, obligations = expand_template(template, task)
            self.tasks[task.id] = expanded
            for ob in obligations:
                ob = replace(ob, location=task.location)
                self._refuse_clash(ob.id, task.location, self.tasks, "a task")
                self._refuse_clash(ob.id, task.location, self.expectations, "an expectation")
                self.expectations[ob.id] = ob

    def project(self, sources: tuple[str, ...], events: EventColumns | None = None) -> Project:
        """The merged project; ``events`` (if given) instead of the rows read."""
        self._expand()
        members: dict[str, list[str]] = {}
        for expectation in sorted(self.expectations.values(), key=lambda x: x.id):
            if expectation.part_of is not None:
                members.setdefault(expectation.part_of, []).append(expectation.id)
        tasks = []
        for task in sorted(self.tasks.values(), key=lambda t: t.id):
            extra = [x for x in members.get(task.id, []) if x not in task.obligations]
            if extra:
                task = replace(task, obligations=(*task.obligations, *extra))
            tasks.append(task)
        return Project(
            channels=tuple(sorted(self.channels.values(), key=lambda c: c.name)),
            actors=tuple(sorted(self.actors.values(), key=lambda a: a.name)),
            aliases=tuple(sorted(self.aliases.values(), key=lambda a: a.words)),
            tasks=tuple(tasks),
            expectations=tuple(sorted(self.expectations.values(), key=lambda x: x.id)),
            events=self.store.take([self.first[ident] for ident in sorted(self.first)])
            if events is None
            else events,
            tests=tuple(self.tests),
            sources=sources,
            templates=tuple(sorted(self.templates.values(), key=lambda t: t.id)),
            policies=tuple(sorted(self.policies.values(), key=lambda p: p.id)),
        )


def _opens_by_path(policy: Policy, template: Template) -> Policy:
    """A policy opening a template whose obligations read ``$path``, ``$1``, ... opens one task
    instance per path its ``when touches`` matches; the names must have something to stand
    for, else an error at its ``opens``."""
    used = path_names(template)
    if not used:
        return policy
    where = f"template '{template.id}' reads the matched path ({', '.join(sorted(used))})"
    if policy.keyed is not None:
        raise InputError(
            f"{where}, but policy '{policy.id}' opens it per key ('when set'): an instance is "
            "one per key or one per path, not both",
            policy.opens_location,
        )
    chosen = touches_glob(policy.conditions)
    if chosen is None:
        raise InputError(
            f"{where}, but policy '{policy.id}' has no 'when touches'", policy.opens_location
        )
    glob = policy.conditions[chosen].operand
    highest = max((int(n) for n in used if n.isdigit()), default=0)
    if highest > wildcards(glob):
        raise InputError(
            f"{where}, but the glob \"{glob}\" of policy '{policy.id}' has "
            f"{wildcards(glob)} wildcard(s): '${highest}' has nothing to stand for",
            policy.opens_location,
        )
    return replace(policy, path_cond=chosen)
