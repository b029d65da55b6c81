"""The words of an explanation: a tree built in ``resolver/verdicts/explanation`` is phrased here.

One concern in several modules, so they share a folder: ``text.py`` phrases a tree and renders
it as text and JSON (re-exported here), ``phrases.py`` holds one sentence per kind of step of an
expectation, and ``words.py`` the phrasing both share (openings, markers, times).
"""

from resolver.faces.explanation.text import (
    line,
    phrase,
    render_text,
    to_document,
    to_json,
    why_not_line,
)

__all__ = ["line", "phrase", "render_text", "to_document", "to_json", "why_not_line"]
