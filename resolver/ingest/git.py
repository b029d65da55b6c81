"""``openloop ingest git``: one event per commit reachable from REV (SPEC §6.1).

Three streaming ``git`` processes, no object parsing of our own:

1. ``git rev-list --topo-order --parents --timestamp`` (newest first) finds, for every commit that
   reached REV through a merge, the first first-parent commit that contains it: a commit's
   ``recorded`` is its committer date, or that later merge's, since a branch's work is known to REV
   only once merged (and a rebased commit is learned at its new committer date). Children precede
   parents in this order, so the "oldest mainline descendant" is passed from child to parent and
   only the frontier is held, plus one integer per side-branch commit.
2. ``git log -z --topo-order --reverse --name-status -M --diff-merges=first-parent`` gives, oldest
   first, each commit's hash, parents, author e-mail after ``.mailmap``, author and committer dates
   as epoch seconds (so every offset git accepts works), git's own parse of the trailers, the whole
   message and the paths changed against the first parent (both paths of a rename).
3. With ``--todos``, ``git log -p -U0 -M`` in the same order feeds :mod:`resolver.ingest.todos`
   (merges' patches are not read: their changes were made, and counted, on the merged branch).

Events are yielded one at a time, so memory does not grow with the messages or diffs of history.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from resolver.ingest.gitrun import Repository, source_error
from resolver.ingest.messages import closing_references, trailer_markers
from resolver.ingest.todos import TodoTracker, parse_patches
from resolver.times import MAX_UNIX, MIN_UNIX, format_time

__all__ = ["GitOptions", "commit_events"]

_FORMAT = "%H%x00%P%x00%aE%x00%at%x00%ct%x00%(trailers:only,unfold,separator=%x1f)%x00%B"
_STATUS = re.compile(r"[A-Z][0-9]*")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class GitOptions:
    """What to import and how to name it."""

    rev: str = "HEAD"
    channel: str = "commits"
    todos: bool = False
    issue_prefix: str = "issue-"
    progress: bool = False


def _tokens(stream: IO[bytes]) -> Iterator[bytes]:
    """NUL-separated tokens of a stream, read in large chunks."""
    rest = b""
    while chunk := stream.read(_CHUNK):
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        yield from parts
    if rest:
        yield rest


@dataclass
class _Commit:
    hash: str
    parents: list[str]
    email: str
    at: int
    committed: int
    trailers: str
    message: str
    files: list[str]


def _commits(stream: IO[bytes]) -> Iterator[_Commit]:
    """Parse the ``-z --name-status`` stream of ``_FORMAT`` records."""
    tokens = _tokens(stream)
    pending: bytes | None = None
    while True:
        head = pending if pending is not None else next(tokens, None)
        pending = None
        if head is None:
            return
        fields = [head]
        for _ in range(6):
            token = next(tokens, None)
            if token is None:
                raise RuntimeError("git log output ended inside a commit record")
            fields.append(token)
        raw_hash, parents, email, at, committed, trailers, message = fields
        files: dict[str, None] = {}
        token = next(tokens, None)
        if token is not None and token.startswith(b"\n"):
            token = token[1:]
            while token is not None and _STATUS.fullmatch(token.decode("ascii", "replace")):
                count = 2 if token[:1] in (b"R", b"C") else 1
                for _ in range(count):
                    path = next(tokens, None)
                    if path is None:
                        raise RuntimeError("git log output ended inside a file list")
                    files[path.decode("utf-8", errors="replace")] = None
                token = next(tokens, None)
        pending = token
        yield _Commit(
            hash=raw_hash.decode("ascii").strip(),
            parents=parents.decode("ascii").split(),
            email=email.decode("utf-8", errors="replace").strip().lower(),
            at=int(at),
            committed=int(committed),
            trailers=trailers.decode("utf-8", errors="replace"),
            message=message.decode("utf-8", errors="replace"),
            files=sorted(files),
        )


def _learned_dates(repo: Repository, head: str) -> tuple[dict[str, int], int]:
    """For each commit that reached ``head`` through a merge, when ``head``'s line learned it.

    Returns that map (side-branch commits only) and the number of commits reachable.
    """
    learned: dict[str, int] = {}
    frontier: dict[str, tuple[int, int]] = {}  # hash -> (distance, committer date) of mainline
    mainline: str | None = head
    distance = count = 0
    with repo.stream("rev-list", "--topo-order", "--parents", "--timestamp", head) as stream:
        for line in stream:
            stamp, commit, *parents = line.decode("ascii").split()
            count += 1
            if commit == mainline:
                mine = (distance, int(stamp))
                distance += 1
                mainline = parents[0] if parents else None
                frontier.pop(commit, None)
            else:
                mine = frontier.pop(commit, (distance, int(stamp)))
                learned[commit] = max(int(stamp), mine[1])
            for parent in parents:
                known = frontier.get(parent)
                if known is None or mine[0] > known[0]:
                    frontier[parent] = mine
    return learned, count


def _kind(commit: _Commit) -> str:
    if len(commit.parents) >= 2:
        return "merge"
    if commit.message.startswith('Revert "'):
        return "revert"
    return "commit"


def _time(repo: Repository, commit: _Commit, seconds: int, what: str) -> str:
    if not MIN_UNIX <= seconds <= MAX_UNIX:
        raise source_error(
            repo.name, f"commit {commit.hash[:12]}: {what} {seconds} is outside 1970..2100"
        )
    return format_time(seconds)


def commit_events(repo: Repository, options: GitOptions) -> Iterator[dict[str, Any]]:
    """The events of every commit reachable from ``options.rev``, oldest first."""
    head = repo.resolve(options.rev)
    learned, total = _learned_dates(repo, head)
    log = (
        "log", "-z", "--topo-order", "--reverse", "--no-color", f"--format={_FORMAT}",
        "--name-status", "-M", "--diff-merges=first-parent", "--root", "--end-of-options", head,
    )  # fmt: skip
    patch = (
        "log", "--topo-order", "--reverse", "--no-color", "--format=%x00%H", "-p", "-U0", "-M",
        "--diff-merges=off", "--root", "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
        "--dst-prefix=b/", "--end-of-options", head,
    )  # fmt: skip
    builder = _EventWriter(repo, options, learned)
    progress = _Progress(total, options.progress and sys.stderr.isatty())
    with contextlib.ExitStack() as stack:
        commits = _commits(stack.enter_context(repo.stream(*log)))
        patches = parse_patches(stack.enter_context(repo.stream(*patch))) if options.todos else None
        for seq, commit in enumerate(commits, start=1):
            changes = None
            if patches is not None:
                patch_hash, changes = next(patches, ("", []))
                if patch_hash != commit.hash:
                    raise RuntimeError(f"git log streams disagree at {commit.hash}: {patch_hash}")
            progress.tick(seq)
            yield builder.event(seq, commit, changes)
    progress.done()


class _EventWriter:
    """Turns parsed commits into events; holds the TODO tracker and the merge dates."""

    def __init__(self, repo: Repository, options: GitOptions, learned: dict[str, int]) -> None:
        self.repo, self.options, self.learned = repo, options, learned
        self.tracker = TodoTracker()

    def event(self, seq: int, commit: _Commit, changes: list[Any] | None) -> dict[str, Any]:
        recorded = self.learned.get(commit.hash, commit.committed)
        event: dict[str, Any] = {
            "id": f"commit-{commit.hash[:12]}",
            "channel": self.options.channel,
            "seq": seq,
            "at": _time(self.repo, commit, commit.at, "author date"),
            "recorded": _time(self.repo, commit, recorded, "committer date"),
            "by": commit.email or None,
            "kind": _kind(commit),
            "text": commit.message.rstrip("\n"),
            "files": commit.files,
        }
        if changes is not None and len(commit.parents) < 2:
            sets = self.tracker.sets(changes)
            if sets:
                event["set"] = sets
        markers = trailer_markers(commit.trailers)
        closing = closing_references(commit.message, self.options.issue_prefix)
        if closing:
            markers["completes"] = list(dict.fromkeys([*markers.get("completes", []), *closing]))
        event.update(markers)
        return event


class _Progress:
    """A progress line on stderr, only when it is a terminal."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.show, self.seen = total, show, 0

    def tick(self, seq: int) -> None:
        self.seen = seq
        if self.show and (seq % 500 == 0 or seq == self.total):
            print(
                f"\ringest git: {seq:,}/{self.total:,} commits", end="", file=sys.stderr, flush=True
            )

    def done(self) -> None:
        if self.show and self.seen:
            print(file=sys.stderr)
