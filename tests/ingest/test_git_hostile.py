"""Hostile repositories: what ``ingest git`` writes, its own reader reads (issue 29's git items).

Shallow clones are refused (or, with ``--allow-shallow``, imported with a warning and a boundary
that changes nothing); dates git cannot represent in 1970..2100 are an error naming the commit,
exit 2, nothing written; control characters in paths, e-mails and messages never make a log the
reader refuses; a very long minified line is scanned correctly (its speed is measured by hand,
never asserted).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ingest_history import h

from resolver.cli.main import main
from resolver.language.loader import load


def run(argv: list[str], capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = main(argv)
    return code, capsys.readouterr().err


def read_back(folder: Path, capsys) -> None:
    """The written log passes the reader's checks, in process and through ``openloop status``."""
    load([folder])
    (folder / "x.ol").write_text("channel commits work\n", encoding="utf-8")
    code, err = run(["status", str(folder), "--format", "json"], capsys)
    assert (code, err) == (0, "")


def test_a_shallow_clone_is_refused_or_imported_with_a_warning(
    git_repo, tmp_path: Path, capsys
) -> None:
    git_repo.commit("one", {"a.py": "# TODO: old debt\nx = 1\n", "b.py": "y = 1\n"})
    git_repo.commit("two", {"b.py": "y = 2\n"}, date="2024-01-02T10:00:00Z")
    git_repo.commit("three", {"a.py": "x = 1\n"}, date="2024-01-03T10:00:00Z")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{git_repo.path}", str(clone)],
        check=True,
        env=git_repo.env,
    )
    out = tmp_path / "out" / "c.jsonl"
    out.parent.mkdir()
    code, err = run(["ingest", "git", str(clone), "--todos", "-o", str(out)], capsys)
    assert code == 2 and not out.exists()
    assert err.startswith(f"{clone}: error: a shallow clone") and "git fetch --unshallow" in err
    code, err = run(
        ["ingest", "git", str(clone), "--todos", "--allow-shallow", "-o", str(out)], capsys
    )
    assert code == 0 and "warning: a shallow clone" in err
    boundary, three = map(json.loads, out.read_text().splitlines())
    assert boundary["text"] == "two" and boundary["files"] == [] and "set" not in boundary
    # the boundary's tree is known, not "added": removing its TODO later is seen as a removal
    assert three["set"] == {f"todo.a.py:{h('TODO: old debt')}": "removed"}
    read_back(out.parent, capsys)


def _raw_commit(repo, parent: str | None, seconds: int, message: str) -> str:
    tree = repo.git("write-tree")
    lines = [f"tree {tree}"] + ([f"parent {parent}"] if parent else [])
    lines += [f"author A <a@example.com> {seconds} +0000"]
    lines += [f"committer A <a@example.com> {seconds} +0000", "", message, ""]
    done = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin", "--literally"],
        cwd=repo.path, input="\n".join(lines), capture_output=True, text=True, check=True,
    )  # fmt: skip
    commit = done.stdout.strip()
    repo.git("update-ref", "refs/heads/main", commit)
    return commit


def test_dates_outside_1970_to_2100_name_the_commit(git_repo, tmp_path: Path, capsys) -> None:
    git_repo.write({"a.txt": "1\n"})
    good = _raw_commit(git_repo, None, 1_700_000_000, "fine")
    for seconds in (-315_619_200, 5_680_000_000):  # 1960, 2150
        bad = _raw_commit(git_repo, good, seconds, "odd clock")
        out = tmp_path / "c.jsonl"
        code, err = run(["ingest", "git", str(git_repo.path), "-o", str(out)], capsys)
        assert code == 2 and not out.exists()
        assert err.startswith(f"{git_repo.path}: commit {bad}: error: its author date")
        assert "1970-01-01..2100-12-31" in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_control_characters_never_reach_the_log_raw(git_repo, tmp_path: Path, capsys) -> None:
    names = ["new\nline.py", "esc\x1b[31m.py", "tab\there.py", "del\x7f.py"]
    git_repo.commit(
        'Odd \x1b]0;title\x07 message\n\nFixes #4 \x1b[2J and "quotes"\n',
        {name: "# TODO: in an odd place\x1b[1m\n" for name in names},
        author="Eve <eve\x1b[31m@example.com>",
    )
    git_repo.commit("Remove them", dict.fromkeys(names), date="2024-01-02T10:00:00Z")
    (git_repo.path / "latin1.py").write_bytes(b"# TODO: caf\xe9 \xff\n")
    git_repo.git("add", "latin1.py")
    git_repo.commit("bytes that are not UTF-8", date="2024-01-03T10:00:00Z")
    folder = tmp_path / "history"
    folder.mkdir()
    out = folder / "c.jsonl"
    code, err = run(["ingest", "git", str(git_repo.path), "--todos", "-o", str(out)], capsys)
    assert (code, err) == (0, "")
    added, removed, latin = map(json.loads, out.read_text().splitlines())
    assert added["files"] == sorted(
        ["new\\nline.py", "esc\\x1b[31m.py", "tab\\there.py", "del\\x7f.py"]
    )
    assert len(added["set"]) == 4 and set(added["set"]) == set(added["notes"])
    assert set(removed["set"]) == set(added["set"])
    assert set(removed["set"].values()) == {"file_deleted"}
    assert added["by"] == "eve\\x1b[31m@example.com"
    assert added["completes"] == ["issue-4"]
    assert "\x1b" in added["text"]  # the message is kept whole; faces escape it when printing
    assert list(latin["set"].values()) == ["open"]
    read_back(folder, capsys)


def test_a_long_minified_line_is_scanned_whole(git_repo, tmp_path: Path) -> None:
    # about 300 KB of leaders and marker-like words, then the one real comment
    line = "TODO " + "a;b//c#TODOS " * 23_000 + "/* FIXME: unminify */"
    git_repo.commit("minified", {"m.js": line + "\n"})
    git_repo.commit("again", {"m.js": "x;\n" + line + "\n"}, date="2024-01-02T10:00:00Z")
    # a marker word before 300 KB of comment leaders and no comment: the case a lazy regular
    # expression rescanned from every leader (quadratic: minutes for this line)
    worst = "TODO " + "a;" * 150_000
    git_repo.commit("worst", {"w.js": worst + "\n"}, date="2024-01-03T10:00:00Z")
    out = tmp_path / "c.jsonl"
    assert main(["ingest", "git", str(git_repo.path), "--todos", "-o", str(out)]) == 0
    first, again, worst_case = map(json.loads, out.read_text().splitlines())
    assert first["set"] == {f"todo.m.js:{h('FIXME: unminify')}": "open"}
    assert "set" not in again and "set" not in worst_case
