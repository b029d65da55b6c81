"""Closing keywords as GitHub documents them, reverts, and trailers by git's rules (SPEC §6.1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.ingest.messages import closing_references, reverted_commits


@pytest.mark.parametrize(
    ("message", "closes"),
    [
        ("Fix #12", ["issue-12"]),
        ("fixes: #12", ["issue-12"]),
        ("This CLOSES #7 and resolved #8.", ["issue-7", "issue-8"]),
        ("Closed octo-org/octo-repo#100", ["issue-100"]),
        ("fixed GH-26", ["issue-26"]),
        ("Fixes https://github.com/o/r/issues/31", ["issue-31"]),
        ("resolves: <https://www.github.com/o/r.js/issues/32>", ["issue-32"]),
        ("Resolves #10, resolves #123", ["issue-10", "issue-123"]),
        ("Fixes #5\n\nfixes #5 again", ["issue-5"]),
        # not a closing reference
        ("Fixes https://github.com/o/r/pull/33", []),  # a pull request is no issue
        ("See #12", []),
        ("prefix #12", []),
        ("hotfix #12", []),
        ("fix-up #12", []),
        ("Fixes #0", []),
        ("Fixes #12abc", []),
        ("Fixes issue 12", []),
        # a revert's quoted subject restates the reverted commit: it closes nothing
        ('Revert "Fix #3013"\n\nThis reverts commit 0123456789abcdef.', []),
        ('Revert "Revert "Fix #3013""', []),
        ('Reapply "Fix #3013"', []),
        ('Revert "WIP #3013" (#3020)\n\nIt broke the build; fixes #3021.', ["issue-3021"]),
        ('Merge pull request #20 from o/revert-3\n\nRevert "Fix #3"', []),
        (
            'Undo two (#21)\n\n* Revert "Fix #3"\n\nThis reverts commit 1234567.\n\n'
            '- Revert "Fix #4"',
            [],
        ),
        ('Fix #5\n\nReverting "Fix #6" was wrong', ["issue-5", "issue-6"]),
    ],
)
def test_closing_references(message: str, closes: list[str]) -> None:
    assert closing_references(message, "issue-") == closes


def test_reverted_commits() -> None:
    message = 'Revert "x"\n\nThis reverts commit 89ABCDEF0123456789abcdef0123456789abcdef.\n'
    assert reverted_commits(message) == ["89abcdef0123456789abcdef0123456789abcdef"]
    assert reverted_commits("This reverts commit 1234567, and 1234.") == ["1234567"]


def ingest(repo, tmp_path: Path) -> dict[str, dict]:
    out = tmp_path / "c.jsonl"
    assert main(["ingest", "git", str(repo.path), "-o", str(out)]) == 0
    return {e["id"]: e for e in map(json.loads, out.read_text().splitlines())}


def test_reverts_reopen_what_they_undo_and_a_revert_of_a_revert_closes_again(
    git_repo, tmp_path: Path
) -> None:
    fix = git_repo.commit(
        "Fix the parser crash\n\nFixes #3013.\n\nCompletes: intent-9\n", {"p.py": "1\n"}
    )
    wip = git_repo.commit("WIP #3014", {"p.py": "2\n"}, date="2024-01-02T10:00:00Z")
    undo_wip = git_repo.revert(wip, "2024-01-03T10:00:00Z")
    undo = git_repo.revert(fix, "2024-01-04T10:00:00Z")
    redo = git_repo.revert(undo, "2024-01-05T10:00:00Z")
    short = git_repo.commit(  # a hand-written revert naming an abbreviated hash
        f'Revert "Fix the parser crash"\n\nThis reverts commit {fix[:9]}.\n', {"p.py": "3\n"},
        date="2024-01-06T10:00:00Z",
    )  # fmt: skip
    events = ingest(git_repo, tmp_path)

    def markers(commit: str) -> tuple[list[str], list[str]]:
        event = events[f"commit-{commit[:12]}"]
        return event.get("completes", []), event.get("reopens", [])

    assert markers(fix) == (["intent-9", "issue-3013"], [])
    assert markers(wip) == ([], [])
    assert markers(undo_wip) == ([], [])  # the reverted commit closed nothing: nor does this
    assert markers(undo) == ([], ["intent-9", "issue-3013"])
    assert markers(redo) == (["intent-9", "issue-3013"], [])  # a revert of a revert
    assert markers(short) == ([], ["intent-9", "issue-3013"])


def test_a_revert_reopens_the_issue_it_undid(git_repo, tmp_path: Path, capsys) -> None:
    git_repo.commit("Fix the parser crash\n\nFixes #3013.\n", {"p.py": "1\n"})
    fix = git_repo.git("rev-parse", "HEAD")
    git_repo.revert(fix, "2024-01-04T10:00:00Z")
    folder = tmp_path / "history"
    folder.mkdir()
    ingest(git_repo, folder)
    (folder / "issues.ol").write_text(
        "channel commits work\n"
        'expectation issue-3013 { title "The parser crashes on empty input" opened 2023-12-01 }\n',
        encoding="utf-8",
    )

    def verdict(at: str) -> dict:
        capsys.readouterr()
        assert main(["status", str(folder), "--at", at, "--format", "json"]) == 0
        (found,) = json.loads(capsys.readouterr().out)["expectations"]
        return found

    assert verdict("2024-01-02")["status"] == "SATISFIED"
    after = verdict("2024-01-05")
    assert after["status"] == "OPEN" and "reopened" in after["flags"]


def test_trailers_are_the_last_paragraph_by_gits_rules(git_repo, tmp_path: Path) -> None:
    only_subject = git_repo.commit("Cancels: plan-a", {"a": "1\n"})
    not_last = git_repo.commit(
        "Tidy\n\nCancels: plan-b\n\nCancels: plan-c\nthis line is no trailer\n", {"a": "2\n"}
    )
    last = git_repo.commit(
        "Tidy\n\nSome words.\n\nCancels: plan-d\nSigned-off-by: A <a@example.com>\n",
        {"a": "3\n"},
    )
    events = ingest(git_repo, tmp_path)
    assert "cancels" not in events[f"commit-{only_subject[:12]}"]  # a subject is no trailer
    assert "cancels" not in events[f"commit-{not_last[:12]}"]
    assert events[f"commit-{last[:12]}"]["cancels"] == ["plan-d"]
