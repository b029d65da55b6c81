"""Locating the grammar and rule files (from a checkout or an installed wheel), and the cache.

In a checkout they live at the top of the repository (``grammar/``, ``rules/``); a wheel carries
copies inside the package as ``resolver/_data/``. The packaged copy wins when present so that an
installed tool never reads a stray checkout.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The directory holding ``grammar`` or ``rules`` files."""
    packaged = resources.files("resolver") / "_data" / name
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = _PACKAGE_DIR.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"cannot find the {name!r} files of openloop (broken install?)")


def grammar_text() -> str:
    """The text of ``grammar/openloop.lark``."""
    return (data_dir("grammar") / "openloop.lark").read_text(encoding="utf-8")


def rule_files() -> list[Path]:
    """Every ``rules/**/*.lp`` file (prepare, standpoint, query), in a stable order."""
    root = data_dir("rules")
    return sorted(root.rglob("*.lp"), key=lambda path: path.relative_to(root).as_posix())


def cache_dir() -> Path:
    """The user's folder for openloop's caches (copies only: deleting one changes no answer):
    ``$OPENLOOP_CACHE_DIR``, else ``$XDG_CACHE_HOME/openloop``, else ``~/.cache/openloop``."""
    explicit = os.environ.get("OPENLOOP_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "openloop"
