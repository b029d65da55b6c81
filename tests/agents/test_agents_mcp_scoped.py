"""The MCP server's calls about one item answer from that item's group, exactly as the whole.

``check(task=...)`` and ``explain(id)`` prepare only the item's group (what the CLI's commands
about one item prepare), so that a call after a ``record`` does not prepare every policy
instance again. Their documents must be those of the whole history, byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from resolver import api
from resolver.agents.mcp_server import History
from resolver.errors import InputError
from resolver.faces.explanation.text import to_document
from resolver.faces.json_format import to_dict as status_dict

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HISTORIES = ["release", "support-mission/base", "policies", "four-futures", "self", "late-news"]
STANDPOINTS = [(None, "latest"), ("2024-01-02T12:00:00Z", None), ("2030-01-01T00:00:00Z", None)]


def _dump(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=True)


def _explained(prepared, point, item: str) -> str:
    """The explain document of ``item``, or the error the call answers with."""
    try:
        return _dump(to_document(api.explain(prepared, point, item, None, full=True), item, point))
    except InputError as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("name", HISTORIES)
def test_a_call_about_one_item_answers_as_the_whole_history(name: str):
    history = History([FIXTURES / name])
    whole = history.current()
    items = [t.id for t in whole.project.tasks]
    listed = status_dict(api.status(whole, None, "latest"), whole.project)["expectations"]
    items += [x["id"] for x in listed][:8]  # policy instances too: no group, the whole history
    assert items, f"{name} declares nothing to ask about"
    for at, known in STANDPOINTS:
        point = api.standpoint(at, known)
        for task in (t.id for t in whole.project.tasks):
            scoped = history.current(task)
            assert scoped is not whole
            assert _dump(api.check_document(scoped, point, task, None)) == _dump(
                api.check_document(whole, point, task, None)
            )
        for item in items:
            scoped = history.current(item)
            assert _explained(scoped, point, item) == _explained(whole, point, item)


def test_a_changed_file_lets_go_of_every_scope(tmp_path: Path):
    folder = tmp_path / "h"
    folder.mkdir()
    for source in (FIXTURES / "release").iterdir():
        (folder / source.name).write_bytes(source.read_bytes())
    history = History([folder])
    task = history.current().project.tasks[0].id
    before = history.current(task)
    assert history.current(task) is before  # kept while the files stay as they were
    log = next(folder.glob("*.jsonl"))
    with log.open("a", encoding="utf-8") as stream:
        late = {"id": "late-1", "at": "2024-01-03T00:00:00Z", "channel": "deploys", "by": "ops"}
        stream.write(json.dumps({**late, "text": "noted"}) + "\n")
    assert history.current(task) is not before
