"""Exit codes survive what happens to standard output and to the process.

Regressions of issue 17, items 3, 8 and 9: a broken pipe exited 0 (so ``check ... | head`` under
``pipefail`` passed a failing gate), a full disk or a closed stdout ended in a traceback, and
Ctrl-C printed dozens of lines of traceback.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.cli.main import main

AT = ("--at", "2024-08-23")


class _ClosedPipe(io.StringIO):
    """Standard output whose reader has gone away."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_check_keeps_its_failing_exit_code_on_a_broken_pipe(release, monkeypatch):
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["check", str(release), "--before", "release-024", *AT]) == 1


def test_test_keeps_its_failing_exit_code_on_a_broken_pipe(release, monkeypatch):
    with (release / "release.ol").open("a", encoding="utf-8") as stream:
        stream.write('\ntest "wrong on purpose" { at 2024-08-23 expect intent-401 satisfied }\n')
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["test", str(release)]) == 1


def test_check_through_a_pipe_closed_by_its_reader_exits_1(release):
    process = subprocess.Popen(
        [sys.executable, "-m", "resolver", "check", str(release), "--before", "release-024", *AT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader goes away before anything is written, as `| true`
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1
    assert "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_full_disk_on_stdout_is_exit_2_with_one_line(release):
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "resolver", "status", str(release), *AT],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr == "error: cannot write to standard output: No space left on device\n"


def test_closed_stdout_is_exit_2_with_one_line(release):
    result = subprocess.run(
        [sys.executable, "-m", "resolver", "status", str(release), *AT],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 2
    assert result.stderr == "error: cannot write to standard output: it is closed\n"


def test_closed_stdout_with_output_file_still_works(release, tmp_path):
    target = tmp_path / "out.txt"
    result = subprocess.run(
        [sys.executable, "-m", "resolver", "status", str(release), *AT, "-o", str(target)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 0, result.stderr
    assert "intent-401" in target.read_text(encoding="utf-8")


# Ctrl-C: the interrupt is delivered as a real SIGINT at a chosen moment of a real run.
_INTERRUPT = """
import os, signal, sys
import resolver.output as output
from resolver.cli.main import main
from resolver.language import loader

def interrupt():
    os.kill(os.getpid(), signal.SIGINT)

if sys.argv[1] == "load":
    real_collect = loader.collect_files
    def collect_files(paths):
        interrupt()
        return real_collect(paths)
    loader.collect_files = collect_files
else:
    real_replace = output.os.replace
    def replace(source, target):
        interrupt()
        return real_replace(source, target)
    output.os.replace = replace
sys.exit(main(sys.argv[2:]))
"""


def test_ctrl_c_prints_one_line_and_exits_130(release):
    result = subprocess.run(
        [sys.executable, "-c", _INTERRUPT, "load", "status", str(release), *AT],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 130
    assert result.stderr == "openloop: interrupted\n"
    assert result.stdout == ""


def test_ctrl_c_while_writing_leaves_no_partial_file(release, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "report.txt"
    result = subprocess.run(
        [sys.executable, "-c", _INTERRUPT, "write", "status", str(release), *AT, "-o", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 130, result.stderr
    assert result.stderr == "openloop: interrupted\n"
    assert list(folder.iterdir()) == [], "a temporary or partial file was left behind"
