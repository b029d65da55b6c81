"""Commands about one item prepare only that item's group of declarations (``api.scoped``).

No rule reads across groups, so `explain ID`, `receipt TASK` and `check --task T` must print,
byte for byte, what they print over the whole history; here for every item of fixtures with
several groups, tasks, `requires`, claims and policies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.engine import groups as grouping
from resolver.language.loader import load

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HISTORIES = ["release", "support-mission/base", "policies", "four-futures", "token-rotation"]
AT = ["--at", "2030-01-01"]


def _run(capsys, argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def _whole(monkeypatch, cache: Path) -> None:
    """Make every command prepare the whole history, as before scoping (with a cache folder
    of its own: the store's key covers the code that draws a scope, which this replaces)."""
    monkeypatch.setattr(grouping, "scoped", lambda project, item: project)
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(cache))


@pytest.mark.parametrize("history", HISTORIES)
def test_one_items_commands_print_what_the_whole_history_prints(
    history, capsys, monkeypatch, tmp_path
) -> None:
    root = str(FIXTURES / history)
    project = load([root])
    items = [x.id for x in project.expectations] + [t.id for t in project.tasks]
    tasks = [t.id for t in project.tasks]
    commands = [["explain", x, root, *AT] for x in items]
    commands += [["explain", x, root, *AT, "--full", "--format", "json"] for x in items]
    commands += [["receipt", t, root, *AT] for t in tasks]
    commands += [["check", root, *AT, "--task", t] for t in tasks]
    scoped = [_run(capsys, argv) for argv in commands]
    with monkeypatch.context() as patch:
        _whole(patch, tmp_path / "whole")
        whole = [_run(capsys, argv) for argv in commands]
    for argv, mine, theirs in zip(commands, scoped, whole, strict=True):
        assert mine == theirs, " ".join(argv[:2])


def test_a_scope_keeps_only_the_items_group() -> None:
    project = load([str(FIXTURES / "release")])
    groups = grouping.groups(project)
    assert len(groups) > 1
    first = groups[0][0]
    mine = api.scoped(project, first)
    declared = {x.id for x in mine.expectations} | {t.id for t in mine.tasks}
    assert declared == set(next(g for g in groups if first in g))
    assert mine.events == project.events, "every event is kept"
    assert api.scoped(project, None) is project
    assert api.scoped(project, "no-such-item") is project
