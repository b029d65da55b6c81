"""A builder for real git repositories with known authors, dates and messages."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


class GitRepo:
    """A repository in a temporary folder, committed to with exact dates and identities."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.env = {
            **os.environ,
            "HOME": str(path.parent),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "LC_ALL": "C",
        }
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            ["git", *args],
            cwd=self.path,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def write(self, files: dict[str, str | None]) -> None:
        for name, content in files.items():
            target = self.path / name
            if content is None:
                self.git("rm", "-q", name)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
            self.git("add", name)

    @staticmethod
    def identity(author: str, date: str, committer: str | None, committed: str | None) -> dict:
        name, _, email = author.partition(" <")
        c_name, _, c_email = (committer or author).partition(" <")
        return {
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": email.rstrip(">"),
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_NAME": c_name,
            "GIT_COMMITTER_EMAIL": c_email.rstrip(">"),
            "GIT_COMMITTER_DATE": committed or date,
        }

    def commit(
        self,
        message: str,
        files: dict[str, str | None] | None = None,
        *,
        author: str = "Alice <alice@example.com>",
        date: str = "2024-01-01T10:00:00+00:00",
        committer: str | None = None,
        committed: str | None = None,
    ) -> str:
        """Commit ``files`` (content, or None to delete) and return the full hash."""
        if files:
            self.write(files)
        env = self.identity(author, date, committer, committed)
        self.git("commit", "-q", "--allow-empty", "-m", message, env=env)
        return self.git("rev-parse", "HEAD")

    def mv(self, old: str, new: str) -> None:
        self.git("mv", old, new)

    def merge(self, branch: str, message: str, date: str, **kwargs: str) -> str:
        env = self.identity(kwargs.get("author", "Alice <alice@example.com>"), date, None, None)
        self.git("merge", "-q", "--no-ff", "-m", message, branch, env=env)
        return self.git("rev-parse", "HEAD")

    def revert(self, commit: str, date: str, author: str = "Alice <alice@example.com>") -> str:
        env = self.identity(author, date, None, None)
        self.git("revert", "--no-edit", commit, env=env)
        return self.git("rev-parse", "HEAD")


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """An empty repository; skips the test when git is not installed."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return GitRepo(tmp_path / "repo")
