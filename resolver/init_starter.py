"""The starter ``.ol`` that ``openloop init`` writes: a first run that shows something true.

Before anyone declares an expectation, ``ingest`` then ``status`` said "no expectations
declared" and ``check`` passed on nothing (issue 27.4). The starter declares what any repository
already owes, so that ``init``, ``ingest git --todos``, ``status`` on any repository show its
TODO debt with nothing written by hand:

- the channel ``commits`` as a system of record (``work authoritative``): the repository as the
  importer reads it is what happened, whoever authored a commit (SPEC §3);
- bot authors as agents (``actor "PATTERN" agent``): their word is a claim, never evidence;
- the TODO-debt policy of SPEC §6.1, titled by the comment's own words (``$note``);
- one expectation per issue: from an ``ingest github`` export when one is given (opened by its
  ``issue-N-opened`` event, titled as on GitHub), else one per issue the history closes with a
  keyword (``fixes #12``), opened one second before the first commit that closes it (the issue
  existed by then; the history says nothing earlier about it), so that a revert of the fix
  reopens it and ``status`` shows it owed again.

Nothing here judges anything: the closing references are the importer's ``completes`` markers,
read from the same events ``ingest git`` writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from resolver.ingest.git import GitOptions, commit_events
from resolver.ingest.github import read_github
from resolver.ingest.gitrun import Repository

#: Author e-mail patterns of bots, each with what it catches. The first covers every GitHub App
#: (dependabot, pre-commit-ci, renovate, github-actions: 200 of 3,329 commits of click).
BOT_PATTERNS = (
    ("*[bot]@users.noreply.github.com", "GitHub Apps: dependabot, pre-commit-ci, renovate, ..."),
    ("action@github.com", "the identity workflows commit under with actions/checkout's example"),
    ("bot@renovateapp.com", "Renovate before it was a GitHub App"),
)

POLICY = """\
# Self-admitted technical debt (SPEC 6.1, `ingest git --todos`): each TODO, FIXME, XXX or HACK
# comment added owes its removal; one deleted with its file is superseded, not resolved; a revert
# that re-adds an old TODO reopens it instead of owing it anew.
policy todo-removed {
  title "$note"
  when set todo.* = "open"
  when not kind revert
  want $key = "removed"
  superseded_when $key = "file_deleted"
  verify state
}
"""


@dataclass
class Starter:
    """The starter's text and what it holds, for the summary ``init`` prints."""

    text: str
    issues: list[str] = field(default_factory=list)
    issues_from: str = ""
    channels: list[str] = field(default_factory=list)


def referenced_issues(repo: Repository, rev: str, prefix: str) -> dict[str, str]:
    """Issue id → the earliest author time (ISO, UTC) of a commit that closes it by keyword."""
    pattern = re.compile(re.escape(prefix) + r"[0-9]+")
    options = GitOptions(rev=rev, issue_prefix=prefix, allow_shallow=True)
    first: dict[str, str] = {}
    for event in commit_events(repo, options):
        for ident in event.get("completes") or ():
            if pattern.fullmatch(ident) and (ident not in first or event["at"] < first[ident]):
                first[ident] = event["at"]
    return first


def _before(at: str) -> str:
    """One second before an importer time (``2024-08-27T10:00:00Z``)."""
    moment = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ") - timedelta(seconds=1)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _natural(ident: str) -> tuple:
    digits = re.search(r"[0-9]+$", ident)
    return (int(digits.group()) if digits else -1, ident)


def build(
    repo: Repository | None,
    rev: str = "HEAD",
    github: list[str] | None = None,
    prefix: str = "issue-",
) -> Starter:
    """The starter for ``repo`` (issues from its closing references) or from ``github``."""
    starter = Starter(text="", channels=["commits"])
    out = [
        "# openloop starter, written by `openloop init`: edit freely, it is yours now.",
        "# Next: `openloop ingest git REPO --todos -o history/commits.jsonl`, then",
        "# `openloop status openloop.ol history/` (or `check` as a CI gate).",
        "",
        "# The repository as `ingest git` reads it is a system of record (SPEC 3): its",
        "# commits' trailers, closing keywords and TODO changes count by what they record.",
        "channel commits work authoritative",
    ]
    if github:
        starter.channels += ["issues", "pulls"]
        out += [
            "# GitHub's issues and pull requests (`ingest github`) are systems of record too.",
            "channel issues work authoritative",
            "channel pulls work authoritative",
        ]
    out += [
        "",
        "# Bots act; they never decide: what an agent says it did is a claim, not evidence.",
    ]
    actors = [(f'actor "{pattern}" agent', why) for pattern, why in BOT_PATTERNS]
    width = max(len(line) for line, _ in actors)
    out.extend(f"{line:<{width}}  # {why}" for line, why in actors)
    out += ["", POLICY.rstrip("\n")]
    if github:
        imported = read_github(github, prefix)
        starter.issues = [ident for ident, _, _ in imported.expectations]
        starter.issues_from = "the GitHub export"
        out += ["", imported.declarations().rstrip("\n")]
    elif repo is not None:
        first = referenced_issues(repo, rev, prefix)
        starter.issues = sorted(first, key=_natural)
        starter.issues_from = "closing keywords in the history"
        if first:
            out += [
                "",
                "# Issues the history closes with a keyword (`fixes #12`): each owes its fix.",
                "# Opened one second before the first commit that closes it; a revert of that",
                "# commit reopens it. `openloop init --github issues.json` gives real titles.",
            ]
            for ident in starter.issues:
                number = ident[len(prefix) :]
                opened = _before(first[ident])
                out.append(f'expectation {ident} {{ title "Issue #{number}"  opened {opened} }}')
    starter.text = "\n".join(out) + "\n"
    return starter
