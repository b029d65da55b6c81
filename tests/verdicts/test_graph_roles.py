"""Actors in the graph carry the role the rules give them (``acts_as``, rules/prepare/roles.lp).

A ``by`` matched by an actor pattern is drawn as an agent in every face (the data graph, DOT,
Mermaid, GraphML, JSON), and a plain declaration of the same actor wins over the pattern.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.faces import dot, mermaid
from resolver.verdicts import graph as graphs
from resolver.verdicts.graph import views as graph_views

AT = "2024-09-01"
HISTORY = """
channel commits work
actor "*-bot@example.com" agent
actor release-bot@example.com principal
event s1 { channel commits seq 1 at 2024-08-01 by alice text "Bump the lock file" }
event c1 { channel commits seq 2 at 2024-08-02 by ci-bot@example.com completes bump }
event c2 { channel commits seq 3 at 2024-08-03 by release-bot@example.com completes pin }
expectation bump { title "Bump the lock file" opened_by s1 verify explicit }
expectation pin { title "Pin the parser version" opened_by s1 verify explicit }
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("roles")
    (path / "history.ol").write_text(HISTORY, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def graph(folder):
    prepared = api.prepare([folder])
    return graphs.build(prepared, api.status(prepared, at=AT))


def test_a_pattern_makes_an_agent_and_a_plain_declaration_wins(graph):
    roles = {a["id"]: a["role"] for _, a in graph.nodes(data=True) if a["kind"] == "actor"}
    assert roles == {
        "ci-bot@example.com": "agent",  # matched by the pattern only
        "release-bot@example.com": "principal",  # matched too, but declared plainly
        "alice": None,  # neither declared nor matched
    }
    # what the roles mean, from the same rules: the agent's completes is only a claim
    assert graph.nodes["expectation:bump"]["status"] == "OPEN"
    assert graph.nodes["expectation:pin"]["status"] == "SATISFIED"


def test_the_pictures_draw_the_bot_as_an_agent(graph):
    drawn = graph_views.drawable(graph, "all")  # the bot's claim is a rejected candidate
    text = dot.render(drawn)
    assert '"actor:ci-bot@example.com" [label="ci-bot@example.com\\nagent"' in text
    assert '"actor:release-bot@example.com" [label="release-bot@example.com\\nprincipal"' in text
    assert "ci-bot@example.com<br/>agent" in mermaid.render(drawn)


def _run(folder: Path, form: str, capsys) -> str:
    assert main(["graph", str(folder), "--at", AT, "--format", form]) == 0
    return capsys.readouterr().out


def test_the_exports_hold_the_rules_role(folder, capsys):
    nodes = {n["id"]: n for n in json.loads(_run(folder, "json", capsys))["nodes"]}
    assert nodes["actor:ci-bot@example.com"]["role"] == "agent"
    assert nodes["actor:release-bot@example.com"]["role"] == "principal"
    root = ElementTree.fromstring(_run(folder, "graphml", capsys))
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    role_key = next(k.get("id") for k in root.iterfind("g:key", ns) if k.get("attr.name") == "role")
    roles = {
        n.get("id"): d.text
        for n in root.iterfind(".//g:node", ns)
        for d in n.iterfind("g:data", ns)
        if d.get("key") == role_key
    }
    assert roles["actor:ci-bot@example.com"] == "agent"
    assert roles["actor:release-bot@example.com"] == "principal"
    assert "actor:alice" not in roles  # no role: left out of GraphML
