"""Every output format of every command parses with a strict parser of its kind, on a hostile
history whose strings hold ESC sequences, BEL, NUL, bidirectional overrides, newlines, raw HTML
and XML terminators.

Regressions of issue 17, items 12, 13 and 14: GraphML, the lifelines SVG and JUnit XML were not
well-formed, raw ESC bytes reached the terminal (an id could overwrite an earlier row with a
forged ``SATISFIED``), and Markdown passed ``<img onerror=...>`` through.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.dom.minidom
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from resolver.cli.main import build_parser, main

HOSTILE_OL = (
    "channel commits work\n"
    "actor alice principal\n"
    'task t1 { title "T\x1b[1A\x1b[2K<img src=x onerror=alert(1)>" opened 2024-01-01 '
    "principal alice\n"
    '  obligation o1 { title "O \x07\x1b]0;pwn\x07 ]]> & \u202e\x00 --> <!--" '
    'want k = "v\x1b<b>" verify state } }\n'
    'expectation x1 { title "X\x1b[2KSATISFIED <script>alert(1)</script>" opened 2024-01-01 '
    'want k2 = "<img src=x onerror=alert(2)>\x1b" verify state }\n'
    'test "hostile \x1b[2K name" { at 2024-02-01 expect x1 satisfied expect task t1 complete }\n'
)
HOSTILE_EVENTS = [
    {
        "id": "e1",
        "channel": "commits",
        "seq": 1,
        "at": "2024-01-02T00:00:00Z",
        "by": "alice",
        "text": "done \x1b[1A\x1b[2KSATISFIED\nFORGED: all good <img src=x onerror=alert(3)>",
        "set": {"k": "v\x1b<b>"},
        "completes": ["o1"],
    },
    {
        "id": "e2",
        "channel": "commits",
        "seq": 3,
        "at": "2024-01-03T00:00:00Z",
        "text": "x1 not yet \x00\x08 \u2028 line",
        "set": {"k2": "nope\x00\n<i>"},
        "claims_complete": ["x1"],
    },
]
AT = "2024-02-01"
# What a terminal must never be handed from user text: every control but newline, and the rest.
_RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "hostile.ol").write_text(HOSTILE_OL, encoding="utf-8")
    lines = "".join(json.dumps(e) + "\n" for e in HOSTILE_EVENTS)
    (folder / "events.jsonl").write_text(lines, encoding="utf-8")
    return folder


def _formats(command: str) -> tuple[str, ...]:
    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    parser = subparsers.choices[command]
    option = next((a for a in parser._actions if "--format" in a.option_strings), None)
    return tuple(option.choices) if option is not None else ("",)


def _cases() -> list[tuple[str, list[str], str]]:
    base = {
        "status": [],
        "explain": ["x1"],
        "check": [],
        "receipt": ["t1"],
        "graph": ["--known", "latest"],
        "ready": [],
        "brief": [],
    }
    cases = []
    for command, extra in base.items():
        try:
            formats = _formats(command)
        except KeyError:
            continue
        for form in formats:
            if form == "svg" and shutil.which("dot") is None:
                continue
            cases.append((command, extra, form))
    return cases


def _check_terminal(text: str) -> None:
    found = _RAW_CONTROL.search(text)
    assert found is None, f"raw control character {found.group()!r} in human output"
    for line in text.splitlines():
        assert not line.startswith("FORGED"), "a user newline started a line of its own"


def _check_markdown(text: str) -> None:
    _check_terminal(text)
    tokens = MarkdownIt("commonmark").parse(text)
    stack = list(tokens)
    while stack:
        token = stack.pop()
        assert token.type not in ("html_block", "html_inline"), f"raw HTML: {token.content!r}"
        stack.extend(token.children or [])


def _check_xml(text: str) -> None:
    xml.dom.minidom.parseString(text.encode("utf-8"))  # expat: strict XML 1.0


def _check_html(text: str) -> None:
    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            names = {name for name, _ in attrs}
            assert not any(name.startswith("on") for name in names), (tag, attrs)

        def handle_data(self, data):
            if self.lasttag == "script":
                assert "alert(" not in data

    Tags().feed(text)


def _checker(command: str, form: str):
    if form in ("json", "sarif"):
        return json.loads
    if form == "md" or (command == "receipt" and form == ""):
        return _check_markdown
    if form in ("graphml", "svg", "lifelines"):
        return _check_xml
    return _check_terminal


@pytest.mark.parametrize(("command", "extra", "form"), _cases())
def test_every_format_parses_strictly(hostile, capsys, command, extra, form):
    args = [command, *extra, str(hostile), "--at", AT]
    if form:
        args += ["--format", form]
    code = main(args)
    captured = capsys.readouterr()
    assert code in (0, 1, 3), captured.err
    assert "Traceback" not in captured.err
    _checker(command, form)(captured.out)


def test_explain_why_not_is_terminal_safe(hostile, capsys):
    assert main(["explain", "o1", str(hostile), "--at", AT, "--why-not", "satisfied"]) == 0
    _check_terminal(capsys.readouterr().out)


def test_test_output_and_junit_are_safe(hostile, tmp_path, capsys):
    junit = tmp_path / "junit.xml"
    assert main(["test", str(hostile), "--junit", str(junit)]) == 1
    _check_terminal(capsys.readouterr().out)
    _check_xml(junit.read_text(encoding="utf-8"))


def test_lint_output_is_terminal_safe(hostile, capsys):
    assert main(["lint", str(hostile)]) == 0
    captured = capsys.readouterr()
    _check_terminal(captured.out)
    _check_terminal(captured.err)


def test_report_runs_no_script(hostile, tmp_path, capsys):
    page = tmp_path / "report.html"
    assert main(["report", str(hostile), "--at", AT, "-o", str(page)]) == 0
    _check_html(page.read_text(encoding="utf-8"))


def test_graphml_loads_back_into_networkx(hostile, tmp_path, capsys):
    import networkx as nx

    target = tmp_path / "graph.graphml"
    assert main(["graph", str(hostile), "--at", AT, "--format", "graphml", "-o", str(target)]) == 0
    graph = nx.read_graphml(target)
    titles = [d.get("title", "") for _, d in graph.nodes(data=True)]
    assert any("\\x1b" in str(t) for t in titles), "the ESC is kept, visibly"


def test_an_escape_sequence_in_a_title_is_shown_not_obeyed(hostile, capsys):
    assert main(["check", str(hostile), "--at", AT]) == 3  # x1 is UNKNOWN: seq 2 is missing
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert '"X\\x1b[2KSATISFIED <script>alert(1)</script>"' in out


def test_error_messages_are_terminal_safe(tmp_path, capsys):
    (tmp_path / "events.jsonl").write_text('{"id": "e", "\\u001b[2Kbad": 1}\n', encoding="utf-8")
    assert main(["status", str(tmp_path), "--at", AT]) == 2
    _check_terminal(capsys.readouterr().err)
