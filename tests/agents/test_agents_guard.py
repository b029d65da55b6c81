"""The PreToolUse guard, in process: what writes the history and what does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.agents.guard import Guard, roots_of

DENIED = [
    ("Bash", {"command": 'echo "{}" >> history/events.jsonl'}),
    ("Bash", {"command": "cd history && printf x > events.jsonl"}),
    ("Bash", {"command": "touch history/other.jsonl"}),
    ("Bash", {"command": "cp /tmp/x.jsonl history/"}),
    ("Bash", {"command": "mv history/events.jsonl /tmp/"}),
    ("Bash", {"command": "rm -rf history/*"}),
    ("Bash", {"command": "truncate -s 0 history/events.jsonl"}),
    ("Bash", {"command": "dd if=/dev/zero of=history/events.jsonl bs=1 count=1"}),
    ("Bash", {"command": "perl -pi -e 's/a/b/' history/release.ol"}),
    ("Bash", {"command": "bash -c 'echo x | tee -a history/events.jsonl'"}),
    ("Bash", {"command": "python3 -c \"open('history/events.jsonl','a').write('x')\""}),
    ("Bash", {"command": "git checkout -- history/events.jsonl"}),
    ("Bash", {"command": "openloop record history/events.jsonl --channel c --by carol"}),
    ("Bash", {"command": "python -m resolver record history/e.jsonl --channel c --by carol"}),
    ("Bash", {"command": "openloop ingest git . --append -o history/events.jsonl"}),
    ("Edit", {"file_path": "history/release.ol", "old_string": "a", "new_string": "b"}),
    ("MultiEdit", {"file_path": "history/release.ol", "edits": []}),
    ("NotebookEdit", {"notebook_path": "history/n.ipynb", "new_source": "x"}),
    ("Write", {"file_path": "history/other.jsonl", "content": "x"}),
    ("apply_patch", {"command": "*** Begin Patch\n*** Add File: history/x.jsonl\n+{}\n"}),
    ("write_file", {"file_path": "history/x.jsonl", "content": "{}"}),
    ("edit", '{"path": "history/release.ol", "old_str": "a", "new_str": "b"}'),
]
ALLOWED = [
    ("Bash", {"command": "cat history/events.jsonl | grep deploy"}),
    ("Bash", {"command": "openloop status history/ --known latest"}),
    ("Bash", {"command": "openloop record history/events.jsonl --channel c --by agent"}),
    ("Bash", {"command": "echo hi > /tmp/out.txt 2>/dev/null && pytest -q"}),
    ("Bash", {"command": "git status && git diff"}),
    ("Read", {"file_path": "history/release.ol"}),
    ("Write", {"file_path": "src/app.py", "content": "x"}),
]


@pytest.fixture
def guard(tmp_path: Path) -> Guard:
    (tmp_path / "history").mkdir()
    return Guard(roots_of([tmp_path / "history"]), "agent", lambda: frozenset({"issues"}))


@pytest.mark.parametrize(("tool", "tool_input"), DENIED)
def test_writes_onto_the_history_are_denied(guard: Guard, tmp_path: Path, tool, tool_input):
    from resolver.agents.hosts.base import arguments

    assert guard.tool(tool, arguments(tool_input), str(tmp_path)).deny


@pytest.mark.parametrize(("tool", "tool_input"), ALLOWED)
def test_everything_else_is_allowed(guard: Guard, tmp_path: Path, tool, tool_input):
    assert not guard.tool(tool, tool_input, str(tmp_path)).deny


def test_record_onto_an_authoritative_channel_is_denied(guard: Guard, tmp_path: Path):
    command = "openloop record history/events.jsonl --channel issues --by agent --set a=1"
    verdict = guard.tool("Bash", {"command": command}, str(tmp_path))
    assert verdict.deny and "authoritative" in str(verdict.reason)
