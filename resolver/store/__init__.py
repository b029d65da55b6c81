"""The prepared history on disk: what a question costs once its inputs were seen before.

Every command that answers from the files (``status``, ``check``, ``ready``, ``brief``,
``explain``, the hook, the MCP tools, ``ledger refresh``) asks :func:`load_prepared` for the
prepared history. The entry for the same input paths (and scope) is used when the SHA-256 of
every input file, and the code that reads them, are those it was derived from
(:mod:`resolver.store.keys`); then the prepare solve is skipped, the facts are not rebuilt (the
names the atoms intern are kept beside them: :mod:`resolver.engine.stored_facts`), and a
standpoint of the two default families already answered on its plateau is a lookup
(:mod:`resolver.engine.plateau`).
Anything else is a miss: the history is prepared from the files as usual and the entry is
replaced. The JSON-lines log stays the source of truth; deleting the cache changes no answer.

Appending to a log changes its content: the entry no longer answers. The log is then read as an
increment (:mod:`resolver.store.appends`): the columns the entry kept, and only the lines added.
When the appended events touch no item (:mod:`resolver.store.quiet`: no marker, no wanted key,
no text that could link, nothing that moves a channel's gaps), the entry is carried over: the
prepared atoms, declarations and links as they are, the names, the channel log, the thresholds
and the linker's counts grown by the new events. Any other append prepares the history again
(docs/design/increments.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from resolver.engine.plateau import Memo
from resolver.engine.prepared import Kept, Prepared
from resolver.facts import standpoint_pack
from resolver.language.event_columns import EventColumns
from resolver.language.model import Project
from resolver.store import appends, columns, names, parsed, quiet
from resolver.store.entry import Carry, Entry, Found
from resolver.store.keys import Stamp, entry_path

__all__ = ["Stamp", "load_prepared", "prepare_files"]


def _load(
    files: Sequence[str], scope: str | None, events: EventColumns | None = None
) -> tuple[Project, EventColumns]:
    """The project of ``scope``'s group, and the events of the whole log as loaded."""
    from resolver.engine.groups import scoped
    from resolver.language.loader import load

    with parsed.keeping():  # a command reading through the store keeps its files' parses
        project = load(files, events)
    return scoped(project, scope), project.events  # type: ignore[return-value]


def prepare_files(files: Sequence[str], scope: str | None = None, **options) -> Prepared:
    """Load and prepare ``files`` (of ``scope``'s group, :func:`resolver.engine.groups.scoped`),
    no store."""
    return Prepared(_load(files, scope)[0], **options)


def load_prepared(
    paths: Sequence[str | Path],
    scope: str | None = None,
    use_store: bool = True,
    same_log_as: Sequence[str | Path] | None = None,
    write: bool = True,
    on_read: Callable[[Stamp], object] | None = None,
) -> Prepared:
    """The prepared history of ``paths`` (of ``scope``'s group): from the store when its entry
    is current, else from the files (and the entry written).

    ``same_log_as``: other paths whose files hold the same events (``paths`` adds only
    declarations without events, like the hook's identity file): their whole history's entry
    lends the log it kept, so a first preparation need not read the JSON lines.
    ``write`` False leaves a missing or stale entry as it is, and keeps no answer in it (a
    caller about to change the files, as the hook's claim is, has the history after its change
    stored instead). ``on_read`` is handed the stamp of the files when the history was read
    from exactly the bytes it digested (the loaded events are those of these bytes)."""
    from resolver.language.loader import collect_files

    files = collect_files(paths)
    if not use_store:
        return prepare_files(files, scope)
    try:
        before = Stamp.of(files, scope)
    except OSError:
        return prepare_files(files, scope)  # the loader reports the unreadable file
    entry = Entry(entry_path(files, scope))
    found = entry.prepared(before)
    data = None if found is None else found.columns
    if data is None and scope is not None:  # the whole history's entry holds the same log
        data = Entry(entry_path(files)).columns(before.unscoped())
    if data is None and same_log_as is not None:
        data = _lent_log(same_log_as, before)
    kept_log = None if data is None else columns.unpack(data)
    grown = None
    if kept_log is None:  # an append since an entry was written: read only the lines added
        kept_log = _increment(entry, before, files, same_log_as)
        grown = appends.last if kept_log is not None else None
    project, log = _load(files, scope, kept_log)
    # The files were read twice (digested, then loaded): the entry is used or written only when
    # both readings saw the same bytes, so a write racing with the load costs a solve, never
    # a stale answer. Logs whose kept columns were used were not read again: the columns are
    # those of the digested bytes, so only the other files are digested again.
    reread = [name for name in files if kept_log is None or name.endswith(".ol")]
    try:
        again = Stamp.of(reread, scope).files
        pairs = zip(before.files, files, strict=True)
        unchanged = again == tuple(stamp for stamp, name in pairs if name in reread)
    except OSError:
        unchanged = False
    if not unchanged:
        return Prepared(project)
    if on_read is not None:
        on_read(before)
    kept = _kept(found, project)
    carried = None if kept is not None or grown is None else _carried(entry, project, log, grown)
    if kept is not None:  # the same files and code: the facts need not be built
        prepared = Prepared(project, kept=kept)
    elif carried is not None:  # an append that touches nothing: the entry carried over
        prepared = Prepared(project, kept=carried[1].kept)
        if write:
            held, moved = carried
            kept_too = (moved.names, moved.thresholds, columns.pack(log), held.derived)
            atoms = (held.text, held.ground_rules, held.facts)
            answers = _answers_carried(entry, grown.key, moved.added)
            entry.write(before, *atoms, *kept_too, moved.standpoint, answers)
    else:
        stored = None if found is None else (found.text, found.ground_rules, found.facts)
        solved: list[tuple[str, int, str]] = []
        kept_by = (lambda *atoms: solved.append(atoms)) if write else None
        prepared = Prepared(project, stored=stored, on_solved=kept_by)
        table = names.pack(prepared.facts.interner) if write else None
        if solved or (stored is not None and table is not None):  # (names kept with it now)
            kept_too = (table, prepared.thresholds.values, columns.pack(log))
            derived = parsed.encode_items(project.derived)
            facts = prepared.facts
            standpoint = standpoint_pack.pack(
                facts.declarations, facts.links, facts.channel_log, facts.word_counts
            )
            atoms = solved[0] if solved else stored
            entry.write(before, *atoms, *kept_too, derived, standpoint)  # type: ignore[misc]
    prepared.memo = Memo(entry) if entry.key is not None else Memo()
    return prepared


