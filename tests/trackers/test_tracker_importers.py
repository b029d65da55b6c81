"""``openloop ingest beads|taskmaster|backlog``: mappings, idempotence, ``--append``, bad input.

Each importer is run as the command line runs it, on a small hand-written export of its format
(``data/``), and every event it writes must pass the reader (``resolver.language.loader``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.language.loader import load

DATA = Path(__file__).parent / "data"
SOURCES = {
    "beads": [str(DATA / "beads_issues.jsonl")],
    "taskmaster": [str(DATA / "taskmaster_tasks.json"), "--by", "claude", "--agent", "claude"],
    "backlog": [str(DATA / "backlog"), "--agent", "claude"],
}


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def imported(source: str, tmp_path: Path, capsys) -> tuple[dict[str, dict], Path]:
    """Import ``source`` into a folder (events and declarations); the events by id."""
    folder = tmp_path / source
    folder.mkdir()
    log, ol = folder / f"{source}.jsonl", folder / f"{source}.ol"
    code, _, err = run(
        ["ingest", source, *SOURCES[source], "--ol", str(ol), "-o", str(log)], capsys
    )
    assert code == 0, err
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return {e["id"]: e for e in events}, folder


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_event_passes_the_reader_and_a_rerun_writes_the_same(
    source: str, tmp_path: Path, capsys
) -> None:
    events, folder = imported(source, tmp_path, capsys)
    project = load([folder])
    assert {e.id for e in project.events} == set(events)
    openings = [e for e in project.events if e.kind == "issue"]
    assert openings and all(e.channel == source for e in openings)
    assert {x.opened_by for x in project.expectations} <= {e.id for e in openings}
    for event in project.events:
        assert not any(m.kind == "completes" for m in event.markers), "a close is never evidence"
    again = tmp_path / "again.jsonl"
    assert run(["ingest", source, *SOURCES[source], "-o", str(again)], capsys)[0] == 0
    assert again.read_text() == (folder / f"{source}.jsonl").read_text(), "idempotent"


def test_beads_closes_are_the_closers_claims(tmp_path: Path, capsys) -> None:
    events, folder = imported("beads", tmp_path, capsys)
    close = events["bd-2-closed-20250303T120000Z"]
    assert close["claims_complete"] == ["bd-2"] and close["by"] == "session:a1b2c3"
    assert close["channel"] == "beads-status" and "text" not in close, "never a text link"
    assert events["bd-1-closed-20250302T100000Z"]["at"] == "2025-03-02T10:00:00Z", "fraction cut"
    assert events["bd-1-closed-20250302T100000Z"]["notes"]["reason"] == "fixed in the loader"
    assert events["bd-5-reopened-20250306T090000Z"]["reports_pending"] == ["bd-5"]
    assert "bd-4-started-20250302T080000Z" in events
    ol = (folder / "beads.ol").read_text()
    assert 'actor "session:*" agent' in ol and "channel beads mention" in ol
    assert "requires bd-2" in ol
    prepared = api.prepare([folder])
    agents = {prepared.facts.actor(a) for a, r in prepared.core.get("acts_as") if str(r) == "agent"}
    assert "session:a1b2c3" in agents, "an agent session's close is an agent's claim"
    resolution = api.status(prepared, at="2025-03-10", known="latest")
    assert {f.event for f in resolution.findings} == {
        "bd-1-closed-20250302T100000Z", "bd-2-closed-20250303T120000Z",
        "bd-3-closed-20250304T090000Z", "bd-5-closed-20250303T090000Z",
    }, "with no evidence beside them, every close is a false completion"  # fmt: skip
    assert resolution.expectation("bd-3").flags == ("blocked",)


def test_taskmaster_subtasks_make_a_task_and_cancelled_cancels(tmp_path: Path, capsys) -> None:
    events, folder = imported("taskmaster", tmp_path, capsys)
    assert events["tm-2-closed-20250403T100000Z"]["claims_complete"] == ["tm-2"]
    assert events["tm-2.1-closed-20250402T180000Z"]["at"] == "2025-04-02T18:00:00Z"
    assert events["tm-4-cancelled-20250402T090000Z"]["cancels"] == ["tm-4"]
    assert events["tm-3-reopened-20250404T090000Z"]["reports_pending"] == ["tm-3"]
    project = load([folder])
    assert project.task("tm-2") is not None
    assert {x.id for x in project.expectations if x.part_of == "tm-2"} == {"tm-2.1", "tm-2.2"}
    assert project.expectation("tm-2.2").requires == ("tm-2.1",)
    resolution = api.status(api.prepare([folder]), at="2025-04-10", known="latest")
    assert resolution.expectation("tm-4").status == "OPEN", "an agent's cancel is a proposal"
    assert resolution.task("tm-2").status == "INCOMPLETE"


def test_taskmaster_without_times_needs_at(tmp_path: Path, capsys) -> None:
    source = tmp_path / "tasks.json"
    source.write_text(
        json.dumps({"tasks": [{"id": 1, "title": "A", "status": "done", "dependencies": []}]})
    )
    out = tmp_path / "out.jsonl"
    code, _, err = run(["ingest", "taskmaster", str(source), "-o", str(out)], capsys)
    assert code == 2 and f"{source}:1: error:" in err and "--at" in err and not out.exists()
    code, _, err = run(
        ["ingest", "taskmaster", str(source), "--at", "2025-01-02", "-o", str(out)], capsys
    )
    assert code == 0, err
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [e["id"] for e in lines] == ["tm-1-opened", "tm-1-closed-20250102T000000Z"]


def test_backlog_folders_assignees_and_front_matter(tmp_path: Path, capsys) -> None:
    events, folder = imported("backlog", tmp_path, capsys)
    assert events["task-2-closed-20250502T163000Z"]["by"] == "claude"
    assert events["task-1-closed-20250503T110000Z"]["by"] == "alice", "@alice, not YAML"
    assert events["task-4-cancelled-20250504T090000Z"]["cancels"] == ["task-4"]
    assert events["task-1-opened"]["at"] == "2025-05-01T00:00:00Z"
    assert not any(e.startswith("task-3-closed") for e in events), "in progress: no close"
    assert "requires task-1" in (folder / "backlog.ol").read_text()


def test_append_adds_only_a_later_close(tmp_path: Path, capsys) -> None:
    issues = tmp_path / "issues.jsonl"
    lines = (DATA / "beads_issues.jsonl").read_text().splitlines()
    issues.write_text("\n".join(lines[:4]) + "\n")
    log = tmp_path / "log.jsonl"
    assert run(["ingest", "beads", str(issues), "--append", str(log)], capsys)[0] == 0
    before = log.read_text()
    closed = json.loads(lines[3]) | {"status": "closed", "closed_at": "2025-03-07T09:00:00Z"}
    issues.write_text("\n".join([*lines[:3], json.dumps(closed)]) + "\n")
    assert run(["ingest", "beads", str(issues), "--append", str(log)], capsys)[0] == 0
    after = log.read_text()
    assert after.startswith(before)
    added = [json.loads(x)["id"] for x in after[len(before) :].splitlines()]
    assert added == ["bd-4-closed-20250307T090000Z"]
    assert run(["ingest", "beads", str(issues), "--append", str(log)], capsys)[0] == 0
    assert log.read_text() == after, "a third run adds nothing"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('{"id":"bd-1","title":"A","status":"open","created_at":"2025-01-01T00:00:00Z"}\n{"id":', 2,
         "invalid JSON"),
        ('{"id":"bd-1","title":"A","status":"done","created_at":"2025-01-01T00:00:00Z"}', 1,
         "field 'status'"),
        ('\n{"id":"bd 1","title":"A","status":"open","created_at":"2025-01-01T00:00:00Z"}', 2,
         "not an identifier"),
        ('{"id":"bd-1","title":"A","status":"closed","created_at":"2025-01-01T00:00:00Z"}', 1,
         "closed_at"),
        ('{"id":"bd-1","title":"A","status":"open","created_at":"yesterday"}', 1, "created_at"),
        ('{"id":"bd-1","title":"\\ud800","status":"open","created_at":"2025-01-01"}', 1,
         "surrogate"),
        ('{"id":"bd-1","title":"A","status":"open","created_at":"2025-01-01",'
         '"dependencies":[{"issue_id":"bd-1","depends_on_id":"bd 2","type":"blocks"}]}', 1,
         "depends_on_id"),
    ],
)  # fmt: skip
def test_beads_bad_input_names_the_line_and_writes_nothing(
    text: str, line: int, words: str, tmp_path: Path, capsys
) -> None:
    source = tmp_path / "issues.jsonl"
    source.write_text(text)
    out, ol = tmp_path / "out.jsonl", tmp_path / "out.ol"
    code, stdout, err = run(
        ["ingest", "beads", str(source), "--ol", str(ol), "-o", str(out)], capsys
    )
    assert code == 2 and err.startswith(f"{source}:{line}: error:") and words in err
    assert not out.exists() and not ol.exists() and stdout == ""


def test_backlog_and_taskmaster_bad_input(tmp_path: Path, capsys) -> None:
    task = tmp_path / "task-9.md"
    task.write_text("---\nid: task-9\ntitle: X\nstatus: Done\nthis is not a field\n---\n")
    code, _, err = run(["ingest", "backlog", str(task), "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and err.startswith(f"{task}:5: error:") and not (tmp_path / "o").exists()
    tasks = tmp_path / "tasks.json"
    tasks.write_text('{"master": {"tasks": [\n {"id": 1, "title": "A", "status": "finished"}]}}')
    code, _, err = run(["ingest", "taskmaster", str(tasks), "--at", "2025-01-01"], capsys)
    assert code == 2 and err.startswith(f"{tasks}:2: error:") and "status" in err
    shutil.rmtree(tmp_path / "nothing", ignore_errors=True)
    code, _, err = run(["ingest", "backlog", str(tmp_path / "nothing")], capsys)
    assert code == 2 and "error:" in err


def test_an_append_refused_writes_nothing(tmp_path: Path, capsys) -> None:
    """A log with a torn last line (left by another tool) refuses the append: neither the log
    nor the declarations change."""
    log, ol = tmp_path / "log.jsonl", tmp_path / "b.ol"
    torn = '{"id": "x", "channel": "beads", "at": "2020-01-01T00:00:00Z"}\n{"id": "y", "chan'
    log.write_text(torn)
    argv = ["ingest", "beads", SOURCES["beads"][0], "--ol", str(ol), "--append", str(log)]
    code, _, err = run(argv, capsys)
    assert code == 2 and err.startswith(f"{log}:2: error:")
    assert log.read_text() == torn and not ol.exists()


def _task_file(folder: Path, name: str, front: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"---\n{front}---\n\nBody.\n", encoding="utf-8")


def test_backlog_as_real_projects_write_it(tmp_path: Path, capsys) -> None:
    """A project that changed its prefix (task- to BACK-), padded subtask numbers, block
    scalars, a readme.md beside the tasks, and an archived task whose id a live one reuses."""
    root = tmp_path / "backlog"
    _task_file(root / "tasks", "back-2 - B.md", (
        "id: BACK-2\ntitle: B\nstatus: To Do\ncreated_date: '2025-01-02 10:00'\n"
        "dependencies:\n  - task-1\n  - '3'\nreferences:\n  - >-\n    https://example.com (a\n"
        "    folded line)\n"
    ))  # fmt: skip
    _task_file(root / "tasks", "back-2.01 - C.md", (
        "id: BACK-2.01\ntitle: C\nstatus: To Do\ncreated_date: 2025-01-02\n"
        "parent_task_id: task-2\n"
    ))  # fmt: skip
    _task_file(root / "completed", "back-1 - A.md",
               "id: BACK-1\ntitle: A\nstatus: Done\ncreated_date: 2025-01-01\n"
               "updated_date: 2025-01-03\n")  # fmt: skip
    _task_file(root / "archive" / "tasks", "back-1 - Old.md",
               "id: BACK-1\ntitle: Old\nstatus: To Do\ncreated_date: 2024-01-01\n")  # fmt: skip
    (root / "tasks" / "readme.md").write_text("# Tasks\n")
    out, ol = tmp_path / "b.jsonl", tmp_path / "b.ol"
    code, _, err = run(["ingest", "backlog", str(root), "--ol", str(ol), "-o", str(out)], capsys)
    assert code == 0, err
    assert "warning: task back-1 is archived here and live in" in err
    project = load([tmp_path])
    assert project.expectation("back-2.1").part_of == "back-2"
    assert project.task("back-2").requires == ("back-1", "back-3")
    assert project.event("back-1-opened").text.startswith("A\n"), "the live task, not the archive"
    _task_file(root / "tasks", "back-1 - Again.md",
               "id: back-1\ntitle: Again\nstatus: To Do\ncreated_date: 2025-01-01\n")  # fmt: skip
    code, _, err = run(["ingest", "backlog", str(root), "-o", str(out)], capsys)
    assert code == 2 and "task back-1 is also given in" in err


def test_taskmaster_a_subtask_id_twice_is_named(tmp_path: Path, capsys) -> None:
    sub = {"title": "S", "status": "pending", "dependencies": []}
    task = {"id": 4, "title": "T", "status": "pending", "dependencies": [],
            "subtasks": [sub | {"id": 1}, sub | {"id": 1, "title": "Other"}]}  # fmt: skip
    source = tmp_path / "tasks.json"
    source.write_text(json.dumps({"tasks": [task]}, indent=1))
    code, _, err = run(["ingest", "taskmaster", str(source), "--at", "2025-01-01"], capsys)
    assert code == 2 and "task tm-4: subtask id 1 is given twice" in err
    assert err.startswith(f"{source}:")
