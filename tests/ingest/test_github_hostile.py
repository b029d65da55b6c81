"""``openloop ingest github`` over hostile exports (issue 29): it never writes what the reader
refuses, and it refuses at the record's line and JSON path (``FILE:LINE: error: [0].author.login:
...``) with exit 2 and nothing written. Bot authors are agents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from resolver.cli.main import main
from resolver.ingest.github import read_github
from tests.fuzz.roundtrip import import_problem

ISSUE: dict[str, Any] = {
    "author": {"id": "U_1", "is_bot": False, "login": "Alice", "name": "Alice"},
    "body": "It crashes.",
    "closedAt": "2024-03-04T09:30:00Z",
    "createdAt": "2024-03-01T08:00:00Z",
    "labels": [],
    "number": 5,
    "state": "CLOSED",
    "stateReason": "COMPLETED",
    "title": "Crash on save",
    "url": "https://github.com/example/editor/issues/5",
}
PULL: dict[str, Any] = {
    "author": {"id": "U_2", "is_bot": False, "login": "bob", "name": "Bob"},
    "body": "Fixes the crash.",
    "closedAt": "2024-03-03T10:00:00Z",
    "closingIssuesReferences": [{"number": 5}],
    "createdAt": "2024-03-02T08:00:00Z",
    "mergeCommit": {"oid": "abc"},
    "mergedAt": "2024-03-03T10:00:00Z",
    "number": 9,
    "state": "MERGED",
    "title": "Save: handle empty names",
}


def changed(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``base`` with the field at dotted ``path`` set to ``value``."""
    record = json.loads(json.dumps(base))
    *parents, last = path.split(".")
    target = record
    for key in parents:
        target = target[key]
    target[last] = value
    return record


def export(tmp_path: Path, records: list[dict[str, Any]], raw: str | None = None) -> Path:
    """The records as ``gh`` prints them (indented, one field a line), or ``raw`` text."""
    source = tmp_path / "gh.json"
    source.write_text(raw if raw is not None else json.dumps(records, indent=2), encoding="utf-8")
    return source


def ingest(tmp_path: Path, source: Path, *extra: str) -> tuple[int, str, Path, Path]:
    out, ol = tmp_path / "out.jsonl", tmp_path / "out.ol"
    out.unlink(missing_ok=True)
    ol.unlink(missing_ok=True)
    code = main(["ingest", "github", str(source), "--ol", str(ol), "-o", str(out), *extra])
    return code, "", out, ol


REFUSED = [
    ("author.login", "ev\nil", "[1].author.login: must not hold control characters"),
    ("author.login", "a\x1b[2Kb", "[1].author.login: must not hold control characters"),
    ("author.login", "a\u2028b", "[1].author.login: must not hold control characters"),
    ("author.login", "a\x85b", "[1].author.login: must not hold control characters"),
    ("author.login", 7, "[1].author.login: must be a string"),
    ("author", "alice", "[1].author: must be an object"),
    ("author.is_bot", "yes", "[1].author.is_bot: must be true or false"),
    ("number", 0, "[1].number: must be a positive integer"),
    ("number", -3, "[1].number: must be a positive integer"),
    ("number", 2**31, "[1].number: must be a positive integer"),
    ("number", 10**40, "[1].number: must be a positive integer"),
    ("number", 1.5, "[1].number: must be a positive integer"),
    ("number", True, "[1].number: must be a positive integer"),
    ("createdAt", "2024-02-30T00:00:00Z", "[1].createdAt: "),
    ("createdAt", "1969-12-31T23:59:59Z", "[1].createdAt: "),
    ("createdAt", "2101-01-01T00:00:00Z", "[1].createdAt: "),
    ("createdAt", 1709280000, "[1].createdAt: must be a string"),
    ("createdAt", "0001-01-01T00:00:00Z", "[1].createdAt: must be a time"),
    ("closedAt", "2024-02-01T00:00:00Z", "[1].closedAt: 2024-02-01T00:00:00Z is before createdAt"),
    ("closedAt", "soon", "[1].closedAt: "),
    ("title", ["a"], "[1].title: must be a string"),
]


@pytest.mark.parametrize(("path", "value", "message"), REFUSED)
def test_a_bad_issue_field_is_refused_at_its_record(
    tmp_path: Path, capsys, path: str, value: Any, message: str
) -> None:
    source = export(tmp_path, [ISSUE, changed(ISSUE | {"number": 6}, path, value)])
    code, _, out, ol = ingest(tmp_path, source)
    err = capsys.readouterr().err
    assert code == 2
    starts = [n for n, text in enumerate(source.read_text().splitlines(), 1) if text == "  {"]
    line = starts[1]  # the second record's line
    assert err.startswith(f"{source}:{line}: error: {message}"), err
    assert err.count("\n") == 1
    assert not out.exists() and not ol.exists()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("closingIssuesReferences", [{"number": 2**40}], "[0].closingIssuesReferences[0]: "),
        ("closingIssuesReferences", ["x"], "[0].closingIssuesReferences[0]: "),
        ("closingIssuesReferences", "5", "[0].closingIssuesReferences: must be a list"),
        ("mergedAt", "2024-03-01T00:00:00Z", "[0].mergedAt: 2024-03-01T00:00:00Z is before"),
        ("mergedAt", "2100-13-01T00:00:00Z", "[0].mergedAt: "),
    ],
)
def test_a_bad_pull_field_is_refused_at_its_record(
    tmp_path: Path, capsys, path: str, value: Any, message: str
) -> None:
    source = export(tmp_path, [changed(PULL, path, value)])
    code, _, out, ol = ingest(tmp_path, source)
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"{source}:2: error: {message}"), err
    assert not out.exists() and not ol.exists()


