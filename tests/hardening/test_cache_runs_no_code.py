"""Nothing in the cache folder can run code: the grammar's tables are built in the process,
never unpickled from a file, and nothing a command keeps there is a pickle. An agent's shell
can write that folder, so a pickle there would run its code inside every later command."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / "fixtures" / "release"


class _Planted:
    """Unpickling this touches the marker file: proof that a pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _status(history: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPENLOOP_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "resolver", "status", str(history), "--at", "2024-08-23"]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def test_a_planted_pickle_in_the_cache_folder_is_never_loaded(tmp_path: Path) -> None:
    history = tmp_path / "release"
    shutil.copytree(RELEASE, history)
    cache = tmp_path / "cache"
    first = _status(history, cache)
    assert first.returncode == 0, first.stderr
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Planted(marker))
    # every name a grammar cache or a prepared copy has had, and every file already there
    for name in ("grammar-0123456789abcdef.lark", "prepared-0123456789ab.pickle"):
        (cache / name).write_bytes(payload)
    for kept in [p for p in cache.iterdir() if p.is_file()]:
        kept.write_bytes(payload)
    # an edited .ol makes the command parse again (and so build the grammar)
    ol = next(history.glob("*.ol"))
    ol.write_text(ol.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    again = _status(history, cache)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert not marker.exists(), "a pickle from the cache folder was loaded"


def test_nothing_kept_in_the_cache_folder_is_a_pickle(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _status(RELEASE, cache).returncode == 0
    assert _status(RELEASE, cache).returncode == 0
    kept = [p for p in cache.rglob("*") if p.is_file()]
    assert kept, "the store keeps something"
    for path in kept:
        data = path.read_bytes()
        # a pickle of protocol 2 to 5 opens with PROTO; 4 and 5 then FRAME (Lark's cache puts
        # a digest line before it, so look anywhere)
        framed = any(bytes([0x80, n, 0x95]) in data for n in (4, 5))
        assert not framed and data[:1] != b"\x80", f"{path.name} holds a pickle"
