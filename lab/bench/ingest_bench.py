"""Measuring ``openloop ingest git`` on a generated repository (commits per second).

The repository is generated with ``git fast-import`` from a deterministic stream (so generation
takes seconds even for tens of thousands of commits): a main line with a side branch merged every
50 commits, 20 authors, 1,000 files in 20 folders edited a few lines at a time, TODO comments
added and removed, closing keywords and trailers in some messages. The measurement runs the
importer exactly as the command does (every event serialised to a JSON line), once with
``--todos`` off and once on, and reports the wall-clock rate; the target is at least 2,000
commits a second with ``--todos`` off.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from resolver.ingest import writer
from resolver.ingest.git import GitOptions, commit_events
from resolver.ingest.gitrun import Repository

__all__ = ["TARGET_COMMITS_PER_S", "available", "generate", "measure", "row"]

TARGET_COMMITS_PER_S = 2000
COMMITS = 20_000
_START = 1_577_836_800  # 2020-01-01T00:00:00Z
_FILES = 1000
_MAX_LINES = 12
_MERGE_EVERY = 50
_SIDE_COMMITS = 3


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n" % len(raw) + raw + b"\n"


def _name(number: int) -> str:
    return f"src/d{number % 20:02d}/m{number:04d}.py"


def _stream(commits: int, seed: int) -> io.BytesIO:
    """The fast-import input for ``commits`` commits (merges and side commits included)."""
    chance = random.Random(seed)
    files: dict[str, list[str]] = {_name(n): [f"# module {n}"] for n in range(_FILES)}
    out = io.BytesIO()
    mark = 0
    main_tip = 0
    side_left = 0

    def change() -> list[str]:
        edits = []
        for _ in range(chance.randint(1, 3)):
            path = _name(chance.randrange(_FILES))
            lines = files[path]
            roll = chance.random()
            todos = [i for i, line in enumerate(lines) if "TODO" in line]
            if roll < 0.15:
                lines.append(f"# TODO: revisit step {mark}")
            elif roll < 0.25 and todos:
                lines.pop(chance.choice(todos))
            elif len(lines) < 3 or (roll < 0.6 and len(lines) < _MAX_LINES):
                lines.append(f"value_{mark} = {chance.randrange(1000)}")
            else:
                lines[chance.randrange(1, len(lines))] = f"value_{mark} = {chance.randrange(1000)}"
            edits.append(path)
        return edits

    def commit(ref: str, message: str, parents: list[int]) -> None:
        nonlocal mark
        mark += 1
        who = chance.randrange(20)
        stamp = _START + mark * 600
        out.write(f"commit {ref}\nmark :{mark}\n".encode())
        out.write(f"author Dev {who} <dev{who}@example.com> {stamp} +0000\n".encode())
        out.write(f"committer Dev {who} <dev{who}@example.com> {stamp + 60} +0000\n".encode())
        out.write(_data(message))
        if parents:
            out.write(f"from :{parents[0]}\n".encode())
        for parent in parents[1:]:
            out.write(f"merge :{parent}\n".encode())
        if len(parents) < 2:
            for path in dict.fromkeys(change()):
                out.write(f"M 100644 inline {path}\n".encode())
                out.write(_data("\n".join(files[path]) + "\n"))
        out.write(b"\n")

    side_tip = 0
    while mark < commits:
        if side_left:
            commit("refs/heads/side", f"Side work {mark}", [side_tip or main_tip])
            side_tip = mark
            side_left -= 1
            if not side_left:
                commit("refs/heads/main", f"Merge side work {mark}", [main_tip, side_tip])
                main_tip, side_tip = mark, 0
            continue
        text = f"Change step {mark}"
        if chance.random() < 0.05:
            text += f"\n\nFixes #{chance.randrange(1, 500)}"
        if chance.random() < 0.03:
            text += f"\n\nCompletes: intent-{chance.randrange(1, 100)}"
        commit("refs/heads/main", text, [main_tip] if main_tip else [])
        main_tip = mark
        if mark % _MERGE_EVERY == 0 and commits - mark > _SIDE_COMMITS + 1:
            side_left = _SIDE_COMMITS
    out.seek(0)
    return out


def available() -> bool:
    """Whether git is installed (the ingest row is left out of the table without it)."""
    return shutil.which("git") is not None


def generate(base: Path, commits: int = COMMITS, seed: int = 0) -> Path:
    """A repository of exactly ``commits`` commits under ``base`` (reused when present)."""
    repo = base / f"git-{commits}-seed-{seed}"
    done = repo / ".openloop-generated"
    if done.exists():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "fast-import", "--quiet"],
        input=_stream(commits, seed).getvalue(),
        check=True,
    )
    subprocess.run(["git", "-C", str(repo), "reset", "-q", "--hard", "main"], check=True)
    done.write_text("generated\n")
    return repo


def _time(repo: Path, todos: bool) -> tuple[int, float]:
    with open(os.devnull, "w", encoding="utf-8") as sink:
        begin = time.perf_counter()
        count = 0
        for event in commit_events(Repository(repo), GitOptions(todos=todos)):
            sink.write(writer.dumps(event) + "\n")
            count += 1
        return count, time.perf_counter() - begin


def measure(base: Path, commits: int = COMMITS, seed: int = 0) -> dict[str, Any]:
    """Generate (or reuse) the repository and time both ingest modes."""
    begin = time.perf_counter()
    repo = generate(base, commits, seed)
    generated = time.perf_counter() - begin
    count, plain = _time(repo, todos=False)
    _, todos = _time(repo, todos=True)
    rate = count / plain if plain else 0.0
    return {
        "ingest": True,
        "commits": count,
        "generate_s": round(generated, 3),
        "seconds": round(plain, 3),
        "commits_per_s": round(rate, 1),
        "todos_seconds": round(todos, 3),
        "todos_commits_per_s": round(count / todos if todos else 0.0, 1),
        "target_met": rate >= TARGET_COMMITS_PER_S,
    }


def row(result: dict[str, Any]) -> str:
    """The ingest line of the benchmark table."""
    verdict = "PASS" if result["target_met"] else "MISS"
    return (
        f"ingest git: {result['commits']:,} commits: {result['commits_per_s']:,.0f} commits/s "
        f"({result['seconds']:.2f} s); with --todos {result['todos_commits_per_s']:,.0f} "
        f"commits/s ({result['todos_seconds']:.2f} s); target >= {TARGET_COMMITS_PER_S:,} "
        f"commits/s: {verdict}"
    )
