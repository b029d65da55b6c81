"""The prepared history on disk: what a question costs once its inputs were seen before.

Every command that answers from the files (``status``, ``check``, ``ready``, ``brief``,
``explain``, the hook, the MCP tools, ``ledger refresh``) asks :func:`load_prepared` for the
prepared history. The entry for the same input paths (and scope) is used when the SHA-256 of
every input file, and the code that reads them, are those it was derived from
(:mod:`resolver.store.keys`); then the prepare solve is skipped, and a standpoint of the two
default families already answered on its plateau is a lookup (:mod:`resolver.engine.plateau`).
Anything else is a miss: the history is prepared from the files as usual and the entry is
replaced. The JSON-lines log stays the source of truth; deleting the cache changes no answer.

Appending to a log is a change of content like any other: the entry is rebuilt. Event numbers
are ranks of the sorted event ids (the rules break ties by them), so an appended event renumbers
the events after it in id order and every stored atom that names them (docs/performance.md,
"The store").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from resolver.engine.plateau import Memo
from resolver.engine.prepared import Prepared
from resolver.store import parsed
from resolver.store.entry import Entry
from resolver.store.keys import Stamp, entry_path

__all__ = ["Stamp", "load_prepared", "prepare_files"]


def prepare_files(files: Sequence[str], scope: str | None = None, **options) -> Prepared:
    """Load and prepare ``files`` (of ``scope``'s group, :func:`resolver.api.scoped`), no store."""
    from resolver.api import scoped
    from resolver.language.loader import load

    with parsed.keeping():  # a command reading through the store keeps its files' parses
        project = load(files)
    return Prepared(scoped(project, scope), **options)


def load_prepared(
    paths: Sequence[str | Path], scope: str | None = None, use_store: bool = True
) -> Prepared:
    """The prepared history of ``paths`` (of ``scope``'s group): from the store when its entry
    is current, else from the files (and the entry written)."""
    from resolver.language.loader import collect_files

    files = collect_files(paths)
    if not use_store:
        return prepare_files(files, scope)
    try:
        before = Stamp.of(files, scope)
    except OSError:
        return prepare_files(files, scope)  # the loader reports the unreadable file
    entry = Entry(entry_path(files, scope))
    stored = entry.prepared(before)
    solved: list[tuple[str, int, str]] = []
    prepared = prepare_files(
        files, scope, stored=stored, on_solved=lambda *atoms: solved.append(atoms)
    )
    # The files were read twice (digested, then loaded): the entry is used or written only when
    # both readings saw the same bytes, so a write racing with the load costs a solve, never
    # a stale answer.
    try:
        unchanged = Stamp.of(files, scope).key == before.key
    except OSError:
        unchanged = False
    if not unchanged:
        if prepared.from_store:
            return prepare_files(files, scope)
        return prepared
    if solved:
        entry.write(before, *solved[0])
    prepared.memo = Memo(entry)
    return prepared
