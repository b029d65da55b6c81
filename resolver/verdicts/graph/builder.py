"""The dependency and provenance graph of one resolution, as a networkx ``MultiDiGraph``.

A commitment graph links what was owed (tasks, expectations) to what happened (events) and who
did it (actors). Every node and edge here is copied from the verdicts and atoms of
``rules/*.lp`` at one standpoint; nothing here decides a status or a tier, and the
transitions that took effect are the rules' ``transition_taken`` and ``reopen_taken`` atoms.
Only events the standpoint can see appear, because they come from the standpoint's atoms
(``examined``, ``reason``, ``transition_taken``, ``finding``).

Node ids are ``KIND:ID`` (``expectation:intent-401``, ``event:commit-118``, ``actor:alice``,
``task:release-prep``); edges are keyed by their kind, so users can ask networkx directly:

>>> from resolver import api
>>> from resolver.verdicts import graph                               # doctest: +SKIP
>>> from resolver.verdicts.graph import views as graph_views         # doctest: +SKIP
>>> history = api.prepare(["fixtures/release"])                         # doctest: +SKIP
>>> g = graph.build(history, api.status(history, at="2024-08-28"))      # doctest: +SKIP
>>> g.edges["expectation:intent-401", "event:commit-118", "closed_by"]["tier"]  # doctest: +SKIP
'state'
>>> graph_views.blocked_by(g, "event-store-migration")                  # doctest: +SKIP
['intent-401']

Edge directions read as sentences, subject first: ``expectation part_of task``,
``X requires Y``, ``X opened_by event``, ``X closed_by event`` (satisfied closes, labelled with
the tier), ``event cancels|supersedes|waives|reopens X`` (transitions that took effect),
``event proposal X`` (a marker without authority: no effect), ``event rejected X`` (a
touching event that closed nothing, with the rules' reason; ``candidate`` False for touches
that never were candidates: on a mention channel, or before the opening), ``event claims X``
(a false completion or false pending finding), ``event by actor`` and ``actor principal_of X``;
``policy instantiates X`` and ``policy triggered_by event`` for policy instances.

An actor node's ``role`` is the role the rules give it (``acts_as``, rules/prepare/roles.lp): a
``by`` matched by an actor pattern is an agent or principal like a declared one, and a plain
declaration wins over a pattern. Results are not phrased here: the sentence of a ``proposal`` or
``rejected`` edge (its ``detail``) comes from the ``phrase`` a caller passes (the faces'
``palette.sentences``); without one the edges carry their codes only. The questions users ask
of the graph (``blocked_by``, ``focus``) and the views pictures draw (``drawable``) are in
:mod:`resolver.verdicts.graph.views`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import networkx as nx

from resolver.engine.prepared import Prepared
from resolver.language.model import Expectation, Project
from resolver.times import format_time
from resolver.verdicts.resolution import ExpectationVerdict, Reason, Resolution
from resolver.vocabulary import CLOSED_STATUSES, ENDING_MARKERS, MARKER_STATUSES

#: Node kinds, in the order they are laid out left to right.
NODE_KINDS = ("actor", "event", "expectation", "task", "policy")
#: Edge kinds. ``effective`` is False on ``proposal`` and ``rejected`` edges only.
EDGE_KINDS = (
    "part_of",
    "requires",
    "opened_by",
    "closed_by",
    *ENDING_MARKERS,
    "proposal",
    "rejected",
    "claims",
    "by",
    "principal_of",
    "instantiates",
    "triggered_by",
)
#: Close statuses of the rules (``close(X, E, Status, Tier, Rank)``) and the edge each draws: a
#: satisfied close draws ``closed_by``, any other the marker that closes with its status.
_CLOSE_EDGE = {
    "satisfied": "closed_by",
    **{status: marker for marker, status in MARKER_STATUSES.items() if status in CLOSED_STATUSES},
}
#: The edges of a close (each close status's edge).
CLOSING_EDGES = tuple(_CLOSE_EDGE.values())
#: Reason codes that name a candidate which made no transition.
_REJECTION_CODES = ("candidate_rejected", "below_verify", "unconfirmed_effect")
#: Phrases one reason of one expectation for people (a face supplies it: results never phrase).
Phrase = Callable[[Reason, Expectation], str]


def node_id(kind: str, ident: str) -> str:
    """The graph id of a declared or logged thing: ``expectation:intent-401``."""
    return f"{kind}:{ident}"


def build(
    prepared: Prepared, resolution: Resolution, phrase: Phrase | None = None
) -> nx.MultiDiGraph:
    """The graph of ``resolution`` (resolved from ``prepared``), standpoint in ``graph.graph``;
    ``phrase`` gives ``proposal`` and ``rejected`` edges their sentence (``detail``)."""
    return _GraphBuilder(prepared, resolution, phrase).run()


class _GraphBuilder:
    """Maps verdicts and atoms to nodes and edges, one concern per method."""

    def __init__(self, prepared: Prepared, resolution: Resolution, phrase: Phrase | None) -> None:
        self.prepared = prepared
        self.phrase = phrase
        self.project: Project = prepared.project
        self.resolution = resolution
        self.facts = prepared.facts
        self.candidates = {
            (self.facts.item_id(x), self.facts.event_id(e))
            for x, e, _ in prepared.reason_inputs.get("cand_channel")
        }
        self.graph = nx.MultiDiGraph()
        standpoint = resolution.standpoint
        self.graph.graph.update(
            at=format_time(standpoint.at),
            known="latest" if standpoint.known is None else format_time(standpoint.known),
        )

    def run(self) -> nx.MultiDiGraph:
        self._declarations()
        self._closes_and_reopens()
        self._reasons()
        self._findings()
        self._actors()
        self._policies()
        return self.graph

    # -- nodes -------------------------------------------------------------------------------

    def _declarations(self) -> None:
        for task in self.resolution.tasks:
            declared = self.project.task(task.id)
            self.graph.add_node(
                node_id("task", task.id),
                kind="task",
                id=task.id,
                title=task.title,
                status=task.status,
                outstanding=task.outstanding,
                findings=tuple(f.event for f in task.findings),
                scope=declared.scope if declared else None,
            )
        for verdict in self.resolution.expectations:
            self._expectation(verdict)
        for verdict in self.resolution.expectations:
            declared = self.project.expectation(verdict.id)
            source = node_id("expectation", verdict.id)
            if verdict.task and self.project.task(verdict.task):
                self._edge(source, node_id("task", verdict.task), "part_of")
            for required in declared.requires if declared else ():
                target = self._item_node(required)
                if target:
                    self._edge(source, target, "requires")
        for task in self.project.tasks:
            for required in task.requires:
                target = self._item_node(required)
                if target:
                    self._edge(node_id("task", task.id), target, "requires")

    def _expectation(self, verdict: ExpectationVerdict) -> None:
        declared = self.project.expectation(verdict.id)
        self.graph.add_node(
            node_id("expectation", verdict.id),
            kind="expectation",
            id=verdict.id,
            title=verdict.title,
            task=verdict.task,
            status=verdict.status,
            confidence=verdict.confidence,
            flags=verdict.flags,
            closed_by=verdict.closed_by,
            tier=verdict.tier,
            closed_at=_time(verdict.closed_at),
            opened_at=_time(verdict.opened_at),
            bound=_time(verdict.bound),
            footprint_complete=verdict.footprint_complete,
            open_like=verdict.open_like,
            obligation=bool(declared and declared.is_obligation),
            verify=verdict.verify,
            scope=declared.scope if declared else None,
        )

    def _item_node(self, ident: str) -> str | None:
        if self.project.expectation(ident):
            return node_id("expectation", ident)
        if self.project.task(ident):
            return node_id("task", ident)
        return None  # a dangling reference: lint warns, the graph leaves it out

    def _event(self, ident: str) -> str:
        node = node_id("event", ident)
        if node not in self.graph:
            event = self.project.event(ident)
            attrs = {"kind": "event", "id": ident}
            if event is not None:
                attrs.update(
                    channel=event.channel,
                    seq=event.seq,
                    at=format_time(event.at),
                    recorded=format_time(event.recorded),
                    by=event.by,
                    event_kind=event.kind,
                    text=event.text,
                    outcome=event.outcome,
                )
            self.graph.add_node(node, **attrs)
        return node

    # -- edges -------------------------------------------------------------------------------

    def _edge(self, source: str, target: str, kind: str, **attrs: object) -> None:
        key = kind
        number = 1
        while self.graph.has_edge(source, target, key):
            number += 1
            key = f"{kind}:{number}"
        effective = kind not in ("proposal", "rejected")
        self.graph.add_edge(source, target, key=key, kind=kind, effective=effective, **attrs)

    def _closes_and_reopens(self) -> None:
        """The transitions that took effect at this standpoint (``transition_taken`` and
        ``reopen_taken``, rules/standpoint/timeline.lp)."""
        atoms = self.resolution.atoms
        verdicts = {v.id: v for v in self.resolution.expectations}
        superseding_markers = {
            (x, e) for x, e, kind in self.prepared.core.get("effective") if kind == "supersedes"
        }
        for x, e, status, tier, _instant in atoms.get("transition_taken"):
            ident, event = self.facts.item_id(x), self.facts.event_id(e)
            current = verdicts[ident].closed_by == event
            source, target = node_id("expectation", ident), self._event(event)
            kind = _CLOSE_EDGE[str(status)]
            if kind == "closed_by":
                self._edge(
                    source,
                    target,
                    kind,
                    status=str(status).upper(),
                    tier=str(tier),
                    current=current,
                )
            else:
                via = "marker" if (x, e) in superseding_markers or kind != "supersedes" else "state"
                self._edge(
                    target, source, kind, status=str(status).upper(), current=current, via=via
                )
        for x, e, how, _instant in atoms.get("reopen_taken"):
            ident, event = self.facts.item_id(x), self.facts.event_id(e)
            self._edge(self._event(event), node_id("expectation", ident), "reopens", how=str(how))

    def _reasons_by_code(self, *codes: str) -> Iterable[tuple[str, Reason]]:
        for verdict in self.resolution.expectations:
            for reason in verdict.reasons:
                if reason.code in codes:
                    yield verdict.id, reason

    def _reasons(self) -> None:
        """Openings, proposals and rejected candidates, each from a reason atom."""
        for ident, reason in self._reasons_by_code("opened", "proposal", *_REJECTION_CODES):
            if reason.event is None:
                continue
            expectation = node_id("expectation", ident)
            event = self._event(reason.event)
            if reason.code == "opened":
                self._edge(expectation, event, "opened_by")
                continue
            declared = self.project.expectation(ident)
            words = {"detail": self.phrase(reason, declared)} if self.phrase and declared else {}
            if reason.code == "proposal":
                self._edge(event, expectation, "proposal", marker=reason.detail, **words)
            else:
                why = reason.detail if reason.code == "candidate_rejected" else reason.code
                candidate = (ident, reason.event) in self.candidates
                self._edge(event, expectation, "rejected", reason=why, **words, candidate=candidate)

    def _findings(self) -> None:
        for finding in self.resolution.findings:
            target = self._item_node(finding.target)
            if target:
                self._edge(
                    self._event(finding.event),
                    target,
                    "claims",
                    finding=finding.kind,
                    outstanding=finding.outstanding,
                )

    def _actors(self) -> None:
        """``event by actor`` and ``actor principal_of X``; each actor's role as the rules give
        it (``acts_as``), so pattern-matched bots are agents too."""
        roles = {
            name: str(role)
            for a, role in self.prepared.core.get("acts_as")
            if (name := self.facts.actor(a)) is not None
        }
        for node, attrs in list(self.graph.nodes(data=True)):
            if attrs["kind"] == "event" and attrs.get("by"):
                self._edge(node, self._actor(attrs["by"], roles), "by")
        for x, a in self.prepared.core.get("principal_of"):
            name = self.facts.actor(a)
            if name:
                self._edge(
                    self._actor(name, roles),
                    node_id("expectation", self.facts.item_id(x)),
                    "principal_of",
                )

    def _actor(self, name: str, roles: dict[str, str]) -> str:
        node = node_id("actor", name)
        if node not in self.graph:
            self.graph.add_node(node, kind="actor", id=name, role=roles.get(name))
        return node

    def _policies(self) -> None:
        """``policy P instantiates X`` and ``policy P triggered_by E`` for each instance shown
        (SPEC 5.2); an obligation of a task instance hangs off its task by ``part_of``."""
        for verdict in (*self.resolution.expectations, *self.resolution.tasks):
            if verdict.policy is None or verdict.trigger is None:
                continue
            kind = "task" if self.project.task(verdict.id) else "expectation"
            if (
                kind == "expectation"
                and verdict.task
                and self.graph.has_node(node_id("task", verdict.task))
            ):
                continue
            source = node_id("policy", verdict.policy)
            if source not in self.graph:
                self.graph.add_node(source, kind="policy", id=verdict.policy)
            self._edge(source, node_id(kind, verdict.id), "instantiates")
            trigger = self._event(verdict.trigger)
            if not self.graph.has_edge(source, trigger, "triggered_by"):
                self._edge(source, trigger, "triggered_by")


def _time(unix: int | None) -> str | None:
    return None if unix is None else format_time(unix)
