"""Parsing the openloop language (``.ol`` files, SPEC §2.1 and §5.1) into the typed model.

The grammar lives in ``grammar/openloop.lark``; this module reads it as an LALR parser (Earley
would take minutes on a log of 100k events) with Lark's own contextual lexer, whose tables ship
with the package (:mod:`resolver.language.parser_tables`: loaded, not built), and runs
the :class:`~resolver.language.builder.Builder` transformer *inside* the parser, so that no
intermediate parse tree is built. Lark's errors become messages in the user's words
(:mod:`resolver.language.syntax_errors`); token values are decoded and checked by
:mod:`resolver.language.values`. Nothing is half-parsed: the first error aborts the file with
:class:`~resolver.errors.InputError` at the offending token.

Lexer: an earlier version carried a hand-written lexer that lexed exactly like Lark's
contextual lexer, about twice as fast. No benchmark in the repository parses a large ``.ol``
file (histories are JSON lines; ``.ol`` files hold declarations and small fixtures), so the
simpler choice is kept: Lark's own.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark
from lark.exceptions import UnexpectedInput

from resolver.errors import InputError, Location
from resolver.language import parser_tables, values
from resolver.language.builder import (
    CONFIDENCE_CLASSES,
    FINDING_KINDS,
    STATUSES,
    TASK_STATUSES,
    Builder,
)
from resolver.language.keywords import ascii_keywords
from resolver.language.model import (
    Actor,
    Alias,
    Channel,
    Event,
    Expectation,
    Policy,
    Project,
    Task,
    Template,
    TestBlock,
)
from resolver.language.syntax_errors import syntax_error
from resolver.resources import grammar_text

__all__ = [
    "CONFIDENCE_CLASSES",
    "FINDING_KINDS",
    "STATUSES",
    "TASK_STATUSES",
    "parse_file",
    "parse_text",
]


@cache
def _parser() -> Lark:
    """The compiled parser: loaded from the tables shipped with the package
    (:mod:`resolver.language.parser_tables`, JSON, about 0.01 s of CPU), or built from the grammar
    when they do not fit it (about 0.07 s), then shared. Lark's own cache is never used: it is a
    pickle, and whoever can write the cache folder (an agent's shell can) could run code inside
    every command and hook. A command whose ``.ol`` files are unchanged reads their kept parses
    (:mod:`resolver.store.parsed`, JSON) and never needs the parser at all."""
    grammar = ascii_keywords(grammar_text())  # keywords: ASCII case-insensitive only
    return parser_tables.load(grammar, Builder()) or parser_tables.build(grammar, Builder())


def parse_text(text: str, filename: str) -> Project:
    """Parse the text of one ``.ol`` file; ``filename`` is used in locations and messages.

    Raises :class:`InputError` (``FILE:LINE:COL: error: ...``) on the first problem.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    token = values.FILE.set(filename)
    try:
        items = _parser().parse(text)
    except UnexpectedInput as exc:
        raise syntax_error(exc, filename, text) from None
    finally:
        values.FILE.reset(token)
    buckets: dict[type, list[Any]] = {
        kind: []
        for kind in (Channel, Actor, Alias, Task, Expectation, Event, TestBlock, Template, Policy)
    }
    for item in items:
        if isinstance(item, tuple):
            task, obligations = item
            buckets[Task].append(task)
            buckets[Expectation].extend(obligations)
        else:
            buckets[type(item)].append(item)
    return Project(
        sources=(filename,),
        channels=tuple(buckets[Channel]),
        actors=tuple(buckets[Actor]),
        aliases=tuple(buckets[Alias]),
        tasks=tuple(buckets[Task]),
        expectations=tuple(buckets[Expectation]),
        events=tuple(buckets[Event]),
        tests=tuple(buckets[TestBlock]),
        templates=tuple(buckets[Template]),
        policies=tuple(buckets[Policy]),
    )


def parse_file(path: str | Path) -> Project:
    """Read (UTF-8) and parse one ``.ol`` file; locations name it as ``str(path)``."""
    name = str(path)
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", _byte_location(name, data, exc)
        ) from None
    return parse_text(text, name)


def _byte_location(name: str, data: bytes, exc: UnicodeDecodeError) -> Location:
    """The line and column (in characters, as editors count) of the first byte that is not
    UTF-8."""
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    column = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
    return Location(name, data.count(b"\n", 0, exc.start) + 1, column)
