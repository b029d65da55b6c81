"""The MCP server's calls on a real history (issues 26 and 28): what an agent waits for.

``python -m lab.bench.mcp_real BUNDLE [--rounds N]``: the bundle's history as the real rows
make it (:func:`lab.bench.real_rows.ingested`: ``ingest git --todos``, the TODO-debt policy, the
bench's task), ``openloop status`` once (the store filled, as a user's first command does), then
``openloop mcp`` started as a host starts it (a subprocess spoken to over stdio by the SDK's own
client) and timed call by call: the server's CPU seconds (user + system, read from ``/proc``
before and after each call, so the client's own work is not counted):

* ``first status``: the server's first ``status`` (it reads the store);
* ``status`` / ``check``: later calls on the kept history (the mean of ``--rounds`` calls: the
  kernel counts CPU in ticks of 10 ms, so single short calls are averaged);
* ``record`` then ``check``: a claim of the bench's task recorded through the server, then the
  task's gate asked: the log grew, so the server loads it again (an increment) and prepares the
  task's group; ``record`` then ``status``: the whole history prepared again after the claim
  (medians of ``--rounds`` pairs).

Linux only (``/proc``). Needs the ``mcp`` extra.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from lab.bench.real_rows import ingested
from lab.bench.store_rows import HOOK_TASK
from lab.bench.store_rows import command as timed
from resolver.benchmark.timing import cache_folder

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _server_pid() -> int:
    """The ``openloop mcp`` child of this process."""
    mine = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            line = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if fields[1] == mine and b"mcp" in line:
            return int(entry.name)
    raise RuntimeError("the MCP server's process was not found")


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


async def _measure(history: Path, rounds: int) -> dict[str, float]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "resolver", "mcp", str(history)], env=dict(os.environ)
    )
    out: dict[str, float] = {}
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        pid = _server_pid()

        async def spent(call: Callable[[], Awaitable[object]], times: int = 1) -> float:
            before = _cpu(pid)
            for _ in range(times):
                result = await call()
                if getattr(result, "isError", False):
                    raise RuntimeError(f"the server answered an error: {result}")
            return (_cpu(pid) - before) / times

        def status() -> Awaitable[object]:
            return session.call_tool("status", {"known": "latest"})

        def check() -> Awaitable[object]:
            return session.call_tool("check", {"known": "latest", "task": HOOK_TASK})

        def record() -> Awaitable[object]:
            claim = {"channel": "agent", "text": "Released", "claims_complete": [HOOK_TASK]}
            return session.call_tool("record", {"event": claim})

        out["first_status_cpu_s"] = await spent(status)
        out["status_cpu_s"] = await spent(status, rounds)
        out["check_cpu_s"] = await spent(check, rounds)
        pairs = []
        for _ in range(rounds):
            wrote = await spent(record)
            pairs.append((wrote, await spent(check)))
        out["record_cpu_s"] = statistics.median(p[0] for p in pairs)
        out["check_after_record_cpu_s"] = statistics.median(p[1] for p in pairs)
        after = []
        for _ in range(rounds):
            await spent(record)
            after.append(await spent(status))
        out["status_after_record_cpu_s"] = statistics.median(after)
    return out


def measure(bundle: str | Path, rounds: int, log) -> dict:
    """The server's CPU per call on ``bundle``'s history, after one ``openloop status``."""
    import anyio

    out: dict = {"history": Path(bundle).stem}
    with tempfile.TemporaryDirectory(prefix="openloop-mcp-") as scratch:
        history = ingested(bundle, Path(scratch), out, log)
        with cache_folder(Path(scratch) / "cache"):
            timed(["status", str(history), "--format", "json"])
            out.update(anyio.run(_measure, history, rounds))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.bench.mcp_real", description=__doc__)
    parser.add_argument("bundles", nargs="+", help="git bundles of real histories")
    parser.add_argument("--rounds", type=int, default=10, help="calls averaged (default 10)")
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        print(message, file=sys.stderr)

    print(
        "history  first status ms  status ms  check ms  record ms  check after record ms"
        "  status after record ms"
    )
    for bundle in args.bundles:
        r = measure(bundle, args.rounds, log)
        print(
            f"{r['history']}  {r['first_status_cpu_s'] * 1000:.0f}  {r['status_cpu_s'] * 1000:.0f}"
            f"  {r['check_cpu_s'] * 1000:.0f}  {r['record_cpu_s'] * 1000:.0f}"
            f"  {r['check_after_record_cpu_s'] * 1000:.0f}"
            f"  {r['status_after_record_cpu_s'] * 1000:.0f}"
        )
    print("CPU of the server process per call (user + system), after one `openloop status`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
