"""The compiled grammar is read from the user's cache folder when it matches, and rebuilt
(silently, with the same answers) when it is missing, damaged or cannot be written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from resolver.language.grammar_cache import grammar_cache
from resolver.resources import grammar_text

ROOT = Path(__file__).resolve().parents[1]
RELEASE = str(ROOT / "fixtures" / "release")


def _status(cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPENLOOP_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "resolver", "status", RELEASE, "--at", "2024-08-23"]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def test_the_grammar_is_cached_and_a_damaged_file_is_rebuilt(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    first = _status(folder)
    assert first.returncode == 0, first.stderr
    (cached,) = folder.glob("grammar-*.lark")
    assert oct(folder.stat().st_mode & 0o777) == oct(0o700), "a new folder is private"
    assert _status(folder).stdout == first.stdout, "read from the cache: the same answer"
    cached.write_bytes(b"not a pickle\n\x00\x01")
    for kept in folder.glob("parsed-*.json"):  # the store's kept parses: parse again
        kept.unlink()
    damaged = _status(folder)
    assert (damaged.returncode, damaged.stdout, damaged.stderr) == (0, first.stdout, "")
    assert cached.read_bytes() != b"not a pickle\n\x00\x01", "rewritten"


def test_an_unusable_folder_turns_the_cache_off(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(blocker / "cache"))
    assert grammar_cache(grammar_text()) is False
    done = _status(blocker / "cache")
    assert done.returncode == 0 and done.stderr == "", done.stderr
