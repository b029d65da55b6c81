"""``$`` substitutions in policies and templates (SPEC §5.1), and expanding templates.

A policy's ``title``, ``want`` and ``superseded_when`` may name ``$event`` (the trigger's id),
``$by`` (its actor; empty when the event names none), ``$key`` and ``$value`` (the key and value
its keyed ``when set`` condition matched), ``$1`` (the part of that key matched by ``*``) and,
in a title only, ``$note`` (the note the trigger attaches to that key, else the key itself); a
template obligation's ``want`` and ``superseded_when`` keys and values, and its title, may name
``$task``. ``$$`` stands for a ``$`` itself. A value that is exactly ``"$value"`` keeps the
matched value's type (``when set n.* = 3`` then ``want $key = "$value"`` wants the integer 3).

The parser checks that every ``$`` name has something to stand for where it is written; this
module does the checking and the (purely textual) substitution, and expands ``task ID from
TEMPLATE`` into a task and its obligations ``ID/NAME``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from resolver.language.model import Assignment, Expectation, Task, Template, Value

__all__ = [
    "POLICY_NAMES",
    "TEMPLATE_NAMES",
    "expand_template",
    "glob_text",
    "names_in",
    "path_names",
    "substitute",
    "substitute_assignment",
    "substitute_glob",
]

_NAME = re.compile(r"\$(\$|\d+|[A-Za-z_]\w*)")
#: Names a policy may use (``key``, ``value`` and ``1`` only with a keyed ``when set``).
POLICY_NAMES = ("event", "by", "key", "value", "1", "note")
#: Names a template obligation may use.
TEMPLATE_NAMES = ("task",)


def names_in(text: str) -> list[str]:
    """The ``$`` names used in ``text`` (``$$`` is not a name)."""
    return [m.group(1) for m in _NAME.finditer(text) if m.group(1) != "$"]


def shape_texts(shape: Expectation) -> list[str]:
    """Every text of a shape where substitutions apply: title, want, want touches and
    superseded_when."""
    out = [shape.title or "", shape.want_touches or ""]
    for assignment in (shape.want, shape.superseded_when):
        if assignment is not None:
            out.append(assignment.key)
            if isinstance(assignment.value, str):
                out.append(assignment.value)
    return out


def path_names(template: Template) -> set[str]:
    """The names of matched paths (``$path``, ``$1``, ...) a template's obligations use."""
    return {
        name
        for shape in template.obligations
        for text in shape_texts(shape)
        for name in names_in(text)
        if name == "path" or name.isdigit()
    }


def glob_text(text: str) -> str:
    """A path as a glob that matches it alone: ``[``, ``*`` and ``?`` in it are literal."""
    return text.replace("[", "[[]").replace("*", "[*]").replace("?", "[?]")


def substitute(text: str, mapping: Mapping[str, str]) -> str:
    """Replace each ``$name`` by its text (names were checked by the parser)."""
    return _NAME.sub(lambda m: "$" if m.group(1) == "$" else mapping[m.group(1)], text)


def substitute_glob(glob: str | None, mapping: Mapping[str, str]) -> str | None:
    """A ``want touches`` glob with substitutions; what they stand for matches literally (a
    path holding ``*`` or ``[`` is that path, not a pattern)."""
    if glob is None:
        return None
    return substitute(glob, {name: glob_text(text) for name, text in mapping.items()})


def substitute_assignment(
    assignment: Assignment | None, mapping: Mapping[str, str], typed: Value | None = None
) -> Assignment | None:
    """``key = value`` with substitutions; ``"$value"`` alone becomes ``typed`` when given."""
    if assignment is None:
        return None
    value = assignment.value
    if isinstance(value, str):
        value = typed if value == "$value" and typed is not None else substitute(value, mapping)
    return Assignment(substitute(assignment.key, mapping), value)


def expand_template(template: Template, task: Task) -> tuple[Task, list[Expectation]]:
    """A task from a template: the task's own clauses override the template's.

    Obligations become ``TASK/NAME`` with ``$task`` replaced by the task's id, ``requires NAME``
    naming the sibling ``TASK/NAME`` and ``part_of`` the task.
    """
    base = template.task
    own = substitute(base.title, {"task": task.id}) if base.title is not None else None
    merged = replace(
        task,
        title=task.title if task.title is not None else own,
        opened_by=task.opened_by if task.opened_by is not None else base.opened_by,
        opened=task.opened if task.opened is not None else base.opened,
        principals=task.principals or base.principals,
        requires=tuple(dict.fromkeys((*base.requires, *task.requires))),
        scope=task.scope if task.scope is not None else base.scope,
        template=template.id,
    )
    obligations = [instantiate_obligation(shape, task.id) for shape in template.obligations]
    ids = tuple(o.id for o in obligations)
    return replace(merged, obligations=(*ids, *task.obligations)), obligations


def instantiate_obligation(
    shape: Expectation, task_id: str, names: Mapping[str, str] | None = None
) -> Expectation:
    """One template obligation for the task ``task_id``; ``names`` adds the matched path's
    ``$path``, ``$1``, ... when a policy opens the task per path."""
    mapping = {"task": task_id}
    if names is not None:
        mapping.update({n: t for n, t in names.items() if n == "path" or n.isdigit()})
    return replace(
        shape,
        id=f"{task_id}/{shape.id}",
        title=substitute(shape.title, mapping) if shape.title is not None else None,
        want=substitute_assignment(shape.want, mapping),
        superseded_when=substitute_assignment(shape.superseded_when, mapping),
        want_touches=substitute_glob(shape.want_touches, mapping),
        requires=tuple(f"{task_id}/{name}" for name in shape.requires),
        part_of=task_id,
        is_obligation=True,
    )
