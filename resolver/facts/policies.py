"""The text work behind policies and templates (SPEC §5), handed to the rules as integer facts.

Whether an event triggers a policy, which instances exist and what they want is decided by
``rules/prepare/policies.lp``. What the rules cannot do is read text, so this module measures it,
the same seam as the text linker:

* ``key_match(C, K)``: key K (set by some event) matches the pattern of ``when set`` condition C
  (the key itself, or a prefix ending in ``*``);
* ``glob_hit(G, E)``: one of event E's ``files`` matches glob G (``when touches``, ``want
  touches``), see :mod:`resolver.language.globs`;
* ``text_hit(Ph, E)``: E's text contains phrase Ph, word by word as the text linker compares;
* ``event_kind(E, Kd)`` for the events whose kind a rule may read.

and it builds, for every event x policy pair that could trigger (every positive condition's
measurement holds; negations and the conjunction are left to the rules), the substituted strings
of the would-be instance: its id (``POLICY/EVENT``, ``POLICY/EVENT/KEY``, ``INSTANCE/NAME``), its
wanted key and value, its title. ``potential(I, P, E)`` names it; the rules keep it iff it
triggers. Each condition's events are found through an index (channel, kind, actor, sorted keys,
distinct paths), so the work grows with the matches, never with policies x events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from resolver import times
from resolver.errors import InputError
from resolver.facts.interning import check_int
from resolver.facts.linker import Vocabulary
from resolver.facts.policy_index import EventIndex, chain_facts, declared_opening
from resolver.facts.policy_matches import linkable, trigger_matches
from resolver.language.globs import compile_glob, glob_parts
from resolver.language.model import (
    TIERS,
    Condition,
    Expectation,
    Policy,
    Project,
    Task,
    Value,
)
from resolver.language.substitution import (
    instantiate_obligation,
    names_in,
    substitute,
    substitute_assignment,
    substitute_glob,
)

__all__ = ["Ids", "PolicyFacts", "measure"]


@dataclass(frozen=True)
class Ids:
    """The interning functions of the fact writer, so that both agree on every integer."""

    item: Callable[[str], int]
    event: Callable[[str], int]
    channel: Callable[[str], int]
    actor: Callable[[str | None], int]
    key: Callable[[str], int]
    value: Callable[[Value], int]
    tag: Callable[[tuple], int]


@dataclass
class PolicyFacts:
    """What :func:`measure` hands to the fact writer."""

    lines: list[str] = field(default_factory=list)
    #: Events the prepare part must see: would-be triggers, glob hits, bounding kinds.
    relevant: set[str] = field(default_factory=set)
    #: Would-be instances (expectations and obligations) for the text linker, with the text of
    #: their opening event.
    linkable: list[tuple[Expectation, str | None]] = field(default_factory=list)
    #: Keys that would-be instances want or are superseded by.
    keys: set[str] = field(default_factory=set)
    #: ``want touches`` items: (item number, glob, opening instant in Unix seconds or None),
    #: for the index of their first glob hit after the opening (``policy_index.chain_facts``).
    wanting: list[tuple[int, str, int | None]] = field(default_factory=list)
    #: ``before next kind`` items: (item number, kind, opening instant or None), likewise.
    bounding: list[tuple[int, str, int | None]] = field(default_factory=list)
    #: Globs of instances' own ``want touches`` (substituted), measured like the others.
    globs: set[str] = field(default_factory=set)
    #: Per-path instances' paths: (trigger number, path number, path, the `when touches` glob).
    paths: set[tuple[int, int, str, str]] = field(default_factory=set)

    def fact(self, name: str, *args: int | str) -> None:
        parts = []
        for arg in args:
            if isinstance(arg, str):
                if arg not in TIERS:
                    raise ValueError(f"{arg!r} is not part of the fixed vocabulary")
                parts.append(arg)
            else:
                parts.append(str(check_int(arg, name)))
        self.lines.append(f"{name}({','.join(parts)}).")


def measure(project: Project, ids: Ids, vocabulary: Vocabulary) -> PolicyFacts:
    """Every measurement and would-be instance of the project's policies, as integer facts."""
    out = PolicyFacts()
    index = EventIndex(project.events, vocabulary)
    declared = {x.id: x.location for x in project.expectations}
    declared.update({t.id: t.location for t in project.tasks})
    templates = {t.id: t for t in project.templates}
    kinds: set[str] = set()
    globs: set[str] = set()

    # Clauses of hand-declared expectations that need measurements.
    tasks = {t.id: t for t in project.tasks}
    for x in project.expectations:
        if x.want_touches is not None:
            globs.add(x.want_touches)
            opening = declared_opening(x, tasks.get(x.part_of or ""), index)
            out.wanting.append((ids.item(x.id), x.want_touches, opening))
        if x.before_next_kind is not None:
            kinds.add(x.before_next_kind)
            opening = declared_opening(x, tasks.get(x.part_of or ""), index)
            out.bounding.append((ids.item(x.id), x.before_next_kind, opening))

    shapes_done: set[int] = set()

    def shape(s: Expectation, tag: tuple, siblings: dict[str, int] | None = None) -> int:
        number = ids.tag(("shape", *tag))
        if number in shapes_done:
            return number
        shapes_done.add(number)
        _shape_facts(out, number, s, ids, siblings)
        if s.want_touches is not None and not names_in(s.want_touches):
            globs.add(s.want_touches)
        if s.before_next_kind is not None:
            kinds.add(s.before_next_kind)
        return number

    for policy in project.policies:
        p = ids.tag(("policy", policy.id))
        out.fact("policy", p)
        template = templates.get(policy.opens) if policy.opens else None
        if template is not None:
            task_shape = _task_shape(policy, template)
            out.fact("opens", p, shape(task_shape, ("task", policy.id)))
            siblings = {s.id: ids.tag(("shape", template.id, s.id)) for s in template.obligations}
            for s in template.obligations:
                shape(s, (template.id, s.id), siblings)
        else:
            out.fact("policy_shape", p, shape(policy.shape, (policy.id,)))
        for number, c in enumerate(policy.conditions):
            _condition_facts(out, ids.tag(("cond", policy.id, number)), p, c, ids, index)
            if c.kind == "kind":
                kinds.add(c.operand)
            if c.kind == "touches":
                globs.add(c.operand)
        _instances(out, policy, p, template, ids, index, declared, project.derived)

    globs |= out.globs
    for trigger, path, text, glob in sorted(out.paths):
        out.fact("event_file", trigger, path)
        if compile_glob(glob).fullmatch(text):
            out.fact("path_hit", ids.tag(("glob", glob)), path)
    # Events that set a key some would-be instance wants (or is superseded by) are candidates.
    for key in out.keys:
        out.relevant |= index.by_key.get(key, set())
    for glob in sorted(globs):
        g = ids.tag(("glob", glob))
        for ident in sorted(index.glob_events(glob)):
            out.fact("glob_hit", g, ids.event(ident))
            out.relevant.add(ident)
    # Each wanted glob's hits and each bounding kind's events as a chain in time order, and
    # where each item's part of it starts (the walk of rules/prepare/file_touches.lp).
    families = (("glob", "glob_next", "touch_from", out.wanting),)
    families += (("kind", "kind_next", "kind_from", out.bounding),)
    for family, step, start, items in families:
        for fact in chain_facts(index, family, items):
            if fact[0] == "next":
                _, name, first, second = fact
                out.fact(step, ids.tag((family, name)), ids.event(first), ids.event(second))
            else:
                _, number, name, event = fact
                out.fact(start, int(number), ids.tag((family, name)), ids.event(event))
    for kind in sorted(kinds):
        kd = ids.tag(("kind", kind))
        for ident in sorted(index.by_kind.get(kind, ())):
            out.fact("event_kind", ids.event(ident), kd)
            out.relevant.add(ident)
    return out


