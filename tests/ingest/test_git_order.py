"""``seq`` in the order REV's first-parent line learned of each commit (SPEC §6.1).

A real branchy repository built with git: a branch merged late, a rebased (old-dated) commit, an
octopus merge, a criss-cross merge that brings back a commit main already had, and a mainline
commit whose committer clock ran behind its parent's. What main knew at any moment must be a
prefix of the numbers, checked against git's own ancestry and through ``openloop status``.
"""

from __future__ import annotations

import json
from pathlib import Path

from resolver.cli.main import main

DAY = "2024-03-{:02d}T{:02d}:00:00Z"


def day(d: int, hour: int = 10) -> str:
    return DAY.format(d, hour)


def build_branchy(repo) -> dict[str, str]:
    """The history; returns the full hashes by name."""
    c: dict[str, str] = {}
    c["m1"] = repo.commit("m1", {"a.txt": "1\n"}, date=day(1))
    repo.git("checkout", "-q", "-b", "feat")
    c["f1"] = repo.commit("f1", {"f.txt": "1\n"}, date=day(2, 12))
    c["f2"] = repo.commit("f2", {"f.txt": "2\n"}, date=day(3))
    repo.git("checkout", "-q", "main")
    c["m2"] = repo.commit("m2", {"a.txt": "2\n"}, date=day(2))
    c["m3"] = repo.commit("m3", {"a.txt": "3\n"}, date=day(4))
    c["M1"] = repo.merge("feat", "Merge feat (late)", day(5))
    # written on day 1, rebased onto main on day 6: learned on day 6
    c["r1"] = repo.commit("r1", {"r.txt": "1\n"}, date=day(1, 9), committed=day(6))
    for name, hour in (("o1", 12), ("o2", 14)):
        repo.git("checkout", "-q", "-b", name, "main")
        c[name] = repo.commit(name, {f"{name}.txt": "1\n"}, date=day(6, hour))
    repo.git("checkout", "-q", "main")
    env = repo.identity("Alice <alice@example.com>", day(7), None, None)
    repo.git("merge", "-q", "--no-ff", "-m", "Octopus", "o1", "o2", env=env)
    c["M2"] = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "h")
    c["h1"] = repo.commit("h1", {"h.txt": "1\n"}, date=day(7, 18))
    repo.git("checkout", "-q", "main")
    c["m4"] = repo.commit("m4", {"a.txt": "4\n"}, date=day(8))
    repo.git("checkout", "-q", "h")
    c["h2"] = repo.merge("main", "Merge main into h", day(8, 18))  # criss-cross: m4 is known
    repo.git("checkout", "-q", "main")
    c["M3"] = repo.merge("h", "Merge h", day(9))
    # a committer clock behind its parent's: main cannot learn it before its parent
    c["s1"] = repo.commit("s1", {"a.txt": "5\n"}, date=day(8, 20))
    return c


def ingest(repo, folder: Path) -> list[dict]:
    out = folder / "commits.jsonl"
    assert main(["ingest", "git", str(repo.path), "-o", str(out)]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_the_learned_order(git_repo, tmp_path: Path) -> None:
    c = build_branchy(git_repo)
    events = ingest(git_repo, tmp_path)
    name = {f"commit-{full[:12]}": short for short, full in c.items()}
    assert [name[e["id"]] for e in events] == [
        "m1", "m2", "m3", "f1", "f2", "M1", "r1", "o1", "o2", "M2", "m4", "h1", "h2", "M3", "s1",
    ]  # fmt: skip
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    recorded = {name[e["id"]]: e["recorded"] for e in events}
    assert recorded["f1"] == recorded["f2"] == recorded["M1"] == day(5)
    assert recorded["r1"] == day(6)  # rebased: learned at its committer date
    assert recorded["o1"] == recorded["o2"] == day(7)
    assert recorded["h1"] == recorded["h2"] == day(9)
    assert recorded["s1"] == day(9)  # its own clock said day 8, after main learned day 9
    assert {e["at"] for e in events if name[e["id"]] == "r1"} == {day(1, 9)}


def test_what_main_knew_is_a_prefix_of_the_numbers(git_repo, tmp_path: Path) -> None:
    build_branchy(git_repo)
    events = ingest(git_repo, tmp_path)
    seq = {e["id"]: e["seq"] for e in events}
    # at every first-parent commit, the numbers so far are exactly the commits git says it holds
    for commit in git_repo.git("rev-list", "--first-parent", "HEAD").split():
        held = {f"commit-{h[:12]}" for h in git_repo.git("rev-list", commit).split()}
        assert {i for i, n in seq.items() if n <= seq[f"commit-{commit[:12]}"]} == held
    # at every standpoint, the records known form a prefix 1..n: no hole for the gap rule
    for known in sorted({e["recorded"] for e in events}):
        numbers = sorted(e["seq"] for e in events if e["recorded"] <= known)
        assert numbers == list(range(1, len(numbers) + 1)), known


def test_a_branch_merged_late_leaves_no_gap(git_repo, tmp_path: Path, capsys) -> None:
    build_branchy(git_repo)
    folder = tmp_path / "history"
    folder.mkdir()
    ingest(git_repo, folder)
    (folder / "x.ol").write_text(
        "channel commits work\n"
        'expectation x { title "Turn the widget on" opened 2024-02-01 want widget = "on" }\n',
        encoding="utf-8",
    )
    # between the branch's commits and their merge, and between a rebase's two dates
    for standpoint in (day(4, 12), day(5, 12), day(6, 12), day(8, 22)):
        capsys.readouterr()
        assert main(["status", str(folder), "--at", standpoint, "--format", "json"]) == 0
        (verdict,) = json.loads(capsys.readouterr().out)["expectations"]
        assert (verdict["status"], verdict["confidence"]) == ("OPEN", "CORROBORATED_OPEN")


def test_append_after_a_late_merge_equals_a_fresh_import(git_repo, tmp_path: Path) -> None:
    git_repo.commit("m1", {"a.txt": "1\n"}, date=day(1))
    git_repo.git("checkout", "-q", "-b", "feat")
    git_repo.commit("f1", {"f.txt": "1\n"}, date=day(2))
    git_repo.git("checkout", "-q", "main")
    git_repo.commit("m2", {"a.txt": "2\n"}, date=day(3))
    log = tmp_path / "log.jsonl"
    assert main(["ingest", "git", str(git_repo.path), "--todos", "--append", str(log)]) == 0
    git_repo.merge("feat", "Merge feat", day(4))
    git_repo.commit("m3", {"a.txt": "3\n"}, date=day(5))
    assert main(["ingest", "git", str(git_repo.path), "--todos", "--append", str(log)]) == 0
    fresh = tmp_path / "fresh.jsonl"
    assert main(["ingest", "git", str(git_repo.path), "--todos", "-o", str(fresh)]) == 0
    assert log.read_bytes() == fresh.read_bytes()
