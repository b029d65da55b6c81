"""The MCP server's stdio wire: every malformed request gets a JSON-RPC error (SPEC §8).

The SDK's stdio transport drops a line that is not JSON and answers a tool's wrong arguments as
a tool result; some malformed messages (a batch, ``params`` that is not an object) even end the
session with no answer. A client, or an agent typing JSON-RPC by hand, then waits forever or
reads a result where the protocol says error. So the lines are read here first, and each one
the protocol calls malformed is answered here, never forwarded:

- not JSON: ``-32700`` (parse error), ``id`` null;
- not one JSON-RPC object (a batch, a scalar, no ``"jsonrpc": "2.0"``, a ``method`` or ``id``
  of the wrong type): ``-32600`` (invalid request);
- a request whose ``params`` is not an object, a ``tools/call`` naming no known tool, or whose
  ``arguments`` do not fit the tool's input schema (a number where a time string belongs):
  ``-32602`` (invalid params), with the reason in ``data``;
- an unknown method is the SDK's own ``-32601``.
Everything else goes to the SDK's session unchanged, as the transport would have sent it.
When standard input ends, the requests already forwarded are answered before the session
closes (the SDK's transport closed at once and dropped them).
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver.tools import Tool
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


def check(data: Any, tools: Mapping[str, Tool]) -> tuple[Any, int, str] | None:
    """None for a well-formed message, else (the id to answer, the error code, the reason)."""
    if not isinstance(data, dict):
        return None, INVALID_REQUEST, "a JSON-RPC message must be one object (no batches)"
    ident = data.get("id")
    good_id = isinstance(ident, (str, int)) and not isinstance(ident, bool)
    answer = ident if good_id else None
    if data.get("jsonrpc") != "2.0":
        return answer, INVALID_REQUEST, 'the message must carry "jsonrpc": "2.0"'
    if "id" in data and not good_id:
        return None, INVALID_REQUEST, "id must be a string or an integer"
    if "method" not in data:
        return None  # a response from the client
    method, params = data["method"], data.get("params")
    if not isinstance(method, str):
        return answer, INVALID_REQUEST, "method must be a string"
    if params is not None and not isinstance(params, dict):
        return answer, INVALID_PARAMS, "params must be an object"
    if method == "tools/call" and "id" in data:
        return _tool_call(answer, params or {}, tools)
    return None


def _tool_call(ident: Any, params: dict[str, Any], tools: Mapping[str, Tool]) -> Any:
    name, arguments = params.get("name"), params.get("arguments", {})
    if not isinstance(name, str) or name not in tools:
        known = ", ".join(sorted(tools))
        return ident, INVALID_PARAMS, f"unknown tool {name!r}; the tools are {known}"
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return ident, INVALID_PARAMS, "arguments must be an object"
    unknown = sorted(set(arguments) - set(tools[name].parameters.get("properties", {})))
    if unknown:
        return ident, INVALID_PARAMS, f"{name}: unknown argument(s) {', '.join(unknown)}"
    try:
        tools[name].fn_metadata.arg_model.model_validate(arguments)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or name}: {e['msg']}" for e in exc.errors()
        )
        return ident, INVALID_PARAMS, f"{name}: {problems}"
    return None


def _error(ident: Any, code: int, reason: str) -> SessionMessage:
    message = {-32700: "Parse error", -32600: "Invalid Request", -32602: "Invalid params"}[code]
    error = types.JSONRPCError(
        jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message, data=reason)
    )
    return SessionMessage(error)


@asynccontextmanager
async def filtered_stdio(tools: Mapping[str, Tool]) -> AsyncIterator[tuple[Any, Any]]:
    """Like the SDK's ``stdio_server()``, answering malformed lines itself."""
    stdin = anyio.wrap_file(
        open(  # noqa: SIM115
            sys.stdin.fileno(),
            encoding="utf-8",
            errors="replace",
            closefd=False,
        )
    )
    stdout = anyio.wrap_file(open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False))  # noqa: SIM115
    read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_reader = create_context_streams[SessionMessage](0)
    pending: set[Any] = set()
    answered = anyio.Event()

    async def reader() -> None:
        async with read_writer:
            await _read(read_writer)
            with anyio.move_on_after(60):  # let the forwarded requests be answered first
                while pending:
                    await answered.wait()

    async def _read(read_writer: Any) -> None:
        async for line in stdin:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError as exc:
                await write_stream.send(_error(None, PARSE_ERROR, f"not JSON: {exc}"))
                continue
            problem = check(data, tools)
            if problem is None:
                try:
                    message = types.jsonrpc_message_adapter.validate_python(data)
                except ValidationError as exc:
                    ident = data.get("id") if isinstance(data.get("id"), (str, int)) else None
                    problem = (ident, INVALID_REQUEST, str(exc.errors()[0]["msg"]))
                else:
                    if "method" in data and "id" in data:
                        pending.add(data["id"])
                    await read_writer.send(SessionMessage(message))
                    continue
            if "id" in data or problem[1] != INVALID_PARAMS:  # notifications get no answer
                await write_stream.send(_error(*problem))

    async def writer() -> None:
        async with write_reader:
            async for session_message in write_reader:
                message = session_message.message
                text = message.model_dump_json(by_alias=True, exclude_unset=True)
                await stdout.write(text + "\n")
                await stdout.flush()
                if not hasattr(message, "method") and getattr(message, "id", None) in pending:
                    nonlocal answered
                    pending.discard(message.id)
                    answered.set()
                    answered = anyio.Event()

    async with anyio.create_task_group() as group:
        group.start_soon(reader)
        group.start_soon(writer)
        yield read_stream, write_stream
