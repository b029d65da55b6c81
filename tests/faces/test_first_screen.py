"""The first screen (SPEC §4, issue 27.3 and 31.4): what ``status`` and ``check`` print first.

One summary line, the findings, then the outstanding items (OPEN, UNKNOWN, NOT_OPENED, tasks not
complete) earliest bound first, then ids in natural order, each beside its title; closed items
only counted unless ``--all``; an id is never broken. ``check`` prints its result first, and an
empty scope is refused unless ``--allow-empty``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.faces.screen_order import natural_key

AT = "2024-08-01"
PREAMBLE = "channel work work\nactor alice principal\n"


def history(tmp_path: Path, body: str) -> str:
    (tmp_path / "h.ol").write_text(PREAMBLE + body, encoding="utf-8")
    return str(tmp_path)


def issue(n: int, title: str, extra: str = "") -> str:
    return f'expectation issue-{n} {{ title "{title}" opened 2024-07-01 {extra} }}\n'


def done(n: int, day: int) -> str:
    return (
        f"event fix-{n} {{ channel work at 2024-07-{day:02d} by alice "
        f'text "work" completes issue-{n} }}\n'
    )


MIXED = (
    issue(100, "Hundredth")
    + issue(10, "Tenth")
    + issue(9, "Ninth")
    + issue(3, "Third, due soon", "deadline 2024-07-20")
    + issue(4, "Fourth, due first", "deadline 2024-07-10")
    + issue(5, "Fifth, closed")
    + issue(6, "Sixth, closed")
    + issue(7, "Not yet opened").replace("opened 2024-07-01", "opened 2024-09-01")
    + done(5, 2)
    + done(6, 3)
)


def status(capsys, path: str, *extra: str) -> list[str]:
    assert main(["status", path, "--at", AT, *extra]) == 0
    return capsys.readouterr().out.splitlines()


def listed(lines: list[str], header: str) -> list[str]:
    """The ids of the rows under ``header`` (up to the next blank line)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(header)) + 1
    ids = []
    for line in lines[start:]:
        if not line.strip():
            break
        if line[0] != " " and not line[0].isdigit():
            ids.append(line.split()[1])
    return ids


def test_natural_order_reads_digit_runs_as_numbers():
    ids = ["issue-100", "issue-10", "issue-9", "a01", "a1", "issue-10003", "b"]
    assert sorted(ids, key=natural_key) == [
        "a01",
        "a1",
        "b",
        "issue-9",
        "issue-10",
        "issue-100",
        "issue-10003",
    ]


def test_the_table_opens_with_one_summary_line_and_lists_only_what_is_outstanding(tmp_path, capsys):
    lines = status(capsys, history(tmp_path, MIXED))
    assert lines[0].startswith("openloop status at 2024-08-01T00:00:00Z")
    assert lines[1] == "6 outstanding; 8 expectations: 5 OPEN, 1 NOT_OPENED, 2 SATISFIED"
    # Earliest bound first (the deadlines), then natural id order; closed ones are not rows.
    assert listed(lines, "OUTSTANDING (6)") == [
        "issue-4",
        "issue-3",
        "issue-7",
        "issue-9",
        "issue-10",
        "issue-100",
    ]
    assert "2 closed item(s) counted above; --all lists them" in lines
    assert not any(line.startswith("SATISFIED") for line in lines)
    row = next(line for line in lines if line.startswith("OPEN       issue-4 "))
    assert "Fourth, due first" in row and "bound 2024-07-10" in row


def test_all_lists_the_closed_items_after_the_outstanding_ones(tmp_path, capsys):
    lines = status(capsys, history(tmp_path, MIXED), "--all")
    assert listed(lines, "CLOSED (2)") == ["issue-5", "issue-6"]
    row = next(line for line in lines if line.startswith("SATISFIED  issue-5"))
    assert "Fifth, closed" in row and "by fix-5, tier explicit" in row


def test_findings_come_before_the_outstanding_items(tmp_path, capsys):
    body = (
        'task launch { title "Launch" opened 2024-07-01 }\n'
        + issue(1, "Part of the launch", "part_of launch")
        + "event claim-1 { channel work at 2024-07-05 by alice claims_complete launch }\n"
    )
    lines = status(capsys, history(tmp_path, body))
    assert lines[1].endswith("; 1 finding")
    findings = lines.index("FINDINGS (1)")
    assert findings < next(i for i, line in enumerate(lines) if line.startswith("OUTSTANDING"))
    assert "FALSE_COMPLETION claim-1 by alice on launch: outstanding issue-1" in lines[findings + 1]
    assert listed(lines, "OUTSTANDING (2)") == ["issue-1", "launch"]


