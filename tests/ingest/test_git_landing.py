"""Landed, not submitted: a squash or a cherry-pick of a branch's fix counts where it lands on REV;
a fix that never reached REV closes nothing (issue 30 item 2, docs/guide/ingest.md)."""

from __future__ import annotations

import json
from pathlib import Path

from resolver.cli.main import main

DECLARATIONS = """
channel commits work
expectation issue-12 { title "Crash on an empty grammar" opened 2023-12-01 }
expectation issue-14 { title "Wrong line numbers in errors" opened 2023-12-01 }
expectation issue-15 { title "Slow lexer on long inputs" opened 2023-12-01 }
"""


def _day(day: int, hour: int = 10) -> str:
    return f"2024-01-{day:02d}T{hour:02d}:00:00+00:00"


def as_alice(repo, *args: str) -> None:
    """A git command that may write a commit (a squash, a pick) with a fixed identity."""
    repo.git(*args, env=repo.identity("Alice <alice@example.com>", _day(1), None, None))


def history(repo) -> dict[str, str]:
    """main with a squash-merged fix (#12), a cherry-picked one (#14), an unmerged one (#15)."""
    c: dict[str, str] = {}
    c["init"] = repo.commit("Initial", {"a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n"},
                            date=_day(1))  # fmt: skip
    repo.git("checkout", "-q", "-b", "fix-12")
    repo.commit("Guard the empty grammar\n\nFixes #12", {"a.py": "a = 2\n"}, date=_day(2))
    repo.commit("Test the guard", {"a_test.py": "assert True\n"}, date=_day(3))
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "fix-14")
    c["pick-source"] = repo.commit("Count lines from one\n\nfixes #14", {"b.py": "b = 2\n"},
                                   date=_day(4))  # fmt: skip
    repo.git("checkout", "-q", "main")
    repo.git("checkout", "-q", "-b", "fix-15")
    repo.commit("Faster lexer\n\nCloses #15", {"c.py": "c = 2\n"}, date=_day(5))
    repo.git("checkout", "-q", "main")
    c["other"] = repo.commit("Unrelated docs", {"README": "hello\n"}, date=_day(6))
    as_alice(repo, "merge", "-q", "--squash", "fix-12")
    c["squash"] = repo.commit("Guard the empty grammar (#13)", date=_day(8))
    as_alice(repo, "cherry-pick", "-n", c["pick-source"])
    c["pick"] = repo.commit("Backport the line count", date=_day(10))
    return c


