"""``-o`` and ``--junit`` write where ``> FILE`` would, never over an input, never half a file.

Regressions of issue 17, items 1, 2 and 8: the temporary-file-and-rename write replaced symlinks,
FIFOs and device nodes with regular files, overwrote the event log it had just read, and crashed
with a traceback on folders.
"""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from resolver.cli.main import main

AT = ("--at", "2024-08-23")
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def status(release: Path, *extra: str) -> int:
    return main(["status", str(release), *AT, *extra])


def test_output_through_a_symlink_writes_its_target(release, tmp_path, capsys):
    target = tmp_path / "real.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert status(release, "-o", str(link)) == 0
    assert link.is_symlink(), "the symlink was replaced by a regular file"
    assert "intent-401" in target.read_text(encoding="utf-8")


def test_output_through_a_symlink_keeps_the_link_when_the_target_exists(release, tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert status(release, "-o", str(link)) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8").startswith("openloop status")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640, "an existing file keeps its mode"


def test_output_into_a_fifo_writes_into_it(release, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    # A daemon: if the FIFO were replaced, the reader would wait on it for ever.
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code = status(release, "-o", str(fifo))
    assert code == 0
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO was replaced by a regular file"
    reader.join(timeout=60)
    assert b"intent-401" in received[0]


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="creating device nodes needs root")


@needs_root
def test_output_into_a_null_device_keeps_the_device(release, tmp_path):
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    assert status(release, "-o", str(null)) == 0
    assert stat.S_ISCHR(null.lstat().st_mode), "the device node was replaced by a report"


@needs_root
def test_output_into_a_full_device_is_exit_2(release, tmp_path, capsys):
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    assert status(release, "-o", str(full)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err
    assert stat.S_ISCHR(full.lstat().st_mode)


@pytest.mark.parametrize("name", ["events.jsonl", "release.ol"])
def test_output_refuses_to_overwrite_an_input_file(release, capsys, name):
    before = (release / name).read_bytes()
    assert status(release, "-o", str(release / name)) == 2
    err = capsys.readouterr().err
    assert "refusing to overwrite the input file" in err and err.count("\n") == 1
    assert (release / name).read_bytes() == before


def test_graph_refuses_to_overwrite_the_declarations_through_a_symlink(release, tmp_path, capsys):
    link = tmp_path / "innocent.dot"
    link.symlink_to(release / "release.ol")
    before = (release / "release.ol").read_bytes()
    assert main(["graph", str(release), *AT, "--format", "dot", "-o", str(link)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert (release / "release.ol").read_bytes() == before


def test_snapshot_is_an_input_too(tmp_path, capsys):
    gap = tmp_path / "gap"
    shutil.copytree(FIXTURES / "gap", gap)
    snapshot = gap / "snapshot.json"
    before = snapshot.read_bytes()
    code = main(["status", str(gap), *AT, "--snapshot", str(snapshot), "-o", str(snapshot)])
    assert code == 2 and snapshot.read_bytes() == before


def test_junit_refuses_to_overwrite_an_input_file(release, capsys):
    before = (release / "release.ol").read_bytes()
    assert main(["test", str(release), "--junit", str(release / "release.ol")]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert (release / "release.ol").read_bytes() == before


def test_output_into_a_folder_is_exit_2_with_one_line(release, tmp_path, capsys):
    assert status(release, "-o", str(tmp_path)) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"{tmp_path}: error: is a folder; expected a file name"
    assert captured.out == ""


def test_junit_into_a_folder_is_refused_before_the_tests_run(release, tmp_path, capsys):
    assert main(["test", str(release), "--junit", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "is a folder" in captured.err


def test_output_into_a_missing_folder_says_error_once(release, tmp_path, capsys):
    target = tmp_path / "nodir" / "out.txt"
    assert status(release, "-o", str(target)) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and err.count("\n") == 1
    assert "no such folder" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_output_into_a_read_only_folder_is_exit_2(release, tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert status(release, "-o", str(folder / "out.txt")) == 2
    finally:
        folder.chmod(0o755)
    assert "Permission denied" in capsys.readouterr().err
    assert list(folder.iterdir()) == []


def test_output_where_no_temporary_file_can_be_made_is_exit_2(release, tmp_path, capsys):
    """What a read-only folder does to the writer, also when the suite runs as root (who may
    write anywhere): the temporary file cannot be made."""
    import resolver.cli.output as output

    folder = tmp_path / "ro"
    folder.mkdir()
    real_mkstemp = output.tempfile.mkstemp

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    output.tempfile.mkstemp = refuse
    try:
        assert status(release, "-o", str(folder / "out.txt")) == 2
    finally:
        output.tempfile.mkstemp = real_mkstemp
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Permission denied" in err


def test_bench_data_naming_a_file_is_exit_2(tmp_path, capsys):
    data = tmp_path / "data"
    data.write_text("not a folder\n", encoding="utf-8")
    assert main(["bench", "--data", str(data), "--events", "20", "--runs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a folder" in err