def _task_shape(policy: Policy, template) -> Expectation:
    """A task instance's own clauses: the policy's task-level clauses over the template's."""
    base = template.task
    own = policy.shape
    return Expectation(
        id=policy.id,
        location=policy.location,
        title=own.title if own.title is not None else base.title,
        principals=own.principals or base.principals,
        requires=tuple(dict.fromkeys((*base.requires, *own.requires))),
        scope=own.scope if own.scope is not None else base.scope,
    )


def _shape_facts(
    out: PolicyFacts, s: int, x: Expectation, ids: Ids, siblings: dict[str, int] | None
) -> None:
    """The clauses every instance of a shape shares (keys and values are per instance)."""
    if x.verify is not None:
        out.fact("shape_verify", s, x.verify)
    for name in x.search:
        out.fact("shape_search", s, ids.channel(name))
    for required in x.requires:
        if siblings is not None:
            out.fact("shape_sibling", s, siblings[required])
        else:
            out.fact("shape_requires", s, ids.item(required))
    for name in x.principals:
        out.fact("shape_principal", s, ids.actor(name))
    if x.window is not None:
        out.fact("shape_window", s, x.window)
    if x.within is not None:
        out.fact("shape_within", s, x.within)
    if x.deadline is not None:
        out.fact("shape_deadline", s, times.encode(x.deadline))
    if x.opened is not None:
        out.fact("shape_opened_time", s, times.encode(x.opened))
    if x.opened_by is not None:
        out.fact("shape_opened_by", s, ids.event(x.opened_by))
    if x.before is not None:
        out.fact("shape_before", s, ids.event(x.before))
    if x.before_next_kind is not None:
        out.fact("shape_next_kind", s, ids.tag(("kind", x.before_next_kind)))
    if x.want_touches is not None and not names_in(x.want_touches):
        out.fact("shape_want_touches", s, ids.tag(("glob", x.want_touches)))
    if x.part_of is not None and siblings is None:
        out.fact("shape_part_of", s, ids.item(x.part_of))


