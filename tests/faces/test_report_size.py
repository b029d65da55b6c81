"""``report`` stays small on a long history: concise explanations collapsed until opened, a
graph and lifelines without the rejected candidates, and a capped graph (SPEC §4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import api
from resolver.api import report_page
from tests.caps_histories import AT, busy, openloop, write
from tests.helpers import prepare_text


def _page(text: str, **options) -> str:
    prepared = prepare_text(text, preamble=False)
    return report_page(prepared, api.standpoint("2024-02-01"), use_graphviz=False, **options)


@pytest.fixture(scope="module")
def pages() -> dict[int, str]:
    return {n: _page(busy(n)) for n in (20, 200)}


def test_the_page_grows_slowly_with_the_candidates(pages) -> None:
    growth = len(pages[200]) - len(pages[20])
    assert growth < 180 * 20, growth  # under 20 bytes a candidate: counts, not lines
    uncapped = {n: _page(busy(n), rejected="candidates") for n in (20, 200)}
    assert len(uncapped[200]) - len(uncapped[20]) > 180 * 100  # what the default leaves out


def test_explanations_are_collapsed_and_concise(pages) -> None:
    page = pages[200]
    explanations = page[page.index('id="explanations"') :]
    assert "<details open" not in page
    assert '<details id="explain-0-backups">' in explanations
    assert "... and 197 more rejected candidates" in explanations
    assert all(f"c{n:03d}" in explanations for n in (198, 199, 200))
    assert "c100" not in explanations
    assert "openloop explain ID --full" in explanations
    assert "<script" not in page.lower()


def test_candidates_brings_them_back(tmp_path: Path) -> None:
    folder = write(tmp_path / "history", busy(5))
    target = tmp_path / "page.html"
    done = openloop("report", str(folder), *AT, "--no-graphviz", "--candidates", "-o", str(target))
    assert done.returncode == 0, done.stderr
    page = target.read_text(encoding="utf-8")
    lifelines = page[page.index('id="lifelines"') : page.index('id="explanations"')]
    assert "c003" in lifelines
    plain = tmp_path / "plain.html"
    assert openloop("report", str(folder), *AT, "--no-graphviz", "-o", str(plain)).returncode == 0
    text = plain.read_text(encoding="utf-8")
    assert "c003" not in text[text.index('id="lifelines"') : text.index('id="explanations"')]
    assert len(text) < len(page)


def test_a_capped_graph_says_so_on_the_page(tmp_path: Path) -> None:
    page = _page(busy(5), max_nodes=2)
    graph = page[page.index('id="graph"') : page.index('id="lifelines"')]
    assert '<p class="note">This picture left out' in graph
