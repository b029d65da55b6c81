"""``openloop mcp``: a Model Context Protocol server over stdio (SPEC §8).

Built on the official Python SDK (``mcp``, the optional extra ``openloop-resolver[mcp]``). Tools:
``status``, ``check``, ``explain`` and ``ready`` are read-only and idempotent (annotated so);
``record`` is the one write, appending an event through the write path of SPEC §6.3, as the
server's one identity (``--as``, default ``agent``, which the history it judges declares an agent:
:mod:`resolver.agents.identity`): an event naming another ``by``, setting ``recorded`` or ``seq``,
or on an ``authoritative`` channel is refused and nothing is written. A claim that cites
``evidence`` is answered with what each cited event supports (:mod:`resolver.agents.evidence`).
Each tool
returns the ``--format json`` contract of its command as structured content, with the JSON
Schema from ``schemas/`` as its output schema (the SDK's client validates against it), and the
same JSON as text for clients that read only text. Each task's receipt is a resource
(``openloop://receipt/TASK``).

The history is prepared once and kept between calls; before each call the input files are
checked (``resolver.agents.warm.signature``) and the history is prepared again only when one
changed, for instance when the log grew through ``record`` or another writer. Malformed
JSON-RPC is answered on the wire (:mod:`resolver.agents.mcp_stdio`).
"""

from __future__ import annotations

import inspect
import json
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resources import FunctionResource
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from resolver import __version__, api
from resolver.agents import ready as ready_face
from resolver.agents.hook import default_log
from resolver.agents.identity import DEFAULT_IDENTITY, check_identity, prepare_as, with_identity
from resolver.agents.warm import signature
from resolver.api import Prepared
from resolver.errors import InputError
from resolver.faces import receipt_text
from resolver.faces.explanation.text import to_document
from resolver.faces.json_format import to_dict as status_dict
from resolver.ingest.record import append_event
from resolver.language.loader import collect_files
from resolver.resources import data_dir

READ_ONLY = ToolAnnotations(
    read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False
)
WRITE = ToolAnnotations(
    read_only_hint=False, idempotent_hint=False, destructive_hint=False, open_world_hint=False
)


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one output kind, from ``schemas/``."""
    return json.loads((data_dir("schemas") / f"{kind}.json").read_text(encoding="utf-8"))


#: Scoped prepared histories a server keeps beside the whole one before it lets them go.
_SCOPES_KEPT = 16


class History:
    """The prepared history of PATHs, prepared again whenever an input file changes."""

    def __init__(
        self,
        paths: Sequence[str | Path],
        log: str | Path | None = None,
        identity: str = DEFAULT_IDENTITY,
    ) -> None:
        self.paths = list(paths)
        self.identity = check_identity(identity)
        self._log = log
        self._lock = threading.Lock()
        self._stamp: str | None = None
        #: The files' states and the signature hashed from them (see :meth:`_signature`).
        self._signed: tuple[tuple, str] | None = None
        #: The prepared histories of the files as they were at ``_stamp``: the whole one
        #: (None) and those of the scopes asked for (one item's group, as the commands about
        #: one item prepare it), so that a call about one task after a ``record`` prepares that
        #: task's group, not every policy instance of the history.
        self._prepared: dict[str | None, Prepared] = {}
        self.current()  # bad input fails at start, not at the first call

    @property
    def log(self) -> Path:
        """Where ``record`` appends: ``--log``, else the single ``.jsonl`` among PATHs."""
        return default_log(self.paths, self._log)

    def _files(self) -> list[str]:
        paths: list[str | Path] = list(self.paths)
        if self._log is not None and Path(self._log).exists():
            target = Path(self._log).resolve()
            if all(Path(f).resolve() != target for f in collect_files(paths)):
                paths.append(self._log)
        return collect_files(paths)

    def _signature(self, files: list[str]) -> str:
        """The files' signature (their content and the code), hashed again only when a file's
        state moved. Hashing every byte at every call cost a call at 1M events about 0.1 s;
        the kernel moves a file's change time (``st_ctime_ns``) with every write to it and
        every reset of its modification time, and nobody can set it back, so equal states
        (inode, size, both times) are the same bytes. The states are read before hashing: a
        write during the hash moves them, and the next call hashes again."""
        states = _states(files)
        if states is not None and self._signed is not None and self._signed[0] == states:
            return self._signed[1]
        stamp = signature(files)
        if states is not None:
            self._signed = (states, stamp)
        return stamp

    def current(self, scope: str | None = None) -> Prepared:
        """The prepared history as the files are now, the identity declared an agent; with
        ``scope``, only that item's group is declared (its verdicts, explanations and gate are
        the whole history's: ``tests/engine/test_scoped.py``)."""
        with self._lock:
            files = self._files()
            stamp = self._signature(collect_files(with_identity(files, self.identity)))
            if stamp != self._stamp:
                self._prepared.clear()
                self._stamp = stamp
            prepared = self._prepared.get(scope)
            if prepared is None:
                if len(self._prepared) > _SCOPES_KEPT:
                    self._prepared = {k: v for k, v in self._prepared.items() if k is None}
                prepared = prepare_as(files, self.identity, use_cache=True, scope=scope)
                self._prepared[scope] = prepared
            return prepared

    def any_current(self) -> Prepared:
        """A prepared history of the files as they are now, whole or scoped: for what every
        scope holds alike (channels, actors, aliases and events), without preparing the whole
        history after a ``record`` when only a scope was asked for since."""
        with self._lock:
            files = self._files()
            if self._signature(collect_files(with_identity(files, self.identity))) == self._stamp:
                kept = self._prepared.get(None) or next(iter(self._prepared.values()), None)
                if kept is not None:
                    return kept
        return self.current()


