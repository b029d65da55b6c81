"""Static checks over a loaded project: what will run but is probably not what was meant.

``openloop lint`` loads the files (any problem that stops the resolver is an error there, exit
2) and then reports warnings: references to nothing (unknown events in ``opened_by``, ``before``
or markers; unknown expectations or tasks in ``requires``, ``part_of``, markers and test
assertions; search channels no event uses), expectations that can never open or never be
satisfied, clauses that contradict each other, and the loader's own warnings (identical
duplicate declarations). These are checks of the text, not verdicts: nothing here asks what any
status is. What the rules derive from the declarations alone is read from their atoms, never
re-derived: which channels are mention channels (``mention``), who acts as an agent (``acts_as``,
actor patterns included), which ``by`` values a pattern applies to (``pattern_applies``) and
which expectations name no opening of their own or their task's (``never_opens``). The
``prepare`` part is solved over the declarations only (every one of those atoms follows from
them), which takes milliseconds where preparing the whole history takes seconds.

>>> from resolver.language.loader import load_with_warnings
>>> project, loaded = load_with_warnings(["fixtures/release"])     # doctest: +SKIP
>>> [str(d) for d in lint(project, loaded)]                        # doctest: +SKIP
['fixtures/release/release.ol:33:1: warning: before names release-024, ...']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx

from resolver.engine.prepared import Atoms
from resolver.engine.prepared import declared_atoms as _declared_atoms
from resolver.errors import Location
from resolver.facts.actor_patterns import matches_by_pattern
from resolver.facts.writer import FactBase, build
from resolver.language.loader import Diagnostic
from resolver.language.model import Expectation, Project, Task
from resolver.verdicts.policy_lint import policy_lint
from resolver.vocabulary import FLAGS

WARNING = "warning"
#: Information that is no problem (which ``by`` values an actor pattern matched).
NOTE = "note"
#: How many matched ``by`` values a note names before it counts the rest.
_SHOWN = 10


def lint(project: Project, loaded: Sequence[Diagnostic] = ()) -> list[Diagnostic]:
    """Every warning about ``project``, the loader's included, sorted by place.

    Builds the integer facts (a value the rules could not be given is an ``InputError`` here
    too) and solves the rules' ``prepare`` part over the declarations.
    """
    facts = build(project)
    checker = _Checker(project, facts, declared_atoms(facts))
    instances = policy_lint(project)  # policies no event triggers, templates no task uses
    checker.expectations |= instances.expectations
    checker.tasks |= instances.tasks
    found = [*loaded, *instances.warnings]
    for x in project.expectations:
        found.extend(checker.expectation(x))
    for task in project.tasks:
        found.extend(checker.task(task))
    found.extend(checker.events())
    found.extend(checker.channels())
    found.extend(checker.tests())
    found.extend(checker.patterns())
    found.extend(_requires_cycles(project))
    return sorted(set(found), key=_place)


def declared_atoms(facts: FactBase) -> Atoms:
    """The shown atoms of the ``prepare`` part over the declarations alone (no event, no text
    link): roles, patterns and openings, as the full preparation derives them."""
    return _declared_atoms(facts.declarations)


def _requires_cycles(project: Project) -> Iterable[Diagnostic]:
    """One warning per cycle of two or more items in ``requires`` (``x requires x`` is warned
    about on its own): each waits for another to close first, so none can be met in order."""
    graph = nx.DiGraph()
    items: dict[str, Expectation | Task] = {x.id: x for x in project.expectations}
    items.update((t.id, t) for t in project.tasks)
    for item in items.values():
        graph.add_edges_from((item.id, r) for r in item.requires if r in items and r != item.id)
    for component in nx.strongly_connected_components(graph):
        if len(component) < 2:
            continue
        edges = nx.find_cycle(graph.subgraph(component), min(component))
        cycle = [source for source, _ in edges] + [edges[-1][1]]
        yield Diagnostic(
            items[cycle[0]].location,
            WARNING,
            f"requires cycle {' -> '.join(cycle)}: each waits for another to close first",
        )


def _place(d: Diagnostic) -> tuple:
    loc = d.location
    return (loc.file, loc.line, loc.column or 0, d.message)


class _Checker:
    """The project indexed for reference checks, and the rules' atoms it reads."""

    def __init__(self, project: Project, facts: FactBase, core: Atoms) -> None:
        self.project = project
        self.event_ids = {e.id for e in project.events}
        self.expectations = {x.id for x in project.expectations}
        self.tasks = {t.id for t in project.tasks}
        self.used_channels = {e.channel for e in project.events}
        self.mention_channels = {facts.channel(c) for (c,) in core.get("mention")}
        self.agents = {
            name
            for a, role in core.get("acts_as")
            if role == "agent" and (name := facts.actor(a)) is not None
        }
        self.never_opens = {facts.item_id(x) for (x,) in core.get("never_opens")}
        #: pattern -> the actors it gives their role (a plain declaration wins over it)
        self.applies: dict[str, set[str]] = {}
        for pattern, a in core.get("pattern_applies"):
            name = facts.actor(a)
            if name is not None:
                self.applies.setdefault(facts.interner.key(pattern)[1], set()).add(name)
        self.actors = {a.name for a in project.actors} | {e.by for e in project.events if e.by}

    def _warn(self, where: Location, message: str) -> Diagnostic:
        return Diagnostic(where, WARNING, message)

    def _item(self, ident: str) -> str | None:
        if ident in self.expectations:
            return "expectation"
        if ident in self.tasks:
            return "task"
        return None

    def _common(self, item: Expectation | Task, what: str) -> Iterable[Diagnostic]:
        where = item.location
        if item.opened_by is not None and item.opened is not None:
            yield self._warn(
                where, f"{what} {item.id} has both `opened` and `opened_by`: `opened_by` wins"
            )
        if item.opened_by is not None and item.opened_by not in self.event_ids:
            yield self._warn(
                where,
                f"opened_by names {item.opened_by}, which is no event in the "
                f"log: {item.id} does not open until it is",
            )
        for required in item.requires:
            if self._item(required) is None:
                yield self._warn(
                    where, f"requires names {required}, which is no declared expectation or task"
                )
            elif required == item.id:
                yield self._warn(where, f"{item.id} requires itself")
        for name in item.principals:
            if name in self.agents:
                yield self._warn(
                    where, f"principal {name} is declared an agent, and agents never have authority"
                )
            elif name not in self.actors:
                yield self._warn(
                    where,
                    f"principal {name} is neither a declared actor nor the author of any event",
                )

    def expectation(self, x: Expectation) -> Iterable[Diagnostic]:
        where = x.location
        what = "obligation" if x.is_obligation else "expectation"
        yield from self._common(x, what)
        if x.part_of is not None and self.project.task(x.part_of) is None:
            kind = self._item(x.part_of)
            yield self._warn(
                where,
                f"part_of names {x.part_of}, which is "
                + (f"an {kind}, not a task" if kind else "no declared task"),
            )
        if x.id in self.never_opens:
            yield self._warn(
                where,
                f"{x.id} has no opening (neither its own `opened`/`opened_by` "
                "nor its task's): it stays NOT_OPENED",
            )
        if x.before is not None and x.before not in self.event_ids:
            yield self._warn(
                where,
                f"before names {x.before}, which is not in the log (yet): it "
                "bounds nothing until it is",
            )
        for channel in x.search:
            if channel not in self.used_channels:
                yield self._warn(
                    where,
                    f"search channel {channel} has no event in the log: it is "
                    "never searched (OPEN verdicts stay INCOMPLETE_SEARCH)",
                )
            if channel in self.mention_channels:
                yield self._warn(
                    where,
                    f"search channel {channel} is a mention channel: mentions "
                    "never close, so searching it proves nothing",
                )
        if x.verify == "state" and x.want is None:
            yield self._warn(
                where, f"{x.id} has `verify state` but no `want`: no event can ever satisfy it"
            )
        if x.want is not None and x.superseded_when is not None and x.want == x.superseded_when:
            yield self._warn(where, f"{x.id} wants the very state that supersedes it")

    def task(self, task: Task) -> Iterable[Diagnostic]:
        yield from self._common(task, "task")

    def events(self) -> Iterable[Diagnostic]:
        for event in self.project.events:
            for marker in event.markers:
                kind = self._item(marker.target)
                if kind is None:
                    yield self._warn(
                        event.location,
                        f"{event.id}: {marker.kind} names "
                        f"{marker.target}, which is no declared "
                        "expectation or task",
                    )
                elif kind == "task" and marker.kind == "completes":
                    yield self._warn(
                        event.location,
                        f"{event.id}: completes names the task "
                        f"{marker.target}; `completes` does not "
                        "spread to its obligations",
                    )

    def channels(self) -> Iterable[Diagnostic]:
        """A declared work channel no event uses yet: every expectation without ``search``
        searches it (rules/standpoint/absence.lp) and finds it unsearched, so each one still
        open is INCOMPLETE_SEARCH, however complete the other channels are."""
        unsearching = sum(1 for x in self.project.expectations if not x.search)
        unsearching += sum(
            1 for p in self.project.policies if p.opens is None and not p.shape.search
        )
        unsearching += sum(1 for t in self.project.templates for s in t.obligations if not s.search)
        for channel in self.project.channels:
            if channel.name in self.used_channels or channel.name in self.mention_channels:
                continue
            if not unsearching:
                continue
            yield self._warn(
                channel.location,
                f"channel {channel.name} is declared but no event uses it yet: every "
                "expectation without `search` searches it and finds it unsearched, so each "
                "one still open is INCOMPLETE_SEARCH instead of CORROBORATED_OPEN "
                f"({unsearching} expectation{'s' if unsearching != 1 else ''}, "
                "policies or template obligations here have no `search`); give them "
                "`search`, or declare the channel once it has events",
            )

    def patterns(self) -> Iterable[Diagnostic]:
        """A note per actor pattern naming the ``by`` values it matched; a warning if none."""
        patterns = [a for a in self.project.actors if a.pattern]
        matched = matches_by_pattern(patterns, (e.by for e in self.project.events if e.by))
        for actor in patterns:
            values = matched[actor.name]
            if not values:
                yield self._warn(
                    actor.location, f'actor pattern "{actor.name}" matches no `by` in the log'
                )
                continue
            applying = self.applies.get(actor.name, set())  # pattern_applies, roles.lp
            applies = [v for v in values if v in applying]
            shown = ", ".join(applies[:_SHOWN])
            more = f" and {len(applies) - _SHOWN} more" if len(applies) > _SHOWN else ""
            overridden = [v for v in values if v not in applying]
            plain_note = (
                f"; declared plainly, so not by the pattern: {', '.join(overridden)}"
                if overridden
                else ""
            )
            yield Diagnostic(
                actor.location,
                NOTE,
                f'actor pattern "{actor.name}" ({actor.role}) matches {len(applies)} `by` '
                f"value{'s' if len(applies) != 1 else ''}: {shown or '-'}{more}{plain_note}",
            )

    def tests(self) -> Iterable[Diagnostic]:
        for block in self.project.tests:
            for step in block.steps:
                kind = getattr(step, "kind", None)
                if kind is None:
                    continue
                target = step.target
                if kind == "finding":
                    if target not in self.event_ids:
                        yield self._warn(
                            step.location,
                            f"expect finding names {target}, which is no event in the log",
                        )
                    continue
                if kind == "task":
                    if target not in self.tasks:
                        yield self._warn(
                            step.location, f"expect task names {target}, which is no declared task"
                        )
                    continue
                if target not in self.expectations:
                    yield self._warn(
                        step.location, f"expect names {target}, which is no declared expectation"
                    )
                if kind in ("has", "lacks") and step.value not in FLAGS:
                    yield self._warn(
                        step.location, f"{step.value} is not a flag (flags: {', '.join(FLAGS)})"
                    )
                if getattr(step, "by", None) and step.by not in self.event_ids:
                    yield self._warn(
                        step.location, f"expect ... by {step.by}: no such event in the log"
                    )