def _increment(
    entry: Entry, before: Stamp, files: Sequence[str], same_log_as: Sequence[str | Path] | None
) -> EventColumns | None:
    """The log read as an increment of the columns kept by ``entry``, by the whole history's
    entry (for a scope), or by the entry of the files lending their log (which hold all the
    events: see :func:`load_prepared`)."""
    tries = [(entry, before)]
    if before.scope is not None:
        tries.append((Entry(entry_path(files)), before.unscoped()))
    lender = None if same_log_as is None else _lender(same_log_as, before)
    if lender is not None:
        tries.append(lender)
    for kept_by, stamp in tries:
        log = appends.grown_log(kept_by, stamp)
        if log is not None:
            return log
    return None


def _lent_log(paths: Sequence[str | Path], before: Stamp) -> bytes | None:
    """The log kept by the whole-history entry of ``paths``, when each of their files is one
    of the files just digested (same name, same bytes)."""
    lender = _lender(paths, before)
    return None if lender is None else lender[0].columns(lender[1])


def _lender(paths: Sequence[str | Path], before: Stamp) -> tuple[Entry, Stamp] | None:
    """The whole-history entry of ``paths`` and the stamp of their files as just digested
    (each of them one of the files of ``before``, by name)."""
    from resolver.language.loader import collect_files

    files = collect_files(paths)
    digested = {stamp.given: stamp for stamp in before.files}
    stamps = tuple(digested.get(name) for name in files)
    if not files or None in stamps:
        return None
    return Entry(entry_path(files)), Stamp.of_digested(stamps)  # type: ignore[arg-type]


def _carried(
    entry: Entry, project: Project, log: object, read: appends.Increment
) -> tuple[Found, quiet.Carried] | None:
    """The entry's history carried over a quiet append (:mod:`resolver.store.quiet`), when the
    log was just read as the increment ``read`` of this very entry's columns."""
    if not isinstance(log, EventColumns):
        return None
    held = entry.held(read.key, with_columns=False)  # the increment read them
    if held is None:  # replaced since the increment was read, or not this entry's
        return None
    found = quiet.carried(held, project, log, read)
    return None if found is None else (held, found)


def _answers_carried(entry: Entry, key: str, added: list[int]) -> list[Carry]:
    """The answers ``entry`` holds under ``key``, carried over an append that added the
    thresholds ``added`` (:mod:`resolver.engine.composed` composes answers from them)."""
    carried = []
    for answer in entry.to_carry(key):
        try:
            before = [int(n) for n in answer.added.split()]
        except ValueError:  # not written here: not carried
            continue
        times = " ".join(map(str, sorted({*before, *added})))
        carried.append(replace(answer, added=times))
    return carried


def _kept(found: Found | None, project: Project) -> Kept | None:
    """What the entry kept, with its names read back against the loaded log's event ids; the
    policies' instances it kept are handed to ``project`` (as building the facts would)."""
    if found is None or found.names is None or found.thresholds is None or not found.derived:
        return None
    # The loader gives the events in id order without repeats (the order the fact writer
    # interns them in), so the ids are the interner's head as they stand.
    interner = names.unpack(found.names, project.events.ids)  # type: ignore[attr-defined]
    derived = parsed.decode_items(found.derived)
    if interner is None or derived is None:
        return None
    project.derived.update(derived)
    return Kept(found.text, found.ground_rules, interner, found.thresholds, found.standpoint)
