"""Small-history helpers: write a history in the openloop language, resolve it, read verdicts."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from resolver import api
from resolver.engine.prepared import Prepared
from resolver.verdicts.resolution import Resolution

PREAMBLE = """
channel sessions mention
channel commits work
actor alice principal
actor bot agent
"""


def prepare_text(source: str, jsonl: str | None = None, preamble: bool = True) -> Prepared:
    """Prepare a history given as ``.ol`` text (with a standard preamble) and optional JSONL."""
    folder = Path(tempfile.mkdtemp(prefix="openloop-test-"))
    (folder / "history.ol").write_text((PREAMBLE if preamble else "") + source, encoding="utf-8")
    if jsonl is not None:
        (folder / "events.jsonl").write_text(jsonl, encoding="utf-8")
    return api.prepare([folder])


def resolve_text(source: str, at: str, known: str | None = None, **kwargs) -> Resolution:
    """Resolve a history text at one standpoint."""
    return api.status(prepare_text(source, **kwargs), at=at, known=known)


def verdict(resolution: Resolution, ident: str):
    """The verdict of one expectation (fails loudly when missing)."""
    found = resolution.expectation(ident)
    assert found is not None, f"no expectation {ident}"
    return found


#: A headless Chromium when one is installed (the report tests skip without it).
CHROMIUM = next(
    (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
    None,
)


def chromium_dom(page: Path, *options: str) -> str:
    """The DOM headless Chromium lays out for ``page`` (after its scripts ran)."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            # nothing a page render needs: no network chatter, updates or first-run work
            "--no-first-run",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-dev-shm-usage",
            *options,
            "--dump-dom",
            page.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