def _condition_facts(
    out: PolicyFacts, c: int, p: int, cond: Condition, ids: Ids, index: EventIndex
) -> None:
    out.fact("when", p, c)
    if cond.negated:
        out.fact("negated", c)
    if cond.kind == "channel":
        out.fact("when_channel", c, ids.channel(cond.operand))
    elif cond.kind == "kind":
        out.fact("when_kind", c, ids.tag(("kind", cond.operand)))
    elif cond.kind == "by":
        out.fact("when_by", c, ids.actor(cond.operand))
    elif cond.kind == "touches":
        out.fact("when_touches", c, ids.tag(("glob", cond.operand)))
    elif cond.kind == "text":
        ph = ids.tag(("phrase", cond.operand))
        out.fact("when_text", c, ph)
        for ident in sorted(index.phrase_events(cond.operand)):
            out.fact("text_hit", ph, ids.event(ident))
    else:
        out.fact("when_set", c)
        if cond.has_value:
            assert cond.value is not None
            out.fact("when_value", c, ids.value(cond.value))
        for key in index.matching_keys(cond.operand):
            out.fact("key_match", c, ids.key(key))


def _instances(
    out: PolicyFacts,
    policy: Policy,
    p: int,
    template,
    ids: Ids,
    index: EventIndex,
    declared: dict,
    derived: dict,
) -> None:
    """Every would-be instance of one policy: the events meeting all its positive conditions."""
    positive = [c for c in policy.conditions if not c.negated]
    pools = sorted((index.condition_events(c) for c in positive), key=len)
    pool = set(pools[0]) if pools else set(index.events)
    for other in pools[1:]:
        pool &= other
    keyed = policy.conditions[policy.keyed] if policy.keyed is not None else None
    c_keyed = ids.tag(("cond", policy.id, policy.keyed)) if keyed is not None else None
    path_glob = None
    if policy.path_cond is not None:
        c_path = ids.tag(("cond", policy.id, policy.path_cond))
        path_text = policy.conditions[policy.path_cond].operand
        path_glob = glob_parts(path_text)
    for ident in sorted(pool):
        event = index.events[ident]
        matches = trigger_matches(ident, event, path_glob, keyed)
        for key, value, names in matches:
            per = policy.per_key or path_glob is not None
            instance = f"{policy.id}/{ident}" + (f"/{key}" if per else "")
            if instance in declared:
                raise InputError(
                    f"instance '{instance}' of policy '{policy.id}' has the id of a declaration "
                    f"at {declared[instance]}",
                    policy.location,
                )
            number = ids.item(instance)
            out.relevant.add(ident)
            out.fact("potential", number, p, ids.event(ident))
            if key is not None and c_keyed is not None:
                out.fact("keyed", number, c_keyed, ids.key(key))
            if key is not None and path_glob is not None:
                path = ids.tag(("path", key))
                out.fact("pathed", number, c_path, path)
                out.paths.add((ids.event(ident), path, key, path_text))
            if template is None:
                x = _instance_shape(policy.shape, instance, ident, names, value)
                _want_facts(out, number, x, ids, policy.shape)
                if x.want_touches is not None:
                    out.wanting.append((number, x.want_touches, event.at))
                if x.before_next_kind is not None:
                    out.bounding.append((number, x.before_next_kind, event.at))
                out.linkable.append(linkable(x, event, key))
                derived[instance] = x
                continue
            obligations = []
            for s in template.obligations:
                ob = instantiate_obligation(s, instance, names)
                o = ids.item(ob.id)
                out.fact("potential_obligation", o, number, ids.tag(("shape", template.id, s.id)))
                _want_facts(out, o, ob, ids, s)
                own = declared_opening(ob, None, index)
                opening = event.at if own is None else own
                if ob.want_touches is not None:
                    out.wanting.append((o, ob.want_touches, opening))
                if ob.before_next_kind is not None:
                    out.bounding.append((o, ob.before_next_kind, opening))
                out.linkable.append(linkable(ob, event, key))
                derived[ob.id] = ob
                obligations.append(ob.id)
            title = policy.shape.title
            own = template.task.title
            derived[instance] = Task(
                id=instance,
                location=policy.location,
                title=substitute(title, names)
                if title is not None
                else (substitute(own, {"task": instance}) if own is not None else None),
                opened_by=ident,
                principals=policy.shape.principals or template.task.principals,
                requires=tuple(dict.fromkeys((*template.task.requires, *policy.shape.requires))),
                obligations=tuple(obligations),
                template=template.id,
            )


