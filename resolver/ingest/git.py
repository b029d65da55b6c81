"""``openloop ingest git``: one event per commit reachable from REV (SPEC §6.1).

Three streaming ``git`` processes, no object parsing of our own:

1. ``git rev-list --topo-order --parents --timestamp`` gives the order in which REV's first-parent
   line learned of each commit (:mod:`resolver.ingest.git_order`): ``seq`` follows it, so what
   main knew at any time is a prefix of the numbers, and a commit that reached REV through a merge
   is ``recorded`` no earlier than that merge's committer date.
2. ``git log -z --no-walk=unsorted --stdin --name-status -M --diff-merges=first-parent`` is handed
   the hashes in that order and gives each commit's parents, author e-mail after ``.mailmap``,
   author and committer dates as epoch seconds (so every offset git accepts works), git's own
   parse of the trailers, the whole message and the paths changed against the first parent.
3. With ``--todos``, ``git log --first-parent -p -U0 -M`` (oldest first) gives the patch of each
   first-parent commit against its first parent, merges included, for
   :mod:`resolver.ingest.todos`; side-branch commits carry no TODO sets (their effect lands with
   the merge that brings them).

Events are yielded one at a time, so memory does not grow with the messages or diffs of history.
Before that, :mod:`resolver.ingest.git_landing` matches patch identities so that a REV commit that
landed a branch's change (a squash, a cherry-pick) carries that branch's closing references.

A shallow clone is refused unless ``allow_shallow``; then its boundary commits (whose parents the
clone does not hold) list no changed files and set no TODO keys, since their "diff against
nothing" would claim that they added every file.
"""

from __future__ import annotations

import contextlib
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from resolver.ingest.git_landing import Landing, landed_markers
from resolver.ingest.git_order import LearnedOrder, learned_order, shallow_boundary
from resolver.ingest.gitrun import Repository, nul_tokens, source_error
from resolver.ingest.messages import closing_references, reverted_commits, trailer_markers
from resolver.ingest.todo_text import key_path
from resolver.ingest.todos import TodoTracker, parse_patches
from resolver.times import MAX_UNIX, MIN_UNIX, format_time

__all__ = ["GitOptions", "commit_events"]

_FORMAT = "%H%x00%P%x00%aE%x00%at%x00%ct%x00%(trailers:only,unfold,separator=%x1f)%x00%B"
_STATUS = re.compile(r"[A-Z][0-9]*")


@dataclass(frozen=True)
class GitOptions:
    """What to import and how to name it."""

    rev: str = "HEAD"
    channel: str = "commits"
    todos: bool = False
    issue_prefix: str = "issue-"
    progress: bool = False
    allow_shallow: bool = False
    #: Where to look for branch work that landed on REV by squash or cherry-pick: the refs, or
    #: None for every local and remote-tracking branch; ``()`` looks nowhere.
    landed_from: tuple[str, ...] | None = None


@dataclass
class _Commit:
    hash: str
    parents: list[str]
    email: str
    at: int | None
    committed: int | None
    trailers: str
    message: str
    files: list[str]


def _seconds(raw: bytes) -> int | None:
    """git's epoch seconds, or None when git prints none (a date it cannot represent)."""
    text = raw.strip()
    return int(text) if text.lstrip(b"-").isdigit() else None


def _commits(stream: IO[bytes]) -> Iterator[_Commit]:
    """Parse the ``-z --name-status`` stream of ``_FORMAT`` records."""
    tokens = nul_tokens(stream)
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
                    files[key_path(path.decode("utf-8", errors="replace"))] = None
                token = next(tokens, None)
        pending = token
        yield _Commit(
            hash=raw_hash.decode("ascii").strip(),
            parents=parents.decode("ascii").split(),
            email=email.decode("utf-8", errors="replace").strip().lower(),
            at=_seconds(at),
            committed=_seconds(committed),
            trailers=trailers.decode("utf-8", errors="replace"),
            message=message.decode("utf-8", errors="replace"),
            files=sorted(files),
        )


def _kind(commit: _Commit) -> str:
    if len(commit.parents) >= 2:
        return "merge"
    if commit.message.startswith('Revert "'):
        return "revert"
    return "commit"


def _check_shallow(repo: Repository, options: GitOptions) -> frozenset[str]:
    boundary = shallow_boundary(repo)
    if boundary is None:
        return frozenset()
    if not options.allow_shallow:
        raise source_error(
            repo.name,
            "a shallow clone: its oldest commits' parents are missing, so their changes cannot "
            "be read; run `git fetch --unshallow` first (or pass --allow-shallow to import what "
            "it holds)",
        )
    print(
        f"{repo.name}: warning: a shallow clone: history before {len(boundary)} boundary "
        "commit(s) is missing; those commits list no changed files and open no TODOs",
        file=sys.stderr,
    )
    return boundary


