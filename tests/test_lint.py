"""``openloop lint``: static checks; warnings keep exit 0 (1 with --strict), errors exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.language.loader import load_with_warnings
from resolver.verdicts.lint import lint
from tests.helpers import PREAMBLE


def warnings_for(tmp_path: Path, source: str, jsonl: str | None = None) -> list[str]:
    (tmp_path / "h.ol").write_text(PREAMBLE + source, encoding="utf-8")
    if jsonl is not None:
        (tmp_path / "events.jsonl").write_text(jsonl, encoding="utf-8")
    project, loaded = load_with_warnings([tmp_path])
    return [str(d) for d in lint(project, loaded)]


OK = "event e1 { channel commits at 2024-07-01 }\n"

CASES = [
    ("expectation x { opened_by nope }", "opened_by names nope, which is no event"),
    ("expectation x { opened 2024-07-01 before rel }", "before names rel, which is not in the log"),
    ("expectation x { opened 2024-07-01 requires y }", "requires names y, which is no declared"),
    ("expectation x { opened 2024-07-01 part_of t }", "part_of names t, which is no declared task"),
    (
        "expectation x { opened 2024-07-01 search issues }",
        "search channel issues has no event in the log",
    ),
    ("expectation x { opened 2024-07-01 search sessions }", "is a mention channel"),
    ("expectation x { opened 2024-07-01 verify state }", "`verify state` but no `want`"),
    ("expectation x { opened 2024-07-01 opened_by e1 }", "both `opened` and `opened_by`"),
    ('expectation x { title "no opening" }', "x has no opening"),
    ("expectation x { opened 2024-07-01 principal bot }", "principal bot is declared an agent"),
    (
        "event e2 { channel commits at 2024-07-02 cancels ghost }",
        "cancels names ghost, which is no declared expectation or task",
    ),
    (
        "task t { opened 2024-07-01 } event e2 { channel commits at 2024-07-02 completes t }",
        "`completes` does not spread",
    ),
    (
        'expectation x { opened 2024-07-01 } test "t" { at 2024-07-02 expect y open }',
        "expect names y, which is no declared expectation",
    ),
    (
        'test "t" { at 2024-07-02 expect finding false_completion ghost }',
        "expect finding names ghost, which is no event",
    ),
    ("channel commits work", "duplicate declaration of channel 'commits'"),
]


@pytest.mark.parametrize(("source", "message"), CASES, ids=[m[:30] for _, m in CASES])
def test_each_warning(tmp_path, source, message):
    found = warnings_for(tmp_path, OK + source)
    assert any(message in w for w in found), found
    assert all(": warning: " in w for w in found)


def test_clean_history_has_no_warnings(tmp_path):
    source = (
        OK + 'expectation x { opened_by e1 want k = "v" part_of t }\ntask t { opened 2024-07-01 }'
    )
    assert warnings_for(tmp_path, source) == []


def test_task_opening_counts(tmp_path):
    source = OK + 'task t { opened 2024-07-01 obligation o { title "o" } }'
    assert not any("no opening" in w for w in warnings_for(tmp_path, source))


def test_locations_point_into_files(tmp_path):
    found = warnings_for(
        tmp_path,
        OK,
        jsonl='{"id": "j", "channel": "commits", "at": "2024-07-01", "waives": "ghost"}\n',
    )
    assert found == [
        f"{tmp_path}/events.jsonl:1: warning: j: waives names ghost, which is no "
        "declared expectation or task"
    ]


def test_cli_exit_codes(tmp_path, capsys):
    (tmp_path / "h.ol").write_text(PREAMBLE + "expectation x { opened_by nope }", encoding="utf-8")
    assert main(["lint", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{tmp_path}/h.ol:") and ": warning: " in captured.out
    assert "1 warning in 1 file" in captured.err
    assert main(["lint", str(tmp_path), "--strict"]) == 1
    (tmp_path / "h.ol").write_text(PREAMBLE + "expectation x { want }", encoding="utf-8")
    assert main(["lint", str(tmp_path)]) == 2
    assert ": error: " in capsys.readouterr().err


def test_release_fixture_is_clean(capsys):
    assert main(["lint", "fixtures/release", "--strict"]) == 0
