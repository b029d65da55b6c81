"""The HTML report: one self-contained page with verdicts, graph, lifelines and explanations."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest

from resolver import api
from resolver.api import report_page
from resolver.cli.main import main
from resolver.faces import dot
from tests.helpers import CHROMIUM, chromium_dom, prepare_text

ROOT = Path(__file__).resolve().parents[2]
RELEASE = str(ROOT / "fixtures" / "release")
EXPECTATIONS = (
    "bench-fixtures",
    "docs-update",
    "event-store-migration",
    "intent-401",
    "staging-backups",
    "tune-041",
)


@pytest.fixture(scope="module")
def release():
    return api.prepare([RELEASE])


@pytest.fixture(scope="module")
def page(release):
    return report_page(release, api.standpoint("2024-08-28"), use_graphviz=False)


class _Tags(HTMLParser):
    """Counts open elements, to check that the page's tags balance."""

    VOID: ClassVar[set[str]] = {"meta", "br", "img", "input", "link", "hr", "path", "rect"}
    VOID |= {"line", "circle", "stop", "polygon", "polyline", "ellipse", "use"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids += [v for k, v in attrs if k == "id" and v]
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.ids += [v for k, v in attrs if k == "id" and v]

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


def balanced(html: str) -> _Tags:
    tags = _Tags()
    tags.feed(html)
    tags.close()
    assert tags.stack == []
    return tags


def test_page_holds_table_lifelines_and_explanations(page):
    assert page.startswith("<!DOCTYPE html>")
    assert '<table class="verdicts">' in page and '<table class="tasks">' in page
    for ident in EXPECTATIONS:
        assert f">{ident}</a>" in page  # a row linking to its explanation
    assert "commit-118" in page and "FALSE_COMPLETION" in page
    assert 'aria-label="lifelines"' in page
    explanations = page[page.index('id="explanations"') :]
    for ident in EXPECTATIONS:
        assert f"<summary>{ident} " in explanations
    assert "intent-401 &#34;Move backups to PostgreSQL before release&#34; is SATISFIED" in page
    tags = balanced(page)
    assert len(tags.ids) == len(set(tags.ids))  # anchors are unique


def test_page_is_self_contained(page):
    assert "<script" not in page.lower()
    assert not re.search(r'(src|href)="(https?:)?//', page)
    assert "<link" not in page


def test_without_graphviz_the_page_says_so_and_carries_mermaid_and_adjacency(page):
    assert "Graphviz was not used" in page
    assert '<pre class="mermaid-source">' in page and "flowchart LR" in page
    assert '<table class="adjacency">' in page
    assert "expectation:intent-401</td><td>closed_by (state)</td><td>event:commit-118" in page


def test_missing_dot_falls_back(release, monkeypatch):
    monkeypatch.setattr(dot.shutil, "which", lambda name: None)
    html = report_page(release, api.standpoint("2024-08-28"))
    assert "dot program was not found" in html and "flowchart LR" in html


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
def test_graph_is_inline_svg_when_dot_is_installed(release):
    html = report_page(release, api.standpoint("2024-08-28"))
    section = html[html.index('id="graph"') : html.index('id="lifelines"')]
    svg = section[section.index("<svg") : section.rindex("</svg>") + len("</svg>")]
    root = ElementTree.fromstring(svg)
    text = "".join(root.itertext())
    assert "closed_by (state)" in text and "supersedes (state)" in text
    assert "<?xml" not in html and "<!DOCTYPE svg" not in html
    assert "#explain-" in svg  # nodes link to their explanations
    balanced(html)


def test_user_text_is_escaped():
    prepared = prepare_text("""
task t { title "<script>alert('task')</script>" opened 2024-01-01 }
expectation x {
  title "<script>alert(1)</script> & \\"quotes\\""
  opened_by e1
  part_of t
}
event e1 { channel sessions at 2024-01-02 by mallory text "<img src=x onerror=alert(2)>" }
event e2 { channel commits at 2024-01-03 by mallory text "<script>x</script> done" }
""")
    for graphviz in (False, True):
        html = report_page(prepared, api.standpoint("2024-02-01"), use_graphviz=graphviz)
        assert "<script" not in html.lower() and "<img" not in html.lower()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        balanced(html)


def test_report_command_writes_the_page(tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", RELEASE, "--at", "2024-08-28", "-o", str(out), "--no-graphviz"]) == 0
    assert "Lifelines" in out.read_text(encoding="utf-8")


def test_bad_input_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.ol"
    bad.write_text("expectation {", encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["report", str(bad), "--at", "2024-08-28", "-o", str(out)]) == 2
    assert "error" in capsys.readouterr().err
    assert not out.exists()
    assert main(["report", RELEASE, "--at", "not-a-time", "-o", str(out)]) == 2
    assert not out.exists()


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium not installed")
def test_chromium_renders_the_page(tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", RELEASE, "--at", "2024-08-28", "-o", str(out)]) == 0
    dom = chromium_dom(out)
    assert '<table class="verdicts">' in dom
    assert 'aria-label="lifelines"' in dom and "<svg" in dom
    assert 'id="explanations"' in dom and "commit-118" in dom


def test_report_carries_snapshot_reasons(tmp_path):
    gap = str(ROOT / "fixtures" / "gap")
    target = tmp_path / "report.html"
    args = ["report", gap, "--at", "2024-08-23", "--no-graphviz", "-o", str(target)]
    assert main([*args, "--snapshot", str(ROOT / "fixtures" / "gap" / "snapshot.json")]) == 0
    assert "possibly completed silently" in target.read_text(encoding="utf-8")
    assert main(args) == 0
    assert "possibly completed silently" not in target.read_text(encoding="utf-8")


def test_graph_edges_carry_the_reason_sentences(release):
    """The report's graph says why a candidate was rejected in words, as ``openloop graph`` does."""
    import html

    from resolver.faces import palette
    from resolver.verdicts import graph as graphs
    from resolver.verdicts.graph import views as graph_views

    point = api.standpoint("2024-08-28")
    drawn = html.unescape(report_page(release, point, rejected="candidates", use_graphviz=False))
    resolution = api.status(release, at="2024-08-28")
    graph = graphs.build(release, resolution, palette.sentences(release.project))
    graph = graph_views.drawable(graph, "candidates")
    sentences = {
        data["detail"]
        for _, _, data in graph.edges(data=True)
        if data.get("kind") == "rejected" and data.get("detail")
    }
    assert len(sentences) > 3, "the fixture has rejected candidates"
    assert [s for s in sorted(sentences) if s not in drawn] == []
