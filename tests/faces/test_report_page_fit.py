"""The report's header counts what the page shows, and the page fits a 1280 px window."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from resolver.cli.main import main
from tests.helpers import CHROMIUM, chromium_dom

ROOT = Path(__file__).resolve().parents[2]
TODO_DEBT = str(ROOT / "fixtures" / "policies" / "todo-debt")


def _report(tmp_path: Path, *paths: str) -> str:
    out = tmp_path / "report.html"
    assert main(["report", *paths, "--at", "2030-01-01", "--no-graphviz", "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_header_counts_policy_instances(tmp_path):
    """A history whose items all come from a policy declares none itself; the header must
    still count the four instances the verdict table lists."""
    page = _report(tmp_path, TODO_DEBT)
    header = re.search(r"Derived by the clingo rules of openloop: (.*?)\.", page).group(1)
    rows = page.count('<tr><td><a href="#explain-')
    assert rows == 4
    assert header.startswith("4 expectations (4 from policies) and 0 tasks shown")


def test_header_counts_declared_items(tmp_path):
    page = _report(tmp_path, str(ROOT / "fixtures" / "release"))
    header = re.search(r"Derived by the clingo rules of openloop: (.*?)\.", page).group(1)
    assert "from policies" not in header
    assert header.startswith("6 expectations and 1 task shown")


def _long_history(tmp_path: Path) -> Path:
    """A policy whose instance ids and flags are far wider than a line of the table."""
    folder = tmp_path / "wide"
    folder.mkdir()
    deep = "/".join(["a-rather-long-directory-name"] * 6)
    (folder / "policy.ol").write_text(
        "channel commits work\n"
        "policy todo-removed-from-a-long-policy-name {\n"
        '  title "Resolve the TODO in $1"\n'
        '  when set todo.* = "open"\n'
        '  want $key = "removed"\n'
        "  deadline 2020-01-02\n"
        "}\n",
        encoding="utf-8",
    )
    lines = []
    for n in range(3):
        key = f"todo.{deep}/module_{n}_with_a_long_file_name.py:{n:08x}"
        event = {
            "id": f"commit-{n:012d}",
            "channel": "commits",
            "seq": n + 1,
            "at": f"2020-01-0{n + 1}T10:00:00Z",
            "by": "someone@example.com",
            "text": "add a TODO",
            "set": {key: "open"},
        }
        lines.append(json.dumps(event))
    (folder / "commits.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium not installed")
def test_page_fits_1280_px(tmp_path):
    page = _report(tmp_path, str(_long_history(tmp_path)))
    # The page runs no script; the test adds one that writes the laid-out width into the DOM.
    probe = (
        "<script>window.addEventListener('load', () => { document.body.setAttribute("
        "'data-width', String(document.documentElement.scrollWidth)); });</script></body>"
    )
    measured = tmp_path / "measured.html"
    measured.write_text(page.replace("</body>", probe), encoding="utf-8")
    dom = chromium_dom(measured, "--window-size=1280,900")
    width = int(re.search(r'data-width="(\d+)"', dom).group(1))
    assert width <= 1280, f"the page is {width} px wide"
