"""``openloop ingest git`` on real repositories: every event field, --todos, --append, bad input."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from ingest_history import build, h

from resolver.cli.main import main


def ingest(repo, *extra: str, out: Path | None = None) -> list[dict]:
    target = out or repo.path.parent / "commits.jsonl"
    assert main(["ingest", "git", str(repo.path), *extra, "-o", str(target)]) == 0
    return [json.loads(line) for line in target.read_text().splitlines()]


def test_every_event_field(git_repo) -> None:
    c = build(git_repo)
    events = {e["id"]: e for e in ingest(git_repo, "--todos")}
    ident = {name: f"commit-{full[:12]}" for name, full in c.items()}
    # the order main learned them: the feature branch arrives with its merge, after "hack"
    learned = ["start", "errors", "logging", "hack", "fixme", "rename", "merge", "delete", "revert"]
    assert list(events) == [ident[name] for name in learned]
    assert [e["seq"] for e in events.values()] == list(range(1, len(learned) + 1))
    assert {e["channel"] for e in events.values()} == {"commits"}

    start = events[ident["start"]]
    assert start == {
        "id": ident["start"], "channel": "commits", "seq": 1,
        "at": "2024-01-01T08:00:00Z", "recorded": "2024-01-01T08:00:00Z",
        "by": "alice@example.com", "kind": "commit", "text": "Start the project",
        "files": [".mailmap", "README.md", "src/a.py"],
        "set": {f"todo.src/a.py:{h('TODO: add logging')}": "open",
                f"todo.src/a.py:{h('TODO: handle errors')}": "open"},
        "notes": {f"todo.src/a.py:{h('TODO: add logging')}": "TODO src/a.py: add logging",
                  f"todo.src/a.py:{h('TODO: handle errors')}": "TODO src/a.py: handle errors"},
    }  # fmt: skip

    errors = events[ident["errors"]]
    assert errors["by"] == "bob@example.com"  # .mailmap, lower case
    assert (errors["at"], errors["recorded"]) == ("2024-01-02T17:00:00Z",) * 2
    assert errors["completes"] == ["intent-1", "intent-2", "issue-12", "issue-13"]
    assert "cancels" not in errors  # an ill-formed trailer changes nothing
    assert "Bogus-Key: nothing" in errors["text"]
    assert errors["set"] == {f"todo.src/a.py:{h('TODO: handle errors')}": "removed"}
    assert "notes" not in errors  # notes only for what an event opens

    logging = events[ident["logging"]]
    assert (logging["at"], logging["recorded"]) == ("2024-01-03T10:00:00Z", "2024-01-03T15:00:00Z")

    for name in ("fixme", "rename"):  # learned by main only when merged
        assert events[ident[name]]["recorded"] == "2024-01-08T10:00:00Z"
        assert "set" not in events[ident[name]]  # a side branch's TODOs land with its merge
    assert events[ident["fixme"]]["at"] == "2024-01-04T10:00:00Z"
    assert events[ident["rename"]]["files"] == ["lib/b.py", "lib/c.py"]

    hack = events[ident["hack"]]
    assert (hack["by"], hack["claims_complete"]) == ("bot@agents.example", ["task-x"])

    merge = events[ident["merge"]]
    assert (merge["kind"], merge["files"], merge["text"]) == (
        "merge", ["lib/c.py"], "Merge branch 'feature'",
    )  # fmt: skip
    fixme = f"todo.lib/c.py:{h('FIXME: later')}"  # main never had lib/b.py
    assert merge["set"] == {fixme: "open"}
    assert merge["notes"] == {fixme: "FIXME lib/c.py: later"}

    assert events[ident["delete"]]["set"] == {f"todo.old.py:{h('HACK: temporary')}": "file_deleted"}
    assert events[ident["delete"]]["files"] == ["old.py"]
    revert = events[ident["revert"]]
    assert revert["kind"] == "revert"
    assert revert["text"].startswith('Revert "Handle errors in a"')
    assert revert["set"] == {f"todo.src/a.py:{h('TODO: handle errors')}": "open"}
    # the revert undoes what the reverted commit closed: it reopens, and completes nothing
    assert revert["reopens"] == ["intent-1", "intent-2", "issue-12", "issue-13"]
    assert "completes" not in revert


def test_without_todos_no_sets_and_reruns_are_byte_identical(git_repo, tmp_path: Path) -> None:
    build(git_repo)
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    events = ingest(git_repo, out=first)
    ingest(git_repo, out=second)
    assert first.read_bytes() == second.read_bytes()
    assert not any("set" in e for e in events)


def test_append_adds_only_new_commits(git_repo, tmp_path: Path) -> None:
    git_repo.commit("one", {"a.txt": "1\n"})
    log = tmp_path / "log.jsonl"
    assert main(["ingest", "git", str(git_repo.path), "--append", str(log)]) == 0
    assert main(["ingest", "git", str(git_repo.path), "--append", str(log)]) == 0
    assert len(log.read_text().splitlines()) == 1
    git_repo.commit("two", {"a.txt": "2\n"}, date="2024-01-02T00:00:00Z")
    assert main(["ingest", "git", str(git_repo.path), "--append", str(log)]) == 0
    whole = tmp_path / "whole.jsonl"
    ingest(git_repo, out=whole)
    assert log.read_bytes() == whole.read_bytes()


def test_channel_rev_and_issue_prefix(git_repo) -> None:
    first = git_repo.commit("Resolves #7", {"a.txt": "1\n"})
    git_repo.commit("later", {"a.txt": "2\n"})
    events = ingest(git_repo, "--rev", first[:8], "--channel", "git", "--issue-prefix", "gh-")
    assert [(e["channel"], e["completes"]) for e in events] == [("git", ["gh-7"])]


def test_trailer_keys_are_case_insensitive_and_lists_split(git_repo) -> None:
    git_repo.commit(
        "Tidy\n\nsupersedes: old-plan\nWAIVES: a, b\nReports-Pending: deploy\nReopens: x\n",
        {"a.txt": "1\n"},
    )
    (event,) = ingest(git_repo)
    assert event["supersedes"] == ["old-plan"]
    assert event["waives"] == ["a", "b"]
    assert event["reports_pending"] == ["deploy"]
    assert event["reopens"] == ["x"]


def test_a_todo_moved_within_a_file_is_neither(git_repo) -> None:
    git_repo.commit("add", {"m.py": "# TODO: one\na = 1\nb = 2\n"})
    git_repo.commit("move", {"m.py": "a = 1\nb = 2\n    # TODO:   one\n"})
    opened, moved = ingest(git_repo, "--todos")
    assert opened["set"] == {f"todo.m.py:{h('TODO: one')}": "open"}
    assert "set" not in moved


def test_copies_are_counted_per_path(git_repo) -> None:
    key = f"todo.n.py:{h('TODO: same')}"
    git_repo.commit("one", {"n.py": "a = 1  # TODO: same\n"})
    git_repo.commit("two", {"n.py": "a = 1  # TODO: same\nb = 2  # TODO: same\n"})
    git_repo.commit("less", {"n.py": "a = 1\nb = 2  # TODO: same\n"})
    git_repo.commit("none", {"n.py": "a = 1\nb = 2\n"})
    one, two, less, none = ingest(git_repo, "--todos")
    assert one["set"] == {key: "open"}
    assert two["set"] == {key: "open"}  # another copy: another addition
    assert "set" not in less  # one copy is still there
    assert none["set"] == {key: "removed"}


def test_unusual_paths_keep_their_names(git_repo) -> None:
    name = 'dir one/na\u00efve "q"\tt.py'
    shown = 'dir one/na\u00efve "q"\\tt.py'  # a control character is escaped, as git quotes it
    git_repo.commit("odd", {name: "# TODO: odd path\n"})
    git_repo.commit("gone", {name: None})
    added, gone = ingest(git_repo, "--todos")
    assert added["files"] == [shown]
    assert added["set"] == {f"todo.{shown}:{h('TODO: odd path')}": "open"}
    assert gone["set"] == {f"todo.{shown}:{h('TODO: odd path')}": "file_deleted"}


def test_comment_forms(git_repo) -> None:
    git_repo.commit(
        "forms",
        {
            "c.c": "/* FIXME: leak */\nint x; // XXX   odd  spacing\n",
            "d.sql": "-- HACK: index later\n",
            "e.txt": "TODO: not a comment\nprint('TODO') # later\n",
        },
    )
    (event,) = ingest(git_repo, "--todos")
    assert event["set"] == {
        f"todo.c.c:{h('FIXME: leak')}": "open",
        f"todo.c.c:{h('XXX odd spacing')}": "open",
        f"todo.d.sql:{h('HACK: index later')}": "open",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{tmp}/missing"], "not a directory"),
        (["{tmp}"], "not a git repository"),
        (["{repo}", "--rev", "no-such-branch"], "revision 'no-such-branch' does not exist"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(git_repo, tmp_path, capsys, args, message) -> None:
    git_repo.commit("one", {"a.txt": "1\n"})
    plain = tmp_path / "plain"
    plain.mkdir()
    out = tmp_path / "out.jsonl"
    argv = [a.format(tmp=plain, repo=git_repo.path) for a in args]
    assert main(["ingest", "git", *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert ": error: " in err and message in err
    assert not out.exists()
    assert list(tmp_path.glob(".out.jsonl*")) == []


def test_an_empty_repository_is_reported(git_repo, capsys) -> None:
    assert main(["ingest", "git", str(git_repo.path)]) == 2
    assert "has no commits" in capsys.readouterr().err


def test_a_progress_line_only_when_stderr_is_a_terminal(git_repo, tmp_path: Path) -> None:
    git_repo.commit("one", {"a.txt": "1\n"})
    argv = [sys.executable, "-m", "resolver", "ingest", "git", str(git_repo.path)]
    argv += ["-o", str(tmp_path / "c.jsonl")]
    leader, follower = pty.openpty()
    done = subprocess.run(argv, stderr=follower, stdout=subprocess.DEVNULL, check=False)
    os.close(follower)
    shown = os.read(leader, 4096).decode()
    os.close(leader)
    assert done.returncode == 0
    assert "ingest git: 1/1 commits" in shown
    piped = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert (piped.returncode, piped.stderr) == (0, "")
