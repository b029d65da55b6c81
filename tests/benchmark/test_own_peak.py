"""The bench reads a command's own peak RSS, not the size of the process that started it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.benchmark import own_peak

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "release"
BALLAST_MB = 300


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmHWM is Linux's")
def test_a_large_parent_does_not_inflate_the_commands_peak(tmp_path: Path) -> None:
    report = tmp_path / "peak"
    ballast = bytearray(b"\x01") * (BALLAST_MB * 1024 * 1024)  # touched: resident
    try:
        argv = ["status", str(FIXTURE), "--at", "2024-09-01", "-o", os.devnull]
        child = subprocess.Popen(own_peak.command(argv, report), stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
    finally:
        del ballast
    assert os.waitstatus_to_exitcode(status) == 0
    own = own_peak.peak_mb(report, usage.ru_maxrss)
    assert report.exists()
    # a status of a small fixture: a few dozen MB, far below the parent's ballast
    assert 10 < own < BALLAST_MB / 2


def test_a_command_that_wrote_no_report_falls_back_to_wait4(tmp_path: Path) -> None:
    assert own_peak.peak_mb(tmp_path / "missing", 2048) == 2.0