#: A file changed less than this long ago (ns) is hashed at every call: the kernel stamps
#: times at its clock tick, so a second write of the same size within the tick of the first
#: would leave the state as it was (git's "racily clean" files).
_RACY_NS = 2_000_000_000


def _states(files: Sequence[str]) -> tuple | None:
    """Each file's inode, size, modification and change times; None if one cannot be read or
    changed too recently for its state to tell a later write apart."""
    try:
        found = [os.stat(name) for name in files]
    except OSError:
        return None
    if any(f.st_ctime_ns > time.time_ns() - _RACY_NS for f in found):
        return None
    return tuple((f.st_ino, f.st_size, f.st_mtime_ns, f.st_ctime_ns) for f in found)


def _result(data: dict[str, Any]) -> CallToolResult:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return CallToolResult(content=[TextContent(text=text)], structured_content=data)


def _failure(exc: InputError) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=str(exc))], is_error=True)


def _tool(fn: Callable[..., dict[str, Any]], kind: str, annotations: ToolAnnotations) -> Tool:
    """A tool whose result is ``fn``'s JSON, published with the schema of ``kind``."""

    def call(**arguments: Any) -> CallToolResult:
        try:
            return _result(fn(**arguments))
        except InputError as exc:
            return _failure(exc)

    call.__signature__ = _signature_of(fn)  # type: ignore[attr-defined]
    call.__annotations__ = {**fn.__annotations__, "return": CallToolResult}
    call.__name__ = fn.__name__
    tool = Tool.from_function(
        call,
        name=fn.__name__,
        description=fn.__doc__ or "",
        annotations=annotations,
        structured_output=False,
    )
    tool.fn_metadata.output_schema = schema(kind)
    return tool


def _signature_of(fn: Callable[..., Any]) -> inspect.Signature:
    sig = inspect.signature(fn, eval_str=True)
    return sig.replace(return_annotation=CallToolResult)


def build(
    paths: Sequence[str | Path], log: str | Path | None = None, identity: str = DEFAULT_IDENTITY
) -> MCPServer:
    """The server over the history of ``paths``, writing as ``identity``."""
    history = History(paths, log, identity)

    def status(at: str | None = None, known: str | None = None) -> dict[str, Any]:
        """Every expectation's and task's verdict at a standpoint (at: valid time, ISO-8601,
        default now; known: knowledge time or "latest", default = at). The `status --format
        json` contract."""
        prepared = history.current()
        return status_dict(api.status(prepared, at, known), prepared.project)

    def check(
        at: str | None = None,
        known: str | None = None,
        task: str | None = None,
        before: str | None = None,
    ) -> dict[str, Any]:
        """Gate: is anything in scope (every expectation, a task's obligations, or those bounded
        by `before` EVENT) still outstanding? result PASS, FAIL or UNKNOWN, with each
        outstanding item's key reason. The `check --format json` contract."""
        if task is not None and before is not None:
            raise InputError("give task or before, not both")
        prepared = history.current(task) if task is not None else history.current()
        return api.check_document(prepared, api.standpoint(at, known), task, before)

    def explain_tool(
        id: str, at: str | None = None, known: str | None = None, why_not: str | None = None
    ) -> dict[str, Any]:
        """Why an expectation or task has its status: the opening, each candidate and why it
        closed or was rejected, footprint, bound, flags; why_not (one of satisfied, cancelled,
        superseded, waived, open) also says what keeps it from that status. The `explain
        --format json` contract."""
        prepared = history.current(id)
        if why_not is not None and why_not.lower() not in api.WHY_NOT_STATUSES:
            raise InputError(f"why_not must be one of {', '.join(api.WHY_NOT_STATUSES)}")
        point = api.standpoint(at, known)
        word = why_not.lower() if why_not else None
        return to_document(api.explain(prepared, point, id, word, full=True), id, point)

    explain_tool.__name__ = "explain"

    def ready(at: str | None = None, known: str | None = None) -> dict[str, Any]:
        """The obligations that can be worked on now: OPEN, not blocked, every precondition
        met, earliest bound first. The `ready --format json` contract."""
        return ready_face.to_dict(api.ready(history.current(), api.standpoint(at, known)))

    def record(event: dict[str, Any], evidence: list[str] | None = None) -> dict[str, Any]:
        """Append one event to the log (the only write), as this server's identity: an object
        with the fields of a JSON-lines event (channel needed; by, when given, must be the
        server's identity; recorded and seq are set by the log, never given; id and at default
        as for `openloop record`; no authoritative channel). evidence: the ids of the events a
        claims_complete rests on; the answer then says what each supports. Returns the event as
        written; later calls see it."""
        if not isinstance(event, dict):
            raise InputError("event must be an object with the fields of a JSON-lines event")
        event = _as_identity(dict(event), history)
        if evidence:
            event["evidence"] = [*_listed(event.get("evidence")), *evidence]
        log = history.log
        written = append_event(log, event)
        answer = {"schema_version": 1, "kind": "record", "log": str(log), "event": written}
        if written.get("evidence") and written.get("claims_complete"):
            answer["judgment"] = _judgment(history.current(), written)
        return answer

    tools = [
        _tool(status, "status", READ_ONLY),
        _tool(check, "check", READ_ONLY),
        _tool(explain_tool, "explain", READ_ONLY),
        _tool(ready, "ready", READ_ONLY),
        _tool(record, "record", WRITE),
    ]
    server = MCPServer(
        name="openloop",
        version=__version__,
        instructions="openloop computes what is still owed from a project's history of "
        "expectations and events. Ask `status`, `check` or `ready` before claiming work done; "
        "`explain` says why; `record` appends evidence or a claim to the log.",
        tools=tools,
    )
    for task in history.current().project.tasks:
        server.add_resource(_receipt_resource(history, task.id))
    return server


