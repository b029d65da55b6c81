"""The identity an agent writes under, always an agent (SPEC §8 "Identity").

The hook and the MCP server write only as ``--as ACTOR`` (default ``agent``), and openloop treats
that identity as an agent whatever the project declares. That is a fact about the input, so it
reaches the rules as one: the history the hook or the server judges is the user's files plus one
declaration, ``actor ACTOR agent``, kept in a small file of its own. The rules then decide what
an agent's events are worth (§3: a claim, tier ``textual`` at most, no authority); nothing here
decides a verdict.

Why a file and not an edit of the loaded project: the prepared history is looked up by its input
files' content (``resolver.agents.warm``), and an extra file with fixed bytes keeps that lookup
exact with no second key. The file lives in openloop's cache folder, under a name derived from
the identity, and its bytes are checked on every call (a file that differs is rewritten first),
so a changed copy cannot turn the identity into a principal.

A project that declares the identity as ``principal`` conflicts with that file; then the
project is loaded without it and the identity's declaration is replaced by ``agent`` in memory
(uncached: a misconfiguration should not be the fast path). ``openloop hook doctor`` warns about
it, and about an identity the project does not declare at all, since ``status`` and ``check``
read only the user's files and would count that identity's events as any unnamed actor's.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from resolver import resources
from resolver.api import Prepared
from resolver.errors import InputError, Location
from resolver.language.eventlog_checks import IDENTIFIER
from resolver.language.model import Actor, Project

if TYPE_CHECKING:
    from resolver.store.keys import Stamp

#: The identity the hook and the MCP server write under unless ``--as`` names another.
DEFAULT_IDENTITY = "agent"


def check_identity(name: str) -> str:
    """``--as``: a plain actor name (the language's identifier), else an error."""
    if not isinstance(name, str) or IDENTIFIER.fullmatch(name) is None or "\n" in name:
        raise InputError(
            f"--as: {name!r} is not an actor name (a letter or _, then letters, digits, "
            "_ . : / - @ +)"
        )
    return name


def _declaration(name: str) -> bytes:
    return (
        "# Written by openloop: the identity the hook and the MCP server write under is an\n"
        "# agent, whatever the project declares (SPEC 8). Rewritten when it differs.\n"
        f"actor {name} agent\n"
    ).encode()


def declaration_file(name: str) -> Path:
    """The file holding ``actor NAME agent``, written (atomically) when absent or different."""
    check_identity(name)
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    for folder in (resources.cache_dir() / "identity", _private_temp()):
        path = folder / f"as-{digest}.ol"
        try:
            _ensure(path, _declaration(name))
            return path
        except OSError:
            continue
    raise InputError("cannot write the identity declaration in the cache or temporary folder")


def _private_temp() -> Path:
    return Path(tempfile.gettempdir()) / f"openloop-{os.getuid()}" / "identity"


def _ensure(path: Path, content: bytes) -> None:
    try:
        if path.read_bytes() == content:
            return
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".as-")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def declared(path: str | Path, name: str) -> Project:
    """The parse of the declaration file at ``path`` for ``name``, built without the grammar's
    parser: the file's bytes are openloop's own (:func:`_declaration`), so its parse is known.
    ``tests/agents`` checks it equals the parser's for every identity form."""
    file = str(path)
    line = _declaration(name).decode().split("\n").index(f"actor {name} agent") + 1
    return Project(sources=(file,), actors=(Actor(name, "agent", Location(file, line, 1)),))


def keep_parse(path: str | Path, name: str) -> None:
    """Keep the declaration's parse where the store keeps parsed ``.ol`` files: a hook's first
    claim then never builds the grammar's parser (importing Lark and computing its tables cost
    more than the rest of that claim's preparation). The entry is keyed as the store keys every
    parse (the file's bytes, its name, the code); one that is missing or reads as anything but
    the declaration (a torn or changed copy) is written again, as the file itself is."""
    from resolver.store import parsed

    file = str(path)
    expected = declared(file, name)
    entry = parsed._entry(file, _declaration(name))
    if entry.exists():
        with parsed.keeping():
            if parsed.parse_file(file) == expected:
                return
    parsed._keep(entry, expected)


def with_identity(paths: Sequence[str | Path], name: str) -> list[str | Path]:
    """PATHs plus the identity's declaration (last, so a conflict is reported at it)."""
    return [*paths, declaration_file(name)]


def as_agent(project: Project, name: str) -> Project:
    """The project with ``name`` declared an agent in place of any plain declaration of it."""
    kept = [a for a in project.actors if a.pattern or a.name != name]
    actor = Actor(name, "agent", Location("--as", 1))
    return replace(project, actors=tuple(sorted([*kept, actor], key=lambda a: a.name)))


def prepare_as(
    paths: Sequence[str | Path],
    name: str,
    use_cache: bool = True,
    scope: str | None = None,
    write: bool = True,
    on_read: Callable[[Stamp], object] | None = None,
) -> Prepared:
    """The prepared history of PATHs in which ``name`` is an agent (of ``scope``'s group);
    ``write`` and ``on_read``: see :func:`resolver.store.load_prepared`."""
    from resolver.agents.warm import load_prepared

    extended = with_identity(paths, name)
    declaration = Path(extended[-1])
    if use_cache:
        keep_parse(declaration, name)
    try:
        # The declaration holds no event: the history read as `status` reads it lends its log.
        return load_prepared(extended, use_cache, scope, paths, write, on_read)
    except InputError as exc:
        if exc.location is None or Path(exc.location.file) != declaration:
            raise
    # The project declares the identity otherwise (a principal): it acts as an agent anyway.
    from resolver.api import scoped
    from resolver.language.loader import collect_files, load

    return Prepared(scoped(as_agent(load(collect_files(paths)), name), scope))
