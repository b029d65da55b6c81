"""`openloop ready` and `openloop brief` (SPEC §8) on small histories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver import api
from resolver.agents.brief import brief, tokens
from resolver.agents.ready import ready
from resolver.cli.main import main

MISSION = Path("fixtures/support-mission/base")

#: Four obligations of one task: two with deadlines (given in reverse order), one unbounded,
#: one requiring another task that is not complete, and one UNKNOWN (a sequence gap).
SORTING = """
channel work work
actor alice principal
task side { title "A side task" opened 2024-01-01 obligation side/x { want side.x = "done" } }
task main {
  title "Main"
  opened 2024-01-01
  obligation main/late   { title "Due last"  want a.late = "done"  deadline 2024-03-01 }
  obligation main/early  { title "Due first" want a.early = "done" deadline 2024-02-01 }
  obligation main/free   { title "No bound"  want a.free = "done" }
  obligation main/after  { title "After side" want a.after = "done" requires side }
}
"""


@pytest.fixture
def sorting(tmp_path: Path) -> Path:
    (tmp_path / "h.ol").write_text(SORTING, encoding="utf-8")
    return tmp_path


def test_ready_is_open_unblocked_and_sorted_by_bound(sorting: Path):
    result = ready(api.prepare([sorting]), api.standpoint("2024-01-15"))
    assert [v.id for v in result.ready] == ["main/early", "main/late", "main/free", "side/x"]
    assert result.waiting == {"main/after": ("side",)}


def test_ready_follows_the_mission_step_by_step(capsys):
    assert main(["ready", str(MISSION), "--at", "2024-09-02T12:00", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "ready"
    assert [x["id"] for x in data["ready"]] == ["support-88/patch"]
    waiting = {w["id"]: w["on"] for w in data["waiting"]}
    assert waiting["support-88/tests"] == ["support-88/patch"]
    assert "support-88/customer-confirms" not in waiting  # NOT_OPENED: not ready, not waiting
    assert main(["ready", str(MISSION), "--at", "2024-09-02T12:00"]) == 0
    text = capsys.readouterr().out
    assert "support-88/patch" in text and "support-88/tests waits on support-88/patch" in text


def test_brief_puts_overdue_work_first_then_by_bound(sorting: Path):
    done = brief(api.prepare([sorting]), api.standpoint("2024-02-15"), budget=1000)
    lines = done.lines
    assert lines[0].startswith("openloop brief at 2024-02-15T00:00:00Z")
    words = [line.split() for line in lines]
    owed = [w[1].rstrip(":") for w in words if w[0] in ("OVERDUE", "READY")]
    assert owed == ["main/early", "main/late", "main/free", "side/x"]
    assert lines.index(next(x for x in lines if x.startswith("OVERDUE main/early"))) < lines.index(
        next(x for x in lines if x.startswith("READY main/late"))
    )
    assert any(x.startswith("WAITING main/after") and "waits on side" in x for x in lines)
    assert done.omitted == 0


def test_brief_stays_within_its_budget_and_says_what_it_left_out(sorting: Path):
    prepared = api.prepare([sorting])
    point = api.standpoint("2024-02-15")
    whole = brief(prepared, point, budget=10_000)
    small = brief(prepared, point, budget=tokens(whole.text()) - 10)
    assert small.omitted >= 1
    assert small.used <= small.budget
    assert sum(tokens(line + "\n") for line in small.lines) == small.used
    assert small.lines[-1].startswith(f"... {small.omitted} more")
    assert small.lines[:-1] == whole.lines[: len(small.lines) - 1]


def test_brief_lists_the_mission_false_claim(capsys):
    assert main(["brief", str(MISSION), "--at", "2024-09-03T15:00", "--budget", "300"]) == 0
    out = capsys.readouterr().out
    assert "FALSE CLAIM session-88 by agent-7" in out
    assert "support-88/customer-confirms" in out
    assert main(["brief", str(MISSION), "--budget", "0"]) == 2
