"""Landed, not submitted: a branch's closing references count when its change lands on REV.

A squash merge or a cherry-pick puts a branch's change on REV as a new commit whose message often
says only the pull request's title; the branch commit that said ``Fixes #12`` never reaches REV.
Counting closes "on submit" (any commit that says ``Fixes``) is wrong, and counting only REV's own
messages misses every squash. The change itself is what lands, and git names a change by its
*patch identity* (``git patch-id --stable``: the diff, line numbers and whitespace ignored).

So, for the commits of ``--landed-from`` refs (default every local and remote-tracking branch) that
REV does not reach, and that carry markers (closing keywords or trailers):

- a *cherry-pick*: a REV commit with the same patch-id as such a commit carries its markers;
- a *squash*: a REV commit with the same patch-id as a branch's combined diff (merge-base..tip)
  carries the markers of every commit of that branch that REV does not reach.

A commit that never reached REV, by ancestry or by patch, closes nothing: it is simply not
imported. The markers carried are the branch author's words, moved to the commit that landed
them, so the rules grade them as that commit's own (``explicit`` from a person, ``textual`` from
an agent); Python only matches patches, it decides no verdict.

Work is bounded and done in bulk: one ``git log`` reads every off-REV commit's message; nothing
more runs unless some of them carry markers; then three ``git diff-tree``/``git log`` patch
streams are each piped through one ``git patch-id --stable`` (never a process per commit), plus
one ``git merge-base`` per branch that carries markers. REV's side is read only from the oldest
such branch's fork point on (a change cannot land before its branch existed).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from resolver.ingest.gitrun import Repository, nul_tokens
from resolver.ingest.messages import closing_references, trailer_markers

__all__ = ["Landing", "landed_markers"]

_FORMAT = "%H%x00%P%x00%(trailers:only,unfold,separator=%x1f)%x00%B"
#: The same diff options on both sides, so equal changes give equal patch-ids whatever the
#: user's configuration (renames off: ``diff.renames`` applies to ``log`` but not ``diff-tree``).
_DIFF = ("-p", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--full-index",
         "--binary", "--src-prefix=a/", "--dst-prefix=b/")  # fmt: skip


@dataclass
class Landing:
    """What each REV commit carries from the branch commits whose change it landed."""

    #: REV commit hash -> marker field -> ids, in order, unique.
    markers: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: REV commit hash -> the off-REV commits whose markers it carries.
    sources: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _OffCommit:
    parents: list[str]
    markers: dict[str, list[str]]


def landed_markers(
    repo: Repository, head: str, refs: tuple[str, ...] | None, issue_prefix: str
) -> Landing:
    """The markers REV's commits carry from branches whose change they landed (see above).

    ``refs`` are the revisions to look for unlanded work in; None means every local and
    remote-tracking branch.
    """
    tips = _tips(repo, refs)
    off = _off_commits(repo, head, tips, issue_prefix)
    if not any(commit.markers for commit in off.values()):
        return Landing()
    branches: dict[str, list[str]] = {}  # tip -> its off-REV commits that carry markers
    newest = {commit: place for place, commit in enumerate(off)}  # git log lists newest first
    for tip in dict.fromkeys(tips):
        if tip in off:
            reached = sorted(_reachable(tip, off), key=newest.__getitem__, reverse=True)
            marked = [c for c in reached if off[c].markers]  # oldest first
            if marked:
                branches[tip] = marked
    bases = {tip: base for tip in branches if (base := _merge_base(repo, head, tip))}
    picks = [c for c, commit in off.items() if commit.markers and len(commit.parents) == 1]
    by_patch: dict[str, list[str]] = {}
    for commit, patch in _patch_ids(repo, "diff-tree", [f"{c}\n" for c in picks]):
        by_patch.setdefault(patch, []).append(commit)
    lines = [f"{tip} {base}\n" for tip, base in bases.items()]
    for tip, patch in _patch_ids(repo, "diff-tree", lines):
        by_patch.setdefault(patch, []).extend(branches[tip])
    if not by_patch:
        return Landing()
    landing = Landing()
    for commit, patch in _patch_ids(repo, "log", _rev_range(repo, head, list(bases.values()))):
        sources = by_patch.get(patch)
        if not sources:
            continue
        sources = list(dict.fromkeys(sources))
        landing.sources[commit] = sources
        carried = landing.markers.setdefault(commit, {})
        for source in sources:
            for name, ids in off[source].markers.items():
                carried[name] = list(dict.fromkeys([*carried.get(name, []), *ids]))
    return landing


def _tips(repo: Repository, refs: tuple[str, ...] | None) -> list[str]:
    """The commits the refs name (every branch, local and remote-tracking, when None)."""
    if refs is not None:
        return [repo.resolve(ref) for ref in refs]
    done = repo.run(
        "for-each-ref", "--format=%(objectname) %(objecttype)", "refs/heads", "refs/remotes"
    )
    return [
        name for name, _, kind in (line.partition(" ") for line in done.stdout.splitlines())
        if kind == "commit"
    ]  # fmt: skip


def _off_commits(
    repo: Repository, head: str, tips: list[str], prefix: str
) -> dict[str, _OffCommit]:
    """Every commit the tips reach and ``head`` does not, with the markers its message holds."""
    if not tips:
        return {}
    off: dict[str, _OffCommit] = {}
    with contextlib.ExitStack() as stack:
        wanted = stack.enter_context(tempfile.TemporaryFile())
        wanted.write("".join(f"{tip}\n" for tip in dict.fromkeys(tips)).encode("ascii"))
        wanted.write(f"^{head}\n".encode("ascii"))
        wanted.seek(0)
        log = ("log", "-z", "--topo-order", "--stdin", "--no-color", f"--format={_FORMAT}")
        tokens = nul_tokens(stack.enter_context(repo.stream(*log, stdin=wanted)))
        while (raw := next(tokens, None)) is not None:
            rest = [next(tokens, b"") for _ in range(3)]
            parents, trailers, message = (part.decode("utf-8", "replace") for part in rest)
            markers = trailer_markers(trailers)
            closing = closing_references(message, prefix)
            if closing:
                markers["completes"] = list(
                    dict.fromkeys([*markers.get("completes", []), *closing])
                )
            off[raw.decode("ascii").strip()] = _OffCommit(parents.split(), markers)
    return off


def _reachable(tip: str, off: dict[str, _OffCommit]) -> list[str]:
    """The off-REV commits ``tip`` reaches (the branch's own, unlanded work)."""
    seen: dict[str, None] = {}
    todo = [tip]
    while todo:
        commit = todo.pop()
        if commit in seen or commit not in off:
            continue
        seen[commit] = None
        todo.extend(off[commit].parents)
    return list(seen)


def _merge_base(repo: Repository, head: str, tip: str) -> str | None:
    done = repo.run("merge-base", head, tip, check=False)
    return done.stdout.strip() or None


def _rev_range(repo: Repository, head: str, bases: list[str]) -> list[str]:
    """``git log`` arguments for REV's commits since the oldest fork point of the branches."""
    if not bases:
        return [head]
    root = bases[0]
    if len(set(bases)) > 1:
        done = repo.run("merge-base", "--octopus", *dict.fromkeys(bases), check=False)
        root = done.stdout.strip()
        if not root:
            return [head]
    return [head, f"^{root}"]


def _patch_ids(repo: Repository, command: str, lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(commit, patch-id) for each patch of ``git diff-tree --stdin`` (``lines``: ``C`` for a
    commit against its parent, ``TIP BASE`` for BASE..TIP) or of ``git log REV ^BASE``."""
    lines = list(lines)
    if not lines:
        return
    with contextlib.ExitStack() as stack:
        if command == "diff-tree":
            given = stack.enter_context(tempfile.TemporaryFile())
            given.write("".join(lines).encode("ascii"))
            given.seek(0)
            args: tuple[str, ...] = ("diff-tree", "--stdin", "-r", "--root", *_DIFF)
            patches = stack.enter_context(repo.stream(*args, stdin=given))
        else:
            args = ("log", "--no-merges", "--format=commit %H", *_DIFF, "--end-of-options", *lines)
            patches = stack.enter_context(repo.stream(*args))
        ids = stack.enter_context(repo.stream("patch-id", "--stable", stdin=patches))
        for line in ids:
            patch, _, commit = line.decode("ascii").strip().partition(" ")
            yield commit, patch
