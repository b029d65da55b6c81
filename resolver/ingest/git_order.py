"""The order in which REV's first-parent line learned of each commit (SPEC §6.1, ``seq``).

Main learns of commits one first-parent commit at a time, oldest first: a plain commit brings only
itself, a merge brings every commit reachable from its other parents that main did not know yet
(in topological order), then itself. Numbering commits in that order makes what main knew at any
moment a prefix of the numbers, so a branch merged late leaves no hole before it; numbering them
in plain topological order would (and the gap rule would then make everything opened before that
hole ``UNKNOWN``).

One streaming ``git rev-list --topo-order --parents --timestamp`` (newest first) is enough:
children come before their parents, so the oldest first-parent commit that contains each commit
(its *group*) is passed from child to parent, holding only the frontier. A stable sort by group,
oldest first, of the reversed listing is then the learned order: the reversed listing is
topological, and a stable sort keeps that order within a group. Memory is one small record per
commit (the hashes are needed anyway, to ask ``git log`` for the commits in this order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from resolver.ingest.gitrun import Repository

__all__ = ["LearnedOrder", "learned_order", "shallow_boundary"]


@dataclass
class LearnedOrder:
    """Every commit reachable from the tip, in the order its first-parent line learned of it."""

    #: Full hashes, oldest learned first (``seq`` = position + 1).
    hashes: list[str] = field(default_factory=list)
    #: The first-parent line (the tip's first-parent ancestry), as a set.
    mainline: set[str] = field(default_factory=set)
    #: For a commit that reached the tip through a merge: that first-parent commit's hash and
    #: committer date (epoch seconds, as ``rev-list --timestamp`` prints it).
    merged_by: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: Commits whose parents a shallow clone does not hold (its boundary).
    boundary: set[str] = field(default_factory=set)


def learned_order(
    repo: Repository, head: str, shallow: frozenset[str] = frozenset()
) -> LearnedOrder:
    """The learned order of every commit reachable from ``head`` (see the module docstring).

    ``shallow`` names a shallow clone's boundary commits (listed by git without parents).
    """
    frontier: dict[str, int] = {}  # hash -> group (distance of its oldest mainline descendant)
    rows: list[tuple[int, str]] = []  # (group, hash), newest first
    mainline_hash: list[tuple[str, int]] = []  # (hash, committer date) by distance from head
    order = LearnedOrder()
    expected: str | None = head
    with repo.stream("rev-list", "--topo-order", "--parents", "--timestamp", head) as stream:
        for line in stream:
            stamp, commit, *parents = line.decode("ascii").split()
            if commit == expected:
                group = len(mainline_hash)
                mainline_hash.append((commit, int(stamp)))
                order.mainline.add(commit)
                expected = parents[0] if parents else None
                frontier.pop(commit, None)
            else:
                group = frontier.pop(commit, len(mainline_hash) - 1)
                order.merged_by[commit] = mainline_hash[group]
            if not parents and commit in shallow:
                order.boundary.add(commit)
            rows.append((group, commit))
            for parent in parents:
                known = frontier.get(parent)
                if known is None or group > known:
                    frontier[parent] = group
    # oldest group first; within a group, the reversed (parents-first) topological listing
    order.hashes = [commit for _, commit in sorted(reversed(rows), key=_older_group)]
    return order


def _older_group(row: tuple[int, str]) -> int:
    return -row[0]


def shallow_boundary(repo: Repository) -> frozenset[str] | None:
    """The boundary commits of a shallow clone, or None when the repository is complete."""
    done = repo.run("rev-parse", "--is-shallow-repository")
    if done.stdout.strip() != "true":
        return None
    path = repo.run("rev-parse", "--git-path", "shallow").stdout.strip()
    file = Path(path) if Path(path).is_absolute() else Path(repo.name) / path
    try:
        text = file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return frozenset()
    return frozenset(text.split())
