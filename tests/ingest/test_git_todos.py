"""``--todos`` along REV's first-parent line (SPEC §6.1), on repositories built with real git.

Each first-parent commit (a merge too) is diffed against its first parent: a TODO added on two
branches and kept once by their merge is one TODO, a TODO a merge removes is removed, a rename
carries its TODOs, side-branch commits carry no TODO sets. The TODOs open at HEAD are checked
against git itself (the comments in ``git show HEAD:PATH``), here and on the click history.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from ingest_history import h

from resolver.cli.main import main
from resolver.ingest.todo_text import comment_text, todo_hash

#: The click history's bundle, as `.ci/run` finds it beside the checkout (skipped without one).
BUNDLE = Path(os.environ.get("OPENLOOP_STUDY_CLICK_BUNDLE", "click.bundle"))


def ingest(path: Path, out: Path) -> list[dict]:
    assert main(["ingest", "git", str(path), "--todos", "-o", str(out)]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def last_values(events: list[dict]) -> dict[str, str]:
    values: dict[str, str] = {}
    for event in events:
        values.update(event.get("set", {}))
    return values


def git_truth(path: Path, rev: str = "HEAD") -> set[tuple[str, str]]:
    """(path, H) of every TODO comment in the files of REV, read by git."""

    def git(*args: str) -> bytes:
        return subprocess.run(
            ["git", "-C", str(path), *args], capture_output=True, check=True
        ).stdout

    names = git("grep", "-z", "-l", "-I", "-E", "TODO|FIXME|XXX|HACK", rev, "--").split(b"\0")
    found = set()
    for name in filter(None, names):
        file = name.decode().removeprefix(f"{rev}:")
        for line in git("show", f"{rev}:{file}").decode("utf-8", "replace").splitlines():
            if (text := comment_text(line)) is not None:
                found.add((file, todo_hash(text)))
    return found


def test_two_branches_one_todo_and_a_merge_that_removes(git_repo, tmp_path: Path) -> None:
    git_repo.commit("base", {"x.py": "a = 1\n", "y.py": "# TODO: drop y\nb = 2\n"})
    for branch in ("one", "two"):  # both add the same comment in the same place
        git_repo.git("checkout", "-q", "-b", branch, "main")
        git_repo.commit(f"{branch}: shared", {"x.py": "a = 1\n# TODO: shared\n", branch: "1\n"})
    git_repo.git("checkout", "-q", "-b", "clean", "main")
    git_repo.commit("clean: drop the y TODO", {"y.py": "b = 2\n"})
    git_repo.git("checkout", "-q", "main")
    first = git_repo.merge("one", "Merge one", "2024-01-02T10:00:00Z")
    second = git_repo.merge("two", "Merge two", "2024-01-03T10:00:00Z")
    third = git_repo.merge("clean", "Merge clean", "2024-01-04T10:00:00Z")
    events = {e["id"]: e for e in ingest(git_repo.path, tmp_path / "c.jsonl")}
    shared, drop = f"todo.x.py:{h('TODO: shared')}", f"todo.y.py:{h('TODO: drop y')}"
    opened = [i for i, e in events.items() if e.get("set", {}).get(shared) == "open"]
    assert opened == [f"commit-{first[:12]}"]  # one TODO, opened when main learned it
    assert events[f"commit-{first[:12]}"]["notes"] == {shared: "TODO x.py: shared"}
    assert "set" not in events[f"commit-{second[:12]}"]  # kept once: nothing new
    assert events[f"commit-{third[:12]}"]["set"] == {drop: "removed"}  # the merge removes it
    side = [e for e in events.values() if e["text"].startswith(("one:", "two:", "clean:"))]
    assert len(side) == 3 and not any("set" in e for e in side)
    assert {k for k, v in last_values(list(events.values())).items() if v == "open"} == {shared}
    assert git_truth(git_repo.path) == {("x.py", h("TODO: shared"))}


def test_a_rename_carries_its_todos(git_repo, tmp_path: Path) -> None:
    body = "def f():\n    pass  # FIXME: slow\n\n\n\n\n# TODO: name\nx = 1\n"
    git_repo.commit("add", {"old.py": body})
    git_repo.mv("old.py", "new.py")
    moved = git_repo.commit("move", date="2024-01-02T10:00:00Z")
    git_repo.git("checkout", "-q", "-b", "side")
    (git_repo.path / "lib").mkdir()
    git_repo.mv("new.py", "lib/last.py")  # renamed again on a branch, plus a new TODO
    git_repo.commit("side", {"lib/last.py": body + "# HACK: later\n"})
    git_repo.git("checkout", "-q", "main")
    merge = git_repo.merge("side", "Merge side", "2024-01-03T10:00:00Z")
    fixed = (body + "# HACK: later\n").replace("# FIXME: slow", "")
    done = git_repo.commit("fix", {"lib/last.py": fixed}, date="2024-01-04T10:00:00Z")
    events = {e["id"]: e for e in ingest(git_repo.path, tmp_path / "c.jsonl")}
    assert "set" not in events[f"commit-{moved[:12]}"]  # neither removed nor opened anew
    hack = f"todo.lib/last.py:{h('HACK: later')}"
    assert events[f"commit-{merge[:12]}"]["set"] == {hack: "open"}
    assert events[f"commit-{merge[:12]}"]["notes"] == {hack: "HACK lib/last.py: later"}
    # the key it was opened under, so the removal closes the expectation its opening opened
    assert events[f"commit-{done[:12]}"]["set"] == {f"todo.old.py:{h('FIXME: slow')}": "removed"}
    still = {k for k, v in last_values(list(events.values())).items() if v == "open"}
    assert still == {f"todo.old.py:{h('TODO: name')}", hack}
    assert git_truth(git_repo.path) == {
        ("lib/last.py", h("TODO: name")),
        ("lib/last.py", h("HACK: later")),
    }


def test_notes_carry_the_comment_words(git_repo, tmp_path: Path) -> None:
    long = "word " * 60
    git_repo.commit(
        "notes",
        {
            "app.py": "x = 1  # TODO(alice): retry   when the pool\tis exhausted\n",
            "b.c": f"/* FIXME - {long} */\n",
            "c.sql": "-- XXX\n",
        },
    )
    (event,) = ingest(git_repo.path, tmp_path / "c.jsonl")
    notes = event["notes"]
    assert notes[f"todo.app.py:{h('TODO(alice): retry when the pool is exhausted')}"] == (
        "TODO(alice) app.py: retry when the pool is exhausted"
    )
    long_note = notes[f"todo.b.c:{h('FIXME - ' + long.strip())}"]
    assert long_note.startswith("FIXME b.c: word word") and long_note.endswith("…")
    assert len(long_note) <= 120
    assert notes[f"todo.c.sql:{h('XXX')}"] == "XXX c.sql"
    assert set(notes) == set(event["set"])


@pytest.fixture(scope="module")
def click(tmp_path_factory) -> tuple[Path, list[dict]]:
    if not BUNDLE.is_file():
        pytest.skip(f"no click bundle at {BUNDLE}")
    folder = tmp_path_factory.mktemp("click")
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(folder / "repo")], check=True)
    return folder / "repo", ingest(folder / "repo", folder / "click.jsonl")


def test_click_todos_open_at_head_are_the_ones_in_the_tree(click) -> None:
    repo, events = click
    still = {k for k, v in last_values(events).items() if v == "open"}
    truth = git_truth(repo)
    # no file at HEAD was renamed since its TODOs were written: keys name HEAD's paths
    assert {(k[5:].rpartition(":")[0], k.rpartition(":")[2]) for k in still} == truth
    assert len(truth) >= 1


def test_click_a_todo_from_two_branches_is_one_todo(click) -> None:
    _, events = click
    key = "todo.click/_termui_impl.py:67a08f37"  # added on two branches, kept once by a merge
    values = [(e["kind"], e["set"][key]) for e in events if key in e.get("set", {})]
    assert values == [("merge", "open"), ("commit", "removed")]


def test_a_policy_titles_each_todo_by_its_words(git_repo, tmp_path: Path, capsys) -> None:
    git_repo.commit(
        "add", {"src/app.py": "pool = make()  # TODO: retry when the pool is exhausted\n"}
    )
    folder = tmp_path / "history"
    folder.mkdir()
    ingest(git_repo.path, folder / "commits.jsonl")
    (folder / "todo.ol").write_text(
        "channel commits work\n"
        'policy todo-debt {\n  title "$note"\n  when set todo.* = "open"\n'
        '  want $key = "removed"\n  superseded_when $key = "file_deleted"\n}\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["status", str(folder), "--format", "json"]) == 0
    (item,) = json.loads(capsys.readouterr().out)["expectations"]
    assert item["title"] == "TODO src/app.py: retry when the pool is exhausted"
