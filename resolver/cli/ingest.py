"""``openloop ingest git|github|junit``: turn the history a project already has into events.

Each importer writes ordinary JSON-lines events (SPEC §6): to stdout, to ``-o FILE`` (streamed into
a temporary file renamed into place only on success, so bad input leaves nothing written), or with
``--append FILE`` only the events FILE does not hold yet, under the same lock as ``record``.
Every file written (``-o``, ``--ol``) goes through the one output path of ``status -o``
(:mod:`resolver.output`), and every target is checked before anything is read or written.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable
from typing import Any

from resolver import inputs
from resolver.cli import ingest_trackers
from resolver.ingest import writer
from resolver.ingest.git import GitOptions, commit_events
from resolver.ingest.github import read_github
from resolver.ingest.gitrun import Repository
from resolver.ingest.junit import read_junit
from resolver.ingest.record import append_lines
from resolver.output import check_append_target, check_target, target_error


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``ingest`` subcommand and its three sources."""
    parser = subparsers.add_parser(
        "ingest",
        help="import git, GitHub, JUnit or a tracker (beads, Task Master, Backlog.md) as events",
        description="Import the history a project already has as JSON-lines events: commits "
        "(with trailers, closing keywords and the TODO lifecycle), GitHub issues and pull "
        "requests, and CI test results. Re-running over the same source writes the same events "
        "with the same ids.",
    )
    sources = parser.add_subparsers(dest="source", metavar="SOURCE")
    sources.required = True

    git = sources.add_parser(
        "git",
        help="one event per commit reachable from REV",
        description="One event per commit reachable from REV, in the order REV's first-parent "
        "line learned of them: id commit-HASH12, seq = position in that order, at = author "
        "date, recorded = committer date (or the "
        "merge's, for a commit that reached REV through a merge), by = author e-mail after "
        ".mailmap, kind merge|revert|commit, files changed, trailers (Completes:, Cancels:, "
        "Supersedes:, Waives:, Reopens:, Claims-Complete:, Reports-Pending:) as markers and "
        "closing keywords (fixes #12) as completes issue-12.",
        epilog="example: openloop ingest git . --todos -o commits.jsonl",
    )
    git.add_argument("repo", nargs="?", default=".", metavar="REPO", help="repository (default: .)")
    git.add_argument("--rev", default="HEAD", metavar="REV", help="tip to import (default: HEAD)")
    git.add_argument(
        "--channel", default="commits", metavar="C", help="channel of the events (default: commits)"
    )
    git.add_argument(
        "--todos",
        action="store_true",
        help='track TODO/FIXME/XXX/HACK comments: set todo.PATH:H = "open" | "removed" | '
        '"file_deleted" (reads every patch: slower)',
    )
    git.add_argument(
        "--allow-shallow",
        action="store_true",
        help="import a shallow clone (warned on stderr; its boundary commits list no files)",
    )
    git.add_argument(
        "--landed-from",
        action="append",
        metavar="REF",
        help="where to find branch commits whose change landed on REV by squash or cherry-pick "
        "(same patch-id): the landing commit carries their closing references (repeatable; "
        "default: every local and remote-tracking branch)",
    )
    git.add_argument(
        "--no-landed",
        action="store_true",
        help="read only REV's own messages (no patch-id matching of branch commits)",
    )
    _add_issue_prefix(git, "prefix of the ids closing keywords complete")
    _add_destination(git)
    git.set_defaults(func=run_git)

    github = sources.add_parser(
        "github",
        help="issues and pull requests from gh's JSON",
        description="Read the JSON that `gh issue list --state all --json number,title,body,"
        "state,stateReason,createdAt,closedAt,author,labels,url` or `gh pr list --state all "
        "--json number,title,body,state,createdAt,closedAt,mergedAt,author,mergeCommit,"
        "closingIssuesReferences` prints (either shape, or both). Issues become issue-N-opened "
        "and issue-N-closed events (completes, cancels or supersedes by stateReason); merged "
        'pull requests become pr-N-merged (set pr.N = "merged", completes each closing issue).',
        epilog="example: gh issue list --state all --json number,title,body,state,stateReason,"
        "createdAt,closedAt,author,labels,url > issues.json && openloop ingest github "
        "issues.json --ol issues.ol -o issues.jsonl",
    )
    github.add_argument("files", nargs="+", metavar="FILE.json", help="gh --json output")
    github.add_argument(
        "--ol", metavar="FILE", help="also write one expectation issue-N per issue to FILE"
    )
    _add_issue_prefix(github, "id prefix of issues")
    _add_destination(github)
    github.set_defaults(func=run_github)

    junit = sources.add_parser(
        "junit",
        help="test suite runs from a JUnit XML report",
        description="One event per test suite run (channel ci, kind test_run) setting PREFIX.SUITE "
        '= "passed" or "failed": state-tier evidence that the tests passed. Parsed with '
        "defusedxml: entity declarations are refused, never expanded.",
        epilog="example: openloop ingest junit report.xml --key tests --append ci.jsonl",
    )
    junit.add_argument("file", metavar="FILE.xml", help="a JUnit XML report")
    junit.add_argument(
        "--key", default="tests", metavar="PREFIX", help="prefix of the set key (default: tests)"
    )
    junit.add_argument("--channel", default="ci", metavar="C", help="channel (default: ci)")
    junit.add_argument(
        "--at", metavar="T", help="time of the run for suites without a timestamp attribute"
    )
    _add_destination(junit)
    junit.set_defaults(func=run_junit)

    ingest_trackers.register(sources, _add_destination, _deliver)
    for source in sources.choices.values():  # every importer, trackers included
        source.set_defaults(func=_guarded(source.get_default("func")))


