"""A small git repository built in a test, its commits one minute apart (for the study's tests)."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path


class Repo:
    """A git repository whose commits are one minute apart."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = itertools.count(1_700_000_000, 60)
        path.mkdir()
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        when = f"@{next(self.clock)} +0000"
        env = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            ["git", "-C", str(self.path), "-c", "user.name=T", "-c", "user.email=t@e.org", *args],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        return done.stdout.strip()

    def commit(self, message: str, files: dict[str, str | None] | None = None) -> str:
        for name, content in (files or {}).items():
            path = self.path / name
            if content is None:
                path.unlink()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content, encoding="utf-8")
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def merge(self, branch: str, message: str = "Merge") -> str:
        self.git("merge", "-q", "--no-ff", "--no-edit", "-m", message, branch)
        return self.git("rev-parse", "HEAD")
