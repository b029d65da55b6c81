"""Assembling blocks from their clauses: fields, obligations, templates and policies.

The builder turns each clause into ``(word, keyword token, value)``; this module turns a block's
clauses into model fields, refusing a repeated single-valued clause, and builds the two blocks
of SPEC §5 with their own checks, each an :class:`~resolver.errors.InputError` at the clause:

- a template obligation may ``requires`` only a sibling, and may use only ``$task``;
- a policy needs a ``when``; it ``opens`` a template or has its own clauses, never a ``want``
  beside an ``opens``; its substitutions need something to stand for (``$key``, ``$value``
  need a ``when set`` condition, ``$1`` one whose pattern ends in ``*``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lark import Token

from resolver.errors import InputError, Location
from resolver.language import values as v
from resolver.language.globs import GlobError, compile_glob, touches_glob, wildcards
from resolver.language.model import Assignment, Condition, Expectation, Policy, Task, Template
from resolver.language.substitution import POLICY_NAMES, TEMPLATE_NAMES, names_in
from resolver.language.syntax_errors import article

__all__ = [
    "Clause",
    "build_policy",
    "build_template",
    "differ",
    "fields",
    "glob",
    "obligation",
    "reject_substitutions",
    "touches_glob",
]

#: A clause as the transformer hands it to its block: (clause word, keyword token, value).
Clause = tuple[str, Token, Any]

# clause word -> model field; list-valued clauses may repeat and accumulate.
_FIELDS = {
    "title": "title",
    "opened_by": "opened_by",
    "opened": "opened",
    "want": "want",
    "want_touches": "want_touches",
    "before": "before",
    "before_next_kind": "before_next_kind",
    "deadline": "deadline",
    "verify": "verify",
    "search": "search",
    "superseded_when": "superseded_when",
    "requires": "requires",
    "part_of": "part_of",
    "principal": "principals",
    "scope": "scope",
    "window": "window",
    "within": "within",
    "matches": "matches",
}
_LIST_CLAUSES = frozenset({"search", "requires", "principal", "matches"})
# Clauses that fill one slot: `want k = v` and `want touches "g"` are one wanted transition.
_SLOTS = {"want_touches": "want"}
_TASK_LEVEL = ("title", "opened_by", "opened", "principal", "requires", "scope")


def differ(one: Assignment, other: Assignment) -> bool:
    """Type-aware: ``1 == True`` in Python, but ``k = 1`` and ``k = true`` are different states."""
    return one != other or type(one.value) is not type(other.value)


def glob(token: Token) -> str:
    """A STRING token holding a glob, checked here so that a bad one is an error at its token."""
    text = v.string(token)
    try:
        compile_glob(text)
    except GlobError as exc:
        raise InputError(str(exc), v.loc(token)) from None
    return text


def fields(clauses: Iterable[Clause], block: str) -> tuple[dict[str, Any], dict[str, Token]]:
    """Model fields from a block's clauses, and the keyword token of each single-valued clause.

    List-valued clauses may repeat: their names accumulate (first occurrence kept, duplicates
    dropped), which reads naturally for ``principal alice`` / ``principal bob``.
    """
    seen: dict[str, Token] = {}
    out: dict[str, Any] = {}
    for name, keyword, value in clauses:
        field = _FIELDS[name]
        if isinstance(value, Assignment) and isinstance(value.value, v.BareValue):
            value = Assignment(value.key, "$value")  # checked: now the same as quoted
        if name in _LIST_CLAUSES:
            out[field] = tuple(dict.fromkeys((*out.get(field, ()), *value)))
            continue
        slot = _SLOTS.get(name, name)
        first = seen.get(slot)
        if first is not None:
            raise InputError(
                f"repeated clause '{slot}' in {article(block)} block "
                f"(first given at line {first.line}, column {first.column})",
                v.loc(keyword),
            )
        seen[slot] = keyword
        out[field] = value
    return out, seen


def obligation(task_id: str, clause: Clause, owner: str = "task") -> Expectation:
    """An ``obligation NAME { ... }`` of task (or template) ``task_id``."""
    _, keyword, (ident, clauses) = clause
    built, seen = fields(clauses, "obligation")
    part_of = built.pop("part_of", None)
    if part_of is not None and part_of != task_id:
        raise InputError(
            f"obligation '{ident}' of {owner} '{task_id}' cannot be part_of '{part_of}'",
            v.loc(seen["part_of"]),
        )
    return Expectation(
        id=str(ident), location=v.loc(keyword), part_of=task_id, is_obligation=True, **built
    )


def _substitution_sites(clauses: Iterable[Clause]) -> Iterable[tuple[Token, list[str]]]:
    """(clause keyword, ``$`` names used) for title, want, want touches and superseded_when."""
    for name, keyword, value in clauses:
        texts: list[str] = []
        if name in ("title", "want_touches"):
            texts = [value]
        elif name in ("want", "superseded_when"):
            texts = [value.key] + ([value.value] if isinstance(value.value, str) else [])
        used = [n for text in texts for n in names_in(text)]
        if used:
            yield keyword, used
        elif name in ("want", "superseded_when") and "$" in value.key:
            yield keyword, [""]


def _assignment_names(value: Assignment) -> list[str]:
    return names_in(value.key) + (names_in(value.value) if isinstance(value.value, str) else [])


def _refuse(keyword: Token, name: str, why: str) -> InputError:
    return InputError(f"'${name}' in '{keyword}' has nothing to stand for: {why}", v.loc(keyword))


def reject_substitutions(clauses: Iterable[Clause], where: str) -> None:
    """Outside policies and templates a ``$`` in a key has nothing to stand for."""
    for name, keyword, value in clauses:
        used: list[str] = []
        if name in ("want", "superseded_when") and "$" in value.key:
            used = names_in(value.key) or [""]
        elif name in ("want", "superseded_when") and isinstance(value.value, v.BareValue):
            used = ["value"]
        elif name == "want_touches":
            used = names_in(value)
        if used:
            raise _refuse(
                keyword, used[0], f"substitutions apply in policies and templates, not in {where}"
            )


def build_template(ident: str, location: Location, items: list[Any]) -> Template:
    """``template ID { task-level clauses  obligation NAME { ... } ... }``."""
    clauses = [x for x in items if x[0] != "obligation"]
    shapes = [obligation(ident, x, "template") for x in items if x[0] == "obligation"]
    names = {s.id for s in shapes}
    for clause in items:
        if clause[0] != "obligation":
            continue
        ob_name, ob_clauses = clause[2]
        for keyword, used in _substitution_sites(ob_clauses):
            for name in used:
                if name not in TEMPLATE_NAMES and name != "path" and not name.isdigit():
                    raise _refuse(
                        keyword,
                        name,
                        "a template obligation may use $task, and $path, $1, ... when a policy "
                        "that opens it has a 'when touches'",
                    )
        for name, keyword, value in ob_clauses:
            if name != "requires":
                continue
            for required in value:
                if required not in names:
                    raise InputError(
                        f"obligation '{ob_name}' of template '{ident}' requires '{required}', "
                        f"which is not an obligation of the template (siblings: "
                        f"{', '.join(sorted(names))})",
                        v.loc(keyword),
                    )
    for keyword, used in _substitution_sites(clauses):
        for name in used:
            if name != "task":
                raise _refuse(keyword, name, "a template's own title may use only $task")
    built, _ = fields(clauses, "template")
    task = Task(id=ident, location=location, obligations=tuple(s.id for s in shapes), **built)
    return Template(ident, location, task, tuple(shapes))


def build_policy(ident: str, location: Location, items: list[Clause]) -> Policy:
    """``policy ID { when CONDITION ...  (opens TEMPLATE | CLAUSES) }``."""
    conditions = tuple(value for name, _, value in items if name == "when")
    if not conditions:
        raise InputError(
            f"policy '{ident}' needs at least one 'when' condition (else every event would "
            "trigger it)",
            location,
        )
    opens = [(keyword, value) for name, keyword, value in items if name == "opens"]
    if len(opens) > 1:
        raise InputError(f"repeated clause 'opens' in policy '{ident}'", v.loc(opens[1][0]))
    clauses = [x for x in items if x[0] not in ("when", "opens")]
    if opens:
        for name, keyword, _ in clauses:
            if name in ("want", "want_touches"):
                raise InputError(
                    f"policy '{ident}' has both 'want' and 'opens': a policy either wants a "
                    "transition or opens a task from a template",
                    v.loc(keyword),
                )
            if name not in _TASK_LEVEL or name in ("opened_by", "opened"):
                raise InputError(
                    f"clause '{keyword}' has no meaning in a policy that opens a template (its "
                    "obligations carry their own clauses; allowed: title, principal, requires, "
                    "scope)",
                    v.loc(keyword),
                )
    for c in conditions:
        if c.kind == "touches" and names_in(c.operand):
            raise InputError(
                f"'${names_in(c.operand)[0]}' in 'when touches' has nothing to stand for: a "
                "condition decides what triggers, before anything is matched",
                c.location,
            )
    keyed = next((i for i, c in enumerate(conditions) if c.kind == "set" and not c.negated), None)
    path_cond, path_names = _path_names(ident, location, conditions, keyed, clauses)
    available = {"event", "by", *path_names}
    for name, keyword, value in clauses:
        if name in ("want", "superseded_when") and "note" in _assignment_names(value):
            raise _refuse(keyword, "note", "$note stands for words, in a policy's title only")
    if keyed is not None:
        available |= {"key", "value", "note"}
        if conditions[keyed].operand.endswith("*"):
            available.add("1")
    for keyword, used in _substitution_sites(clauses):
        for name in used:
            if name in available:
                continue
            if name == "path" or (name.isdigit() and keyed is None):
                why = _path_why(name, conditions)
            elif name in ("key", "value", "1", "note"):
                why = _keyed_why(name, keyed, conditions)
            elif name == "task":
                why = "$task stands for a task in a template obligation"
            else:
                why = f"a policy may use {', '.join('$' + n for n in POLICY_NAMES)}"
            raise _refuse(keyword, name, why)
    built, _ = fields(clauses, "policy")
    shape = Expectation(id=ident, location=location, **built)
    return Policy(
        id=ident,
        location=location,
        conditions=conditions,
        shape=shape,
        opens=opens[0][1] if opens else None,
        opens_location=v.loc(opens[0][0]) if opens else None,
        keyed=keyed,
        path_cond=path_cond,
    )


def _path_names(
    ident: str,
    location: Location,
    conditions: tuple[Condition, ...],
    keyed: int | None,
    clauses: list[Clause],
) -> tuple[int | None, set[str]]:
    """The condition whose matched paths open one instance each (None: one per trigger), and
    the names it makes available: ``$path`` and ``$1`` ... one per wildcard of its glob."""
    chosen = touches_glob(conditions)
    if chosen is None:
        return None, set()
    glob = conditions[chosen].operand
    names = {"path", *(str(n) for n in range(1, wildcards(glob) + 1))}
    used = {n for _, used in _substitution_sites(clauses) for n in used}
    reads = "path" in used or (wildcards(glob) > 0 and any(n.isdigit() for n in used))
    if keyed is not None:
        if reads:
            raise InputError(
                f"policy '{ident}' has both a 'when set {conditions[keyed].operand}' and a "
                f"'when touches \"{glob}\"' whose paths its $ names read: an instance is one "
                "per key or one per path, not both",
                location,
            )
        return None, set()
    return (chosen if reads else None), names


def _path_why(name: str, conditions: tuple[Condition, ...]) -> str:
    chosen = touches_glob(conditions)
    if chosen is None:
        if name == "path":
            return "the policy has no 'when touches' condition"
        return "the policy has no 'when set' pattern ending in '*' nor a 'when touches'"
    glob = conditions[chosen].operand
    count = wildcards(glob)
    plural = "" if count == 1 else "s"
    return f"the glob \"{glob}\" of its 'when touches' has {count} wildcard{plural}"


def _keyed_why(name: str, keyed: int | None, conditions: tuple[Condition, ...]) -> str:
    if keyed is None:
        return "the policy has no 'when set' condition"
    return f"the 'when set {conditions[keyed].operand}' pattern does not end in '*'"