def _add_issue_prefix(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--issue-prefix", default="issue-", metavar="P", help=f"{what} (default: issue-)"
    )


def _add_destination(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "-o", "--output", metavar="FILE", help="write the whole log to FILE (atomically)"
    )
    where.add_argument(
        "--append",
        metavar="FILE",
        help="add to FILE only the events it does not hold yet (locked, like record)",
    )


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run`` after :func:`check_destinations`: nothing is read into a file or written before
    every file this import would write is known to be writable and none is one of its inputs."""

    def guarded(args: argparse.Namespace) -> int:
        check_destinations(args)
        return run(args)

    return guarded


def check_destinations(args: argparse.Namespace) -> None:
    """Note the import's input files (``ingest junit r.xml -o r.xml`` must not replace its own
    report) and refuse, before any work, a ``-o``, ``--ol`` or ``--append`` target the one output
    path would refuse, or one file named twice."""
    named = getattr(args, "files", None) or [getattr(args, "file", None)]
    for source in named:
        if isinstance(source, str):
            inputs.note(source)
    targets = []
    for option, flag in (("output", "-o"), ("ol", "--ol"), ("append", "--append")):
        target = getattr(args, option, None)
        if not isinstance(target, str) or target == "-":
            continue
        if option == "append":
            check_append_target(target)
        else:
            check_target(target)
            source = inputs.read_as(target)
            if source is not None:
                raise target_error(target, f"refusing to overwrite the input file '{source}'")
        same = next((t for t in targets if _same_file(t[1], target)), None)
        if same is not None:
            raise target_error(target, f"named by both {same[0]} and {flag}; give two files")
        targets.append((flag, target))


def _same_file(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _deliver(args: argparse.Namespace, events: Iterable[dict[str, Any]]) -> None:
    if args.append:
        append_lines(args.append, events, skip_existing=True)
        return
    with writer.output(args.output) as stream:
        for event in events:
            stream.write(writer.dumps(event) + "\n")


def run_git(args: argparse.Namespace) -> int:
    """Import the commits."""
    repo = Repository(args.repo)
    options = GitOptions(
        rev=args.rev,
        channel=args.channel,
        todos=args.todos,
        issue_prefix=args.issue_prefix,
        progress=True,
        allow_shallow=args.allow_shallow,
        landed_from=() if args.no_landed else _refs(args.landed_from),
    )
    repo.resolve(args.rev)  # a bad REV is reported before any output is opened
    _deliver(args, commit_events(repo, options))
    return 0


def _refs(refs: list[str] | None) -> tuple[str, ...] | None:
    return None if refs is None else tuple(refs)


def run_github(args: argparse.Namespace) -> int:
    """Import issues and pull requests."""
    imported = read_github(args.files, args.issue_prefix, note_bots=not args.ol)
    if args.ol:
        with writer.output(args.ol) as stream:
            stream.write(imported.declarations())
    _deliver(args, imported.events)
    return 0


def run_junit(args: argparse.Namespace) -> int:
    """Import test suite runs."""
    _deliver(args, read_junit(args.file, args.key, args.channel, args.at))
    return 0