def test_an_id_is_never_broken_and_its_title_stays_beside_it(tmp_path, capsys):
    long_id = "launch-ready/smoke-tests-on-every-supported-platform-and-region"
    body = (
        f'expectation {long_id} {{ title "Run the smoke tests everywhere before launch" '
        "opened 2024-07-01 }\n"
        + 'task launch-ready-with-a-long-name { title "Ready" opened 2024-07-01 }\n'
        + "expectation launch-ready-with-a-long-name/docs-and-notes { opened 2024-07-01 "
        "part_of launch-ready-with-a-long-name }\n"
    )
    out = "\n".join(status(capsys, history(tmp_path, body), "--all"))
    for ident in (long_id, "launch-ready-with-a-long-name/docs-and-notes"):
        assert ident in out, f"{ident} was broken"
    assert f"{long_id}  Run the smoke tests everywhere before launch" in out


def test_markdown_follows_the_same_order(tmp_path, capsys):
    lines = status(capsys, history(tmp_path, MIXED), "--format", "md")
    assert lines[2] == "6 outstanding; 8 expectations: 5 OPEN, 1 NOT_OPENED, 2 SATISFIED"
    table = lines[: lines.index("### Footprints")]
    rows = [line.split(" | ")[0].lstrip("| ") for line in table if line.startswith("| issue-")]
    assert rows == ["issue-4", "issue-3", "issue-7", "issue-9", "issue-10", "issue-100"]
    assert "| issue-4 | Fourth, due first | OPEN | 2024-07-10T00:00:00Z |" in "\n".join(lines)
    every = status(capsys, history(tmp_path, MIXED), "--format", "md", "--all")
    assert "### Closed" in every and any(line.startswith("| issue-5 |") for line in every)


def test_a_long_history_keeps_its_debt_on_the_first_screen(tmp_path, capsys):
    """500 closed items and 5 open ones: the open ones are on the first screen, not at line
    1,000 behind the closed ones."""
    body = "".join(issue(n, f"Closed item {n}") + done(n, 2) for n in range(1, 501))
    body += "".join(issue(n, f"Still owed {n}") for n in range(501, 506))
    lines = status(capsys, history(tmp_path, body))
    assert lines[1] == "5 outstanding; 505 expectations: 5 OPEN, 500 SATISFIED"
    first = lines[:12]
    assert listed(first, "OUTSTANDING (5)") == [f"issue-{n}" for n in range(501, 506)]
    assert len(lines) < 50


def test_json_still_lists_every_item(tmp_path, capsys):
    assert main(["status", history(tmp_path, MIXED), "--at", AT, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [x["id"] for x in doc["expectations"]] == sorted(
        f"issue-{n}" for n in (100, 10, 9, 3, 4, 5, 6, 7)
    )


# --- check ------------------------------------------------------------------------------------


def test_check_prints_its_result_first_then_the_items_with_titles(tmp_path, capsys):
    assert main(["check", history(tmp_path, MIXED), "--at", AT]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "FAIL: 6 outstanding, 0 unknown, 2 closed"
    heads = [line for line in lines[2:] if not line.startswith(" ")]
    assert [h.split()[1] for h in heads] == [
        "issue-4",
        "issue-3",
        "issue-7",
        "issue-9",
        "issue-10",
        "issue-100",
    ]
    assert '"Fourth, due first"' in heads[0]


def test_check_with_nothing_in_scope_says_so_and_fails_unless_allowed(tmp_path, capsys):
    path = history(tmp_path, 'event e { channel work at 2024-07-02 text "hello" }\n')
    assert main(["check", path, "--at", AT]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("EMPTY: no expectations in scope, nothing was checked")
    assert "openloop init" in lines[1]
    assert main(["check", path, "--at", AT, "--allow-empty"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "PASS: 0 outstanding, 0 unknown, 0 closed"


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_every_check_format_fails_an_empty_scope_unless_allowed(tmp_path, capsys, fmt):
    path = history(tmp_path, 'event e { channel work at 2024-07-02 text "hello" }\n')
    assert main(["check", path, "--at", AT, "--format", fmt]) == 1
    captured = capsys.readouterr()
    if fmt == "json":
        assert json.loads(captured.out)["exit"] == 1
    else:
        assert "no expectations in scope" in captured.err
    assert main(["check", path, "--at", AT, "--format", fmt, "--allow-empty"]) == 0