def commit_events(repo: Repository, options: GitOptions) -> Iterator[dict[str, Any]]:
    """The events of every commit reachable from ``options.rev``, in the order main learned
    of them."""
    head = repo.resolve(options.rev)
    order = learned_order(repo, head, _check_shallow(repo, options))
    log = (
        "log", "-z", "--no-walk=unsorted", "--stdin", "--no-color", f"--format={_FORMAT}",
        "--name-status", "-M", "--diff-merges=first-parent", "--root",
    )  # fmt: skip
    patch = (
        "log", "--first-parent", "--reverse", "--no-color", "--format=%x00%H", "-p", "-U0", "-M",
        "--diff-merges=first-parent", "--root", "--no-ext-diff", "--no-textconv",
        "--src-prefix=a/", "--dst-prefix=b/", "--end-of-options", head,
    )  # fmt: skip
    landing = (
        landed_markers(repo, head, options.landed_from, options.issue_prefix)
        if options.landed_from != ()
        else Landing()
    )
    builder = _EventWriter(repo, options, order, landing)
    progress = _Progress(len(order.hashes), options.progress and sys.stderr.isatty())
    with contextlib.ExitStack() as stack:
        wanted = stack.enter_context(tempfile.TemporaryFile())
        wanted.write("".join(f"{commit}\n" for commit in order.hashes).encode("ascii"))
        wanted.seek(0)
        commits = _commits(stack.enter_context(repo.stream(*log, stdin=wanted)))
        patches = parse_patches(stack.enter_context(repo.stream(*patch))) if options.todos else None
        for seq, (commit, expected) in enumerate(zip(commits, order.hashes, strict=True), start=1):
            if commit.hash != expected:
                raise RuntimeError(f"git log gave {commit.hash} where {expected} was asked")
            changes = None
            if patches is not None and commit.hash in order.mainline:
                patch_hash, changes = next(patches, ("", []))
                if patch_hash != commit.hash:
                    raise RuntimeError(f"git log streams disagree at {commit.hash}: {patch_hash}")
            progress.tick(seq)
            yield builder.event(seq, commit, changes)
    progress.done()


class _EventWriter:
    """Turns parsed commits into events; holds the TODO tracker and what reverts undo."""

    def __init__(
        self, repo: Repository, options: GitOptions, order: LearnedOrder, landing: Landing
    ) -> None:
        self.repo, self.options, self.order, self.landing = repo, options, order, landing
        self.tracker = TodoTracker()
        #: For each commit whose message completed something: what it completed, and what it
        #: reopened (a revert). Reverting it undoes exactly that.
        self.closings: dict[str, tuple[list[str], list[str]]] = {}
        self.learned = MIN_UNIX  # the latest ``recorded`` so far: ``recorded`` never decreases

    def _seconds(self, commit: str, seconds: int | None, what: str) -> int:
        """``seconds`` checked to lie in 1970..2100; else an error naming the commit."""
        if seconds is None or not MIN_UNIX <= seconds <= MAX_UNIX:
            shown = "a date git cannot print" if seconds is None else f"{seconds} s"
            raise source_error(
                f"{self.repo.name}: commit {commit}",
                f"its {what} ({shown}) is outside 1970-01-01..2100-12-31, the times openloop "
                "represents",
            )
        return seconds

    def _recorded(self, commit: _Commit) -> str:
        committed = self._seconds(commit.hash, commit.committed, "committer date")
        merge = self.order.merged_by.get(commit.hash)
        if merge is not None:
            committed = max(committed, self._seconds(merge[0], merge[1], "committer date"))
        # a commit is never learned before the commits main learned ahead of it (clock skew)
        self.learned = max(self.learned, committed)
        return format_time(self.learned)

    def event(self, seq: int, commit: _Commit, changes: list[Any] | None) -> dict[str, Any]:
        boundary = commit.hash in self.order.boundary
        event: dict[str, Any] = {
            "id": f"commit-{commit.hash[:12]}",
            "channel": self.options.channel,
            "seq": seq,
            "at": format_time(self._seconds(commit.hash, commit.at, "author date")),
            "recorded": self._recorded(commit),
            "by": key_path(commit.email) or None,
            "kind": _kind(commit),
            "text": commit.message.rstrip("\n"),
            "files": [] if boundary else commit.files,
        }
        if changes is not None:
            sets, notes = self.tracker.sets(changes)
            if sets and not boundary:  # a boundary's patch only tells the tracker what is there
                event["set"] = sets
                if notes:
                    event["notes"] = notes
        markers = trailer_markers(commit.trailers)
        if changes is not None and not boundary and self.tracker.opened_issues:
            # the code now says issue N is pending here: TODO(#N) (rules/standpoint/todo_issues.lp)
            tied = [f"{self.options.issue_prefix}{n}" for n in self.tracker.opened_issues.values()]
            pending = [*markers.get("reports_pending", []), *tied]
            markers["reports_pending"] = list(dict.fromkeys(pending))
        for name, ids in self.landing.markers.get(commit.hash, {}).items():  # a squash, a pick
            markers[name] = list(dict.fromkeys([*markers.get(name, []), *ids]))
        closing = closing_references(commit.message, self.options.issue_prefix)
        completes = list(dict.fromkeys([*markers.get("completes", []), *closing]))
        reopens = markers.get("reopens", [])
        for reverted in reverted_commits(commit.message):
            undone, redone = self._closings_of(reverted)
            reopens = list(dict.fromkeys([*reopens, *(i for i in undone if i not in completes)]))
            completes = list(dict.fromkeys([*completes, *redone]))
        for name, value in (("completes", completes), ("reopens", reopens)):
            if value:
                markers[name] = value
            else:
                markers.pop(name, None)
        if completes or reopens:
            self.closings[commit.hash] = (completes, reopens)
        event.update(markers)
        return event

    def _closings_of(self, reverted: str) -> tuple[list[str], list[str]]:
        """What the reverted commit completed and reopened (none if it is not known)."""
        if len(reverted) >= 40:
            return self.closings.get(reverted, ([], []))
        found = [value for full, value in self.closings.items() if full.startswith(reverted)]
        return found[0] if len(found) == 1 else ([], [])


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
