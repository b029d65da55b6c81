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
    import resolver.output as output

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


# --- one output path for every writer (issue 29, item 1) --------------------------------------
#
# Every importer's -o and --ol, --append and init go through resolver/output.py, as status -o
# does: a symlink is written through and stays a link, a FIFO or device is written in place, an
# input file is refused, and nothing is half-written.

JUNIT = FIXTURES.parent / "tests" / "ingest" / "data" / "junit.xml"
GITHUB = FIXTURES.parent / "tests" / "ingest" / "data" / "gh_issues.json"


def _copy(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / source.name
    shutil.copyfile(source, target)
    return target


@pytest.mark.parametrize("option", ["-o", "--append"])
def test_ingest_junit_refuses_to_write_over_its_own_report(tmp_path, capsys, option):
    report = _copy(JUNIT, tmp_path)
    before = report.read_bytes()
    assert main(["ingest", "junit", str(report), option, str(report)]) == 2
    err = capsys.readouterr().err
    assert "input file" in err and err.count("\n") == 1
    assert report.read_bytes() == before


def test_ingest_github_refuses_ol_over_its_own_export(tmp_path, capsys):
    export = _copy(GITHUB, tmp_path)
    before = export.read_bytes()
    out = tmp_path / "issues.jsonl"
    assert main(["ingest", "github", str(export), "--ol", str(export), "-o", str(out)]) == 2
    assert "refusing to overwrite the input file" in capsys.readouterr().err
    assert export.read_bytes() == before and not out.exists()


def test_ingest_refuses_one_file_for_both_the_log_and_the_declarations(tmp_path, capsys):
    export = _copy(GITHUB, tmp_path)
    same = tmp_path / "both.txt"
    assert main(["ingest", "github", str(export), "--ol", str(same), "-o", str(same)]) == 2
    assert "named by both" in capsys.readouterr().err
    assert not same.exists()


@pytest.mark.parametrize("option", ["-o", "--ol"])
def test_ingest_writes_through_a_symlink_and_keeps_it(tmp_path, capsys, option):
    export = _copy(GITHUB, tmp_path)
    target = tmp_path / "real.txt"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert main(["ingest", "github", str(export), option, str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    text = target.read_text(encoding="utf-8")
    assert ("issue-" in text) and text != "old\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_ingest_into_a_fifo_writes_into_it(tmp_path):
    report = _copy(JUNIT, tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["ingest", "junit", str(report), "-o", str(fifo)]) == 0
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO was replaced by a regular file"
    reader.join(timeout=60)
    assert b'"test_run"' in received[0]


def test_ingest_append_to_a_fifo_is_refused_before_anything_is_read(tmp_path, capsys):
    report = _copy(JUNIT, tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # Opening the FIFO to read it back would block for ever: the refusal comes first.
    assert main(["ingest", "junit", str(report), "--append", str(fifo)]) == 2
    err = capsys.readouterr().err
    assert "is not a regular file" in err and err.count("\n") == 1
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@needs_root
def test_ingest_into_a_null_device_keeps_the_device(tmp_path):
    report = _copy(JUNIT, tmp_path)
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    assert main(["ingest", "junit", str(report), "-o", str(null)]) == 0
    assert stat.S_ISCHR(null.lstat().st_mode), "the device node was replaced by a log"


def test_ingest_bad_input_leaves_the_old_log_whole(tmp_path, capsys):
    broken = tmp_path / "broken.xml"
    broken.write_text('<testsuites>\n  <testsuite name="t">\n</testsuites>\n', encoding="utf-8")
    log = tmp_path / "ci.jsonl"
    log.write_text('{"id": "old", "channel": "ci", "at": "2024-01-01"}\n', encoding="utf-8")
    before = log.read_bytes()
    assert main(["ingest", "junit", str(broken), "-o", str(log)]) == 2
    assert log.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("option", ["-o", "--ol", "--append"])
def test_ingest_into_a_folder_is_refused_with_one_line(tmp_path, capsys, option):
    export = _copy(GITHUB, tmp_path)
    assert main(["ingest", "github", str(export), option, str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().endswith("error: is a folder; expected a file name")
    assert captured.out == ""


def test_init_force_writes_through_a_symlink(tmp_path, capsys):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from tests.ingest.conftest import GitRepo

    repo = GitRepo(tmp_path / "repo")
    repo.commit("First", {"a.py": "x = 1\n"})
    target = tmp_path / "real.ol"
    target.write_text("# old\n", encoding="utf-8")
    link = tmp_path / "openloop.ol"
    link.symlink_to(target)
    assert main(["init", str(repo.path), "--ol", str(link), "--force"]) == 0
    assert link.is_symlink() and "channel commits" in target.read_text(encoding="utf-8")