def _instance_shape(
    shape: Expectation, instance: str, trigger: str, names: dict[str, str], value: Value | None
) -> Expectation:
    return replace(
        shape,
        id=instance,
        title=substitute(shape.title, names) if shape.title is not None else None,
        opened_by=trigger,
        want=substitute_assignment(shape.want, names, value),
        superseded_when=substitute_assignment(shape.superseded_when, names, value),
        want_touches=substitute_glob(shape.want_touches, names),
    )


def _want_facts(
    out: PolicyFacts, number: int, x: Expectation, ids: Ids, shape: Expectation | None = None
) -> None:
    """An instance's own wanted key and value, superseding state and, where its shape's glob
    has substitutions, its wanted glob (else the shape carries it: ``shape_want_touches``)."""
    if x.want_touches is not None and shape is not None and names_in(shape.want_touches or ""):
        out.fact("inst_want_touches", number, ids.tag(("glob", x.want_touches)))
        out.globs.add(x.want_touches)
    if x.want is not None:
        out.keys.add(x.want.key)
        out.fact("inst_want", number, ids.key(x.want.key), ids.value(x.want.value))
    if x.superseded_when is not None:
        sw = x.superseded_when
        out.keys.add(sw.key)
        out.fact("inst_superseded_when", number, ids.key(sw.key), ids.value(sw.value))
