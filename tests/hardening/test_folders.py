"""Reading folders: nothing below a named folder is skipped silently.

Regressions of issue 17, item 4: with the event log in an unreadable or symlinked subfolder,
``os.walk`` skipped it without a word and ``bench-fixtures`` went from SATISFIED to OPEN.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.errors import InputError

AT = "2024-08-23"


def _status(paths: list[Path], ident: str) -> str:
    verdict = api.status(api.prepare(paths), at=AT).expectation(ident)
    assert verdict is not None
    return verdict.status


def test_event_log_in_a_symlinked_folder_is_read(release, tmp_path):
    assert _status([release], "bench-fixtures") == "SATISFIED"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(release / "events.jsonl", elsewhere / "events.jsonl")
    (release / "sub").symlink_to(elsewhere, target_is_directory=True)
    assert _status([release], "bench-fixtures") == "SATISFIED"


def test_a_symlink_loop_is_read_once(release):
    (release / "loop").symlink_to(release, target_is_directory=True)
    (release / "sub").mkdir()
    (release / "sub" / "back").symlink_to(release / "sub", target_is_directory=True)
    assert _status([release], "bench-fixtures") == "SATISFIED"


def test_an_unreadable_folder_is_an_error_that_names_it(release, monkeypatch, capsys):
    sub = release / "sub"
    sub.mkdir()
    shutil.move(release / "events.jsonl", sub / "events.jsonl")
    real_scandir = os.scandir

    def scandir(path=".", *args):  # what a folder without read permission does, even for root
        if Path(path) == sub:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path, *args)

    monkeypatch.setattr(os, "scandir", scandir)
    assert main(["status", str(release), "--at", AT]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{sub}: error: cannot read folder: Permission denied\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads folders without read permission")
def test_an_unreadable_folder_on_disk_is_an_error(release):
    sub = release / "sub"
    sub.mkdir()
    sub.chmod(0)
    try:
        with pytest.raises(InputError, match="cannot read folder"):
            api.prepare([release])
    finally:
        sub.chmod(0o755)


@pytest.mark.parametrize("name", ["more.ol", "more.jsonl"])
def test_a_dangling_symlink_to_a_history_file_is_an_error(release, capsys, name):
    (release / name).symlink_to(release / "gone" / name)
    assert main(["status", str(release), "--at", AT]) == 2
    err = capsys.readouterr().err
    assert err == f"{release / name}: error: symlink to a file that does not exist\n"


def test_other_dangling_symlinks_are_ignored(release):
    (release / "notes.txt").symlink_to(release / "gone.txt")
    assert _status([release], "bench-fixtures") == "SATISFIED"


def test_a_fifo_named_like_an_event_log_is_an_error(release):
    os.mkfifo(release / "stream.jsonl")
    with pytest.raises(InputError, match="not a regular file"):
        api.prepare([release])