@pytest.mark.parametrize("field", ["title", "body", "author.login", "author.name", "url"])
def test_a_lone_surrogate_is_refused_with_its_json_path(tmp_path: Path, capsys, field) -> None:
    # As `json.dumps` would write it: the escape is the only way JSON holds a lone surrogate.
    text = json.dumps([ISSUE, changed(ISSUE | {"number": 6}, field, "ok \ud800")], indent=2)
    source = export(tmp_path, [], raw=text)
    code, _, out, ol = ingest(tmp_path, source)
    err = capsys.readouterr().err
    assert code == 2, err
    assert f": error: [1].{field}: a string holds a lone surrogate escape" in err
    assert err.startswith(f"{source}:") and not out.exists() and not ol.exists()


ACCEPTED = [
    ("title", 'line one\nline two\x1b[2K "quoted" \\ back\u2028slash'),
    ("title", ""),
    ("body", "::error file=x::forged\n::stop-commands::t"),
    ("author.login", "Émile"),
    ("author.login", "app/dependabot"),
    ("author.login", 'odd"name[bot]'),
    ("author.login", "back\\slash[bot]"),
    ("author", None),
    ("stateReason", "REOPENED"),
    ("stateReason", "weird\nreason"),
    ("state", "OPEN"),
    ("closedAt", "0001-01-01T00:00:00Z"),
    ("number", 2**31 - 1),
]


@pytest.mark.parametrize(("path", "value"), ACCEPTED)
def test_odd_but_valid_records_import_and_read_back(tmp_path: Path, path: str, value) -> None:
    record = changed(ISSUE, path, value)
    if path == "closedAt":
        record["state"] = "OPEN"
    source = export(tmp_path, [record, PULL])
    out, ol = tmp_path / "out.jsonl", tmp_path / "out.ol"
    argv = ["ingest", "github", str(source), "--ol", str(ol), "-o", str(out)]
    assert import_problem(argv, source, [out, ol]) is None
    assert out.exists() and ol.exists()


def test_an_identifier_breaking_issue_prefix_is_refused(tmp_path: Path, capsys) -> None:
    source = export(tmp_path, [ISSUE])
    code, _, out, _ = ingest(tmp_path, source, "--issue-prefix", "bug #")
    assert code == 2 and "--issue-prefix" in capsys.readouterr().err and not out.exists()


def status(folder: Path, capsys) -> dict[str, dict[str, Any]]:
    capsys.readouterr()
    argv = ["status", str(folder), "--at", "2024-04-01", "--known", "latest", "--format", "json"]
    assert main(argv) == 0
    return {e["id"]: e for e in json.loads(capsys.readouterr().out)["expectations"]}


@pytest.mark.parametrize(
    "author",
    [
        {"is_bot": True, "login": "app/dependabot"},  # as gh prints a GitHub App
        {"login": "renovate[bot]"},  # as the REST API spells one
        {"is_bot": True, "login": " two  spaces\u00a0and\u3000more "},  # kept exactly
    ],
)
def test_a_bots_merged_pull_request_is_a_claim_not_evidence(
    tmp_path: Path, capsys, author: dict[str, Any]
) -> None:
    issue = ISSUE | {"state": "OPEN", "closedAt": None, "stateReason": None}
    folder = tmp_path / "history"
    folder.mkdir()
    source = export(tmp_path, [issue, PULL])
    argv = ["ingest", "github", str(source), "--ol", str(folder / "gh.ol")]
    assert main([*argv, "-o", str(folder / "gh.jsonl")]) == 0
    assert status(folder, capsys)["issue-5"]["status"] == "SATISFIED"  # a person's merge counts

    source = export(tmp_path, [issue, changed(PULL, "author", author)])
    assert main([*argv, "-o", str(folder / "gh.jsonl")]) == 0
    declared = (folder / "gh.ol").read_text()
    login = author["login"].lower()
    assert f'actor "{login}" agent' in declared
    verdict = status(folder, capsys)["issue-5"]
    assert verdict["status"] == "OPEN", verdict  # the bot's word is a claim


def test_bots_without_ol_are_named_on_stderr(tmp_path: Path, capsys) -> None:
    bot = changed(PULL, "author", {"is_bot": True, "login": "app/dependabot"})
    imported = read_github([str(export(tmp_path, [ISSUE, bot]))], note_bots=True)
    assert imported.bots == ["app/dependabot"]
    err = capsys.readouterr().err
    assert err.startswith("note: 1 bot author(s) (app/dependabot) are agents only where declared")
    assert read_github([str(export(tmp_path, [ISSUE]))], note_bots=True).bots == []
    assert capsys.readouterr().err == ""


def test_a_bot_login_that_would_be_a_pattern_is_refused(tmp_path: Path, capsys) -> None:
    source = export(tmp_path, [changed(PULL, "author", {"is_bot": True, "login": "*"})])
    code, _, out, ol = ingest(tmp_path, source)
    assert (
        code == 2 and "[0].author.login: a bot's login cannot hold '*'" in capsys.readouterr().err
    )
    assert not out.exists() and not ol.exists()
