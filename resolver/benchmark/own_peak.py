"""A command's own peak RSS, which ``wait4`` cannot give when the measuring process is large.

Linux carries a process's peak RSS across ``exec``: the ``ru_maxrss`` that ``wait4`` reports for
a child started by a process holding 900 MB reads at least that size, whatever the command used
itself (measured: a 100k ``status --format json`` that peaks at 355 MB read as 890 MB when the
bench's measuring process started it). So the bench starts each command through
:data:`LAUNCHER`, which runs it in the child and, when it ends, writes to a file the high-water
mark of the child's own memory (``VmHWM``, which starts afresh at ``exec``) or, if larger, that
of the workers it waited for (``RUSAGE_CHILDREN``), in kB. The launcher runs the command as
``python -m resolver`` does and imports nothing the command would not import itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: Run by ``python -c``: argv is ``REPORT OPENLOOP-ARGS...``.
LAUNCHER = """\
import resource, runpy, sys
report = sys.argv[1]
sys.argv = ["openloop", *sys.argv[2:]]
code = 1
try:
    runpy.run_module("resolver", run_name="__main__", alter_sys=True)  # python -m resolver
    code = 0
except SystemExit as done:
    code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
finally:
    own = 0
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    own = int(line.split()[1])
    except OSError:
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    with open(report, "w") as out:
        out.write(f"{max(own, workers)}\\n")
sys.exit(code)
"""


def command(argv: list[str], report: Path) -> list[str]:
    """The command line that runs ``openloop ARGV`` and writes its own peak to ``report``."""
    return [sys.executable, "-c", LAUNCHER, str(report), *argv]


def peak_mb(report: Path, fallback_kb: float) -> float:
    """The peak the launcher wrote, in MB; ``fallback_kb`` (``wait4``'s figure) if it wrote
    none (the command was killed)."""
    try:
        return int(report.read_text().strip()) / 1024
    except (OSError, ValueError):
        return fallback_kb / 1024


@dataclass(frozen=True)
class Finished:
    """One command run to its end: exit code, wall seconds, CPU seconds of it and the workers
    it waited for (``wait4``), and its own peak RSS in MB."""

    returncode: int
    wall_s: float
    cpu_s: float
    peak_mb: float


def run(
    argv: list[str], started: Callable[[subprocess.Popen], None] | None = None, **popen
) -> Finished:
    """Run ``openloop ARGV`` in a fresh interpreter through the launcher and measure it;
    ``started`` sees the child once it runs (to arm a timeout), ``popen`` goes to ``Popen``."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "peak"
        begin = time.perf_counter()
        child = subprocess.Popen(command(argv, report), **popen)
        if started is not None:
            started(child)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - begin
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        return Finished(
            child.returncode,
            wall,
            usage.ru_utime + usage.ru_stime,
            peak_mb(report, usage.ru_maxrss),
        )