def _listed(value: Any) -> list[Any]:
    return [value] if isinstance(value, str) else list(value or [])


def _as_identity(event: dict[str, Any], history: History) -> dict[str, Any]:
    """The event as the identity writes it, or an error naming what it may not do."""
    who = history.identity
    if event.get("by") is not None and event["by"] != who:
        raise InputError(
            f"record: by {event['by']!r} is refused: this server writes only as {who!r} "
            "(an agent's events are recorded under its own identity)"
        )
    for field in ("recorded", "seq"):
        if event.get(field) is not None:
            raise InputError(
                f"record: {field} is refused: the log sets it (a record cannot rewrite what "
                "the log knew)"
            )
    channel = event.get("channel")
    declared = {c.name: c for c in history.any_current().project.channels}
    if isinstance(channel, str) and channel in declared and declared[channel].authoritative:
        raise InputError(
            f"record: channel {channel!r} is authoritative, a system of record; an agent "
            "cannot write to it"
        )
    event["by"] = who
    return event


def _judgment(prepared: Prepared, written: dict[str, Any]) -> list[dict[str, Any]]:
    """For each claimed target: its status at the claim's at (known latest) and what each cited
    event supports."""
    from resolver.agents.evidence import cited_support
    from resolver.times import parse_time

    point = api.standpoint(parse_time(written["at"]), "latest")
    result = []
    for target in written["claims_complete"]:
        task = prepared.project.task(target)
        items = list(task.obligations) if task is not None else [target]
        if task is None and prepared.project.expectation(target) is None:
            continue
        resolution = api.explained(prepared, point, items)
        found = resolution.task(target) or resolution.expectation(target)
        support = cited_support(prepared, resolution, target, written["evidence"])
        result.append(
            {"target": target, "status": getattr(found, "status", None), "evidence": support}
        )
    return result


def _receipt_resource(history: History, task_id: str) -> FunctionResource:
    def read() -> str:
        built = api.receipt(history.current(), api.standpoint(), task_id, nearest=False)
        return receipt_text.render_json(built)

    return FunctionResource(
        uri=f"openloop://receipt/{task_id}",
        name=f"receipt {task_id}",
        description=f"The receipt of task {task_id} at now: each obligation with its evidence",
        mime_type="application/json",
        fn=read,
    )


def serve(
    paths: Sequence[str | Path], log: str | Path | None = None, identity: str = DEFAULT_IDENTITY
) -> None:
    """Run the server on stdin/stdout until the client closes the session."""
    import anyio

    from resolver.agents.mcp_stdio import filtered_stdio

    server = build(paths, log, identity)
    tools = {tool.name: tool for tool in server._tool_manager.list_tools()}

    async def run() -> None:
        # The SDK's own run_stdio_async, with the transport that answers malformed lines.
        async with filtered_stdio(tools) as (read, write):
            lowlevel = server._lowlevel_server
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    anyio.run(run)
