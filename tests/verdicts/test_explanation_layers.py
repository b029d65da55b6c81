"""The explanation in two layers: a tree read from the atoms (verdicts/), its words (faces/).

The tree holds what each step is about and no sentence; a face phrases it. The HTML report is
filled in from a Jinja2 template shipped in the package, with autoescaping on.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources

from resolver import api
from resolver.api import report_page as page
from resolver.faces.explanation import text as explanation_text
from resolver.faces.explanation.text import line, phrase, render_text, to_json
from resolver.verdicts import caps
from resolver.verdicts.explanation import Node, explain_at, key_reason_of, walk
from tests.helpers import prepare_text

HISTORY = """
task t { title "Ship" opened 2024-07-01 }
expectation x {
  title "Move backups to <b>PostgreSQL</b>"
  opened_by open-1
  part_of t
  want backup.backend = "PostgreSQL"
}
event open-1 { channel sessions at 2024-07-17T09:00 text "backups still on sqlite" }
event c1 { channel commits at 2024-07-18 by bob text "tidy the backup scripts we move" }
event c2 { channel commits at 2024-07-19 by bob set backup.backend = "PostgreSQL" }
"""


def test_the_tree_holds_no_words_and_a_face_gives_every_step_its_sentence() -> None:
    history = prepare_text(HISTORY)
    tree = explain_at(history, api.standpoint("2024-09-01"), "x", "cancelled")
    assert {node.text for node in walk(tree)} == {""}  # built from atoms, not phrased
    phrased = phrase(tree)
    assert all(node.text for node in walk(phrased))
    assert [n.kind for n in walk(phrased)] == [n.kind for n in walk(tree)]
    assert phrased.text.startswith('x "Move backups to <b>PostgreSQL</b>" is SATISFIED')
    # Rendering phrases first, so a tree as built and a phrased one read the same.
    assert render_text(tree) == render_text(phrased)
    assert to_json(tree) == to_json(phrased)
    assert explanation_text.why_not_line(tree).startswith("it is SATISFIED, closed by c2")


def test_a_text_already_set_is_kept() -> None:
    history = prepare_text(HISTORY)
    tree = explain_at(history, api.standpoint("2024-09-01"), "x")
    kept = Node("omitted", "... and 3 more", code="omitted")
    phrased = phrase(replace(tree, children=(*tree.children, kept)))
    assert phrased.children[-1].text == "... and 3 more"


def test_the_key_reason_is_a_step_phrased_in_one_line() -> None:
    history = prepare_text(HISTORY)
    resolution = api.status(history, at="2024-09-01")
    step = key_reason_of(history, resolution, "x")
    assert (step.kind, step.code, step.event, step.text) == ("key_reason", "closed", "c2", "")
    assert line(step) == "closed by c2, tier state at 2024-07-19T00:00:00Z"
    assert line(key_reason_of(history, resolution, "t")) == "every obligation is closed (1)"


def test_the_concise_tree_keeps_its_counts_when_phrased() -> None:
    history = prepare_text(HISTORY)
    resolution = api.status(history, at="2024-09-01")
    tree = caps.concise(history, resolution, explain_at(history, api.standpoint("2024-09-01"), "x"))
    text = render_text(tree)
    assert "c2" in text and "candidates: 2 visible events touch it" in text


def test_the_report_template_ships_in_the_package_and_escapes_user_text() -> None:
    template = resources.files("resolver.faces") / "templates" / "report.html.j2"
    assert template.is_file()
    history = prepare_text(HISTORY)
    html = page(history, api.standpoint("2024-09-01"), use_graphviz=False)
    assert "<b>PostgreSQL</b>" not in html
    assert "&lt;b&gt;PostgreSQL&lt;/b&gt;" in html
    assert '<details id="explain-0-x"><summary>x <span class="status"' in html
    assert "task t" in html and html.startswith("<!DOCTYPE html>")