def ingest(repo, tmp_path: Path, *flags: str) -> tuple[Path, list[dict]]:
    folder = tmp_path / "history"
    folder.mkdir(exist_ok=True)
    (folder / "issues.ol").write_text(DECLARATIONS, encoding="utf-8")
    out = folder / "commits.jsonl"
    assert main(["ingest", "git", str(repo.path), *flags, "-o", str(out)]) == 0
    return folder, [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def status(folder: Path, capsys, *standpoint: str) -> dict[str, dict]:
    capsys.readouterr()
    assert main(["status", str(folder), *standpoint, "--all", "--format", "json"]) == 0
    return {e["id"]: e for e in json.loads(capsys.readouterr().out)["expectations"]}


def ident(full: str) -> str:
    return f"commit-{full[:12]}"


def test_a_squash_and_a_cherry_pick_land_an_unmerged_fix_does_not(
    git_repo, tmp_path, capsys
) -> None:
    c = history(git_repo)
    folder, events = ingest(git_repo, tmp_path)
    by_id = {e["id"]: e for e in events}
    assert by_id[ident(c["squash"])]["completes"] == ["issue-12"]
    assert by_id[ident(c["pick"])]["completes"] == ["issue-14"]
    # only REV's commits are events: the branch commits that said "Fixes" are not imported
    assert len(events) == 4
    assert not any("issue-15" in e.get("completes", []) for e in events)

    now = status(folder, capsys)
    assert (now["issue-12"]["status"], now["issue-12"]["closed_by"]) == (
        "SATISFIED", ident(c["squash"]),
    )  # fmt: skip
    assert (now["issue-14"]["status"], now["issue-14"]["closed_by"]) == (
        "SATISFIED", ident(c["pick"]),
    )  # fmt: skip
    assert now["issue-15"]["status"] == "OPEN"
    # closed at the squash's time, not when the branch said "Fixes #12" (submitted is not landed)
    before = status(folder, capsys, "--at", "2024-01-07T12:00", "--known", "latest")
    assert before["issue-12"]["status"] == "OPEN"
    at_squash = status(folder, capsys, "--at", "2024-01-08T12:00")
    assert at_squash["issue-12"]["status"] == "SATISFIED"
    assert at_squash["issue-14"]["status"] == "OPEN"


def test_without_landing_the_squash_and_the_pick_close_nothing(git_repo, tmp_path) -> None:
    c = history(git_repo)
    _, events = ingest(git_repo, tmp_path, "--no-landed")
    assert not any(e.get("completes") for e in events)
    # only the named refs are searched: fix-14's pick lands, fix-12's squash is not looked for
    _, events = ingest(git_repo, tmp_path, "--landed-from", "fix-14")
    by_id = {e["id"]: e for e in events}
    assert by_id[ident(c["pick"])]["completes"] == ["issue-14"]
    assert "completes" not in by_id[ident(c["squash"])]


def test_a_remote_tracking_branch_is_searched_by_default(git_repo, tmp_path) -> None:
    c = history(git_repo)
    for branch in ("fix-12", "fix-14", "fix-15"):  # the branches only on the remote, as after a PR
        tip = git_repo.git("rev-parse", branch)
        git_repo.git("update-ref", f"refs/remotes/origin/{branch}", tip)
        git_repo.git("branch", "-q", "-D", branch)
    _, events = ingest(git_repo, tmp_path)
    by_id = {e["id"]: e for e in events}
    assert by_id[ident(c["squash"])]["completes"] == ["issue-12"]
    assert by_id[ident(c["pick"])]["completes"] == ["issue-14"]


def test_reverting_a_squash_reopens_what_it_landed(git_repo, tmp_path, capsys) -> None:
    c = history(git_repo)
    revert = git_repo.revert(c["squash"], _day(12))
    folder, events = ingest(git_repo, tmp_path)
    assert {e["id"]: e for e in events}[ident(revert)]["reopens"] == ["issue-12"]
    assert status(folder, capsys)["issue-12"]["status"] == "OPEN"


def test_a_different_change_with_the_same_title_does_not_land(git_repo, tmp_path) -> None:
    git_repo.commit("Initial", {"a.py": "a = 1\n"}, date=_day(1))
    git_repo.git("checkout", "-q", "-b", "fix")
    git_repo.commit("Guard it\n\nFixes #12", {"a.py": "a = 2\n"}, date=_day(2))
    git_repo.git("checkout", "-q", "main")
    git_repo.commit("Guard it", {"a.py": "a = 3\n"}, date=_day(3))  # another patch, same words
    _, events = ingest(git_repo, tmp_path)
    assert not any(e.get("completes") for e in events)


def test_an_unknown_landed_from_ref_is_an_input_error(git_repo, tmp_path, capsys) -> None:
    git_repo.commit("Initial", {"a.py": "a = 1\n"}, date=_day(1))
    out = tmp_path / "commits.jsonl"
    capsys.readouterr()
    code = main(["ingest", "git", str(git_repo.path), "--landed-from", "nope", "-o", str(out)])
    assert code == 2 and not out.exists()
    assert "error: revision 'nope' does not exist" in capsys.readouterr().err


def test_a_squash_of_a_branch_that_merged_main_in_lands_with_its_trailers(
    git_repo, tmp_path
) -> None:
    git_repo.commit("Initial", {"a.py": "a = 1\n", "b.py": "b = 1\n"}, date=_day(1))
    git_repo.git("checkout", "-q", "-b", "feature")
    git_repo.commit("Start the guard\n\nCompletes: intent-3", {"a.py": "a = 2\n"}, date=_day(2))
    git_repo.git("checkout", "-q", "main")
    git_repo.commit("Other work", {"b.py": "b = 2\n"}, date=_day(3))
    git_repo.git("checkout", "-q", "feature")
    git_repo.merge("main", "Merge main into feature", _day(4))
    git_repo.commit("Finish the guard, fixes #12", {"c.py": "c = 1\n"}, date=_day(5))
    git_repo.git("checkout", "-q", "main")
    as_alice(git_repo, "merge", "-q", "--squash", "feature")
    squash = git_repo.commit("The guard (#20)", date=_day(6))
    _, events = ingest(git_repo, tmp_path)
    event = {e["id"]: e for e in events}[ident(squash)]
    assert (event["completes"], event["by"]) == (["intent-3", "issue-12"], "alice@example.com")
