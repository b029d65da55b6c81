"""The dependency and provenance graph: its nodes and edges, every export, and the lifelines.

The release fixture at 2024-08-28 is the reference picture: commit-118 closes the backup
migration at tier state, commit-116 supersedes the SQLite tuning work, alice's adr-008 cancels
the staging backups, and commit-115 is a rejected candidate.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import networkx as nx
import pytest

from resolver import api
from resolver.api import pictures
from resolver.cli import graph as graph_command
from resolver.cli.main import main
from resolver.faces import dot, lifelines, mermaid, palette
from resolver.verdicts import graph as graphs
from resolver.verdicts.graph import views as graph_views
from tests.helpers import prepare_text

ROOT = Path(__file__).resolve().parents[2]
RELEASE = str(ROOT / "fixtures" / "release")
X, E, T, A = "expectation:", "event:", "task:", "actor:"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")


@pytest.fixture(scope="module")
def release():
    return api.prepare([RELEASE])


@pytest.fixture(scope="module")
def g(release):
    return graphs.build(
        release, api.status(release, at="2024-08-28"), palette.sentences(release.project)
    )


def edge(graph: nx.MultiDiGraph, source: str, target: str, kind: str) -> dict:
    """The attributes of the one edge of ``kind`` from source to target (fails when absent)."""
    found = [
        a for _, v, a in graph.out_edges(source, data=True) if v == target and a["kind"] == kind
    ]
    assert len(found) == 1, f"expected one {kind} edge {source} -> {target}, found {found}"
    return found[0]


# --- nodes and edges of the release fixture ---------------------------------------------------


def test_nodes_are_prefixed_by_kind_and_carry_verdicts(g):
    expectations = {n for n, k in g.nodes(data="kind") if k == "expectation"}
    assert expectations == {
        X + i
        for i in (
            "bench-fixtures",
            "docs-update",
            "event-store-migration",
            "intent-401",
            "staging-backups",
            "tune-041",
        )
    }
    assert g.nodes[T + "release-prep"]["status"] == "COMPLETE"
    backup = g.nodes[X + "intent-401"]
    assert (backup["status"], backup["closed_by"], backup["tier"]) == (
        "SATISFIED",
        "commit-118",
        "state",
    )
    assert backup["closed_at"] == "2024-08-27T10:00:00Z"
    assert backup["bound"] == "2024-08-30T00:00:00Z"
    assert g.nodes[E + "commit-118"]["channel"] == "commits"
    assert g.nodes[A + "bot-7"]["role"] == "agent"
    assert g.graph == {"at": "2024-08-28T00:00:00Z", "known": "2024-08-28T00:00:00Z"}


def test_commit_118_closes_the_backup_migration_at_tier_state(g):
    closing = edge(g, X + "intent-401", E + "commit-118", "closed_by")
    assert closing["tier"] == "state" and closing["current"] is True
    assert g.has_edge(X + "intent-401", E + "commit-118", key="closed_by")
    edge(g, X + "intent-401", E + "session-051", "opened_by")
    edge(g, E + "commit-118", A + "bob", "by")


def test_tuning_task_superseded_by_the_migration_commit(g):
    assert g.nodes[X + "tune-041"]["status"] == "SUPERSEDED"
    assert edge(g, E + "commit-116", X + "tune-041", "supersedes")["via"] == "state"
    assert edge(g, X + "event-store-migration", E + "commit-116", "closed_by")["tier"] == "state"


def test_staging_backups_cancelled_by_the_principal(g):
    assert g.nodes[X + "staging-backups"]["status"] == "CANCELLED"
    cancel = edge(g, E + "adr-008", X + "staging-backups", "cancels")
    assert cancel["via"] == "marker" and cancel["effective"] is True
    edge(g, E + "adr-008", A + "alice", "by")
    edge(g, A + "alice", X + "staging-backups", "principal_of")


def test_commit_115_is_a_rejected_candidate_with_its_reason(g):
    rejected = edge(g, E + "commit-115", X + "intent-401", "rejected")
    assert rejected["reason"] == "no_done_cue"
    assert rejected["effective"] is False and rejected["candidate"] is True
    assert rejected["detail"].startswith("commit-115 ")
    # claim-9 claims its task complete: markers outrank text, so it is no text link (SPEC 3)
    assert not any(v == X + "intent-401" for _, v in g.out_edges(E + "claim-9"))


def test_the_data_graph_holds_codes_and_the_faces_phrase_them(release):
    """Without a face's phrase the edges carry their codes only; the sentence is the faces'."""
    bare = graphs.build(release, api.status(release, at="2024-08-28"))
    rejected = edge(bare, E + "commit-115", X + "intent-401", "rejected")
    assert rejected["reason"] == "no_done_cue" and "detail" not in rejected


def test_a_close_that_came_too_late_is_rejected_not_closing(g):
    late = edge(g, E + "commit-116", X + "docs-update", "rejected")
    assert late["reason"] == "already_closed" and late["candidate"] is True
    assert not g.has_edge(X + "docs-update", E + "commit-116")


def test_structure_and_what_an_obligation_blocks(g):
    edge(g, X + "intent-401", X + "event-store-migration", "requires")
    edge(g, X + "intent-401", T + "release-prep", "part_of")
    assert graph_views.blocked_by(g, "event-store-migration") == ["intent-401"]
    assert graph_views.blocked_by(g, "intent-401") == []


def test_false_completion_claim(g):
    claim = edge(g, E + "claim-9", T + "release-prep", "claims")
    assert claim["finding"] == "FALSE_COMPLETION" and claim["outstanding"] == ("intent-401",)


def test_only_visible_events_appear(release):
    # commit-118 happened at 10:00 but was recorded at 10:05.
    before = graphs.build(release, api.status(release, at="2024-08-27T10:02"))
    assert E + "commit-118" not in before
    assert before.nodes[X + "intent-401"]["status"] == "OPEN"
    hindsight = graphs.build(release, api.status(release, at="2024-08-27T10:02", known="latest"))
    assert E + "commit-118" in hindsight
    early = graphs.build(release, api.status(release, at="2024-07-01"))
    assert early.nodes[X + "intent-401"]["status"] == "NOT_OPENED"
    assert not [n for n in early.nodes if n.startswith(E) and early.nodes[n]["at"] > "2024-07-01"]


def test_proposal_and_reopening_edges():
    prepared = prepare_text("""
expectation x {
  title "Move backups to PostgreSQL"
  opened_by open-1
  want backup.backend = "PostgreSQL"
}
event open-1 { channel sessions at 2024-07-17 text "backups still on sqlite" }
event c1 { channel commits at 2024-08-01 by alice set backup.backend = "PostgreSQL" }
event c2 { channel commits at 2024-08-02 by bob set backup.backend = "SQLite" }
event p1 { channel commits at 2024-08-03 by bot cancels x }
""")
    g = graphs.build(prepared, api.status(prepared, at="2024-08-10"))
    assert g.nodes[X + "x"]["status"] == "OPEN"
    assert "reopened" in g.nodes[X + "x"]["flags"]
    undone = edge(g, X + "x", E + "c1", "closed_by")
    assert undone["current"] is False and undone["tier"] == "state"
    assert edge(g, E + "c2", X + "x", "reopens")["how"] == "contradiction"
    proposal = edge(g, E + "p1", X + "x", "proposal")
    assert proposal["marker"] == "cancels" and proposal["effective"] is False


# --- focus ------------------------------------------------------------------------------------


def test_focus_keeps_one_expectations_neighbourhood(g):
    near = graph_views.focus(g, "intent-401")
    assert {
        X + "intent-401",
        T + "release-prep",
        X + "event-store-migration",
        E + "commit-118",
        E + "session-051",
        E + "commit-115",
        A + "bob",
    } <= set(near)
    # adr-008 shares one word ("backups") with it: no link (SPEC 3)
    assert X + "tune-041" not in near and E + "adr-008" not in near
    required = graph_views.focus(g, "event-store-migration")
    assert X + "intent-401" in required  # requires, both ways
    with pytest.raises(KeyError):
        graph_views.focus(g, "no-such-thing")


def test_focus_on_an_unknown_id_is_exit_2(tmp_path, capsys):
    out = tmp_path / "g.dot"
    assert main(["graph", RELEASE, "--at", "2024-08-28", "--focus", "nope", "-o", str(out)]) == 2
    assert "nope" in capsys.readouterr().err
    assert not out.exists()


def test_drawable_keeps_rejections_of_open_expectations_only(release):
    g = graphs.build(release, api.status(release, at="2024-08-23"))
    drawn = graph_views.drawable(g)
    rejected = {(u, v) for u, v, k in drawn.edges(data="kind") if k == "rejected"}
    assert (E + "commit-115", X + "intent-401") in rejected
    assert all(v == X + "intent-401" for _, v in rejected)
    assert not [
        1 for _, _, k in graph_views.drawable(g, "none").edges(data="kind") if k == "rejected"
    ]
    assert graph_views.drawable(g, "all").number_of_edges() == g.number_of_edges()


# --- exports ----------------------------------------------------------------------------------


def export(graph, form: str, **kwargs) -> str:
    return graph_command.render(graph, form, **kwargs)


def test_dot_parses_back_through_pydot(g):
    pydot = pytest.importorskip("pydot")
    (parsed,) = pydot.graph_from_dot_data(export(g, "dot"))
    names = {n.get_name().strip('"') for n in parsed.get_nodes()}
    assert {X + "intent-401", E + "commit-118", T + "release-prep", A + "alice"} <= names
    edges = {
        (e.get_source().strip('"'), e.get_destination().strip('"')): e for e in parsed.get_edges()
    }
    # closed_by is written event -> expectation with dir=back, keeping the left-to-right ranks.
    closing = edges[(E + "commit-118", X + "intent-401")]
    assert closing.get("label").strip('"') == "closed_by (state)"
    assert closing.get("dir").strip('"') == "back"
    assert edges[(E + "adr-008", X + "staging-backups")].get("label").strip('"') == "cancels"


def test_dot_escapes_user_text():
    pydot = pytest.importorskip("pydot")
    prepared = prepare_text(
        'expectation x { title "Say \\"hi\\" \\\\ <b>bold</b> next" opened 2024-01-01 }'
    )
    g = graphs.build(prepared, api.status(prepared, at="2024-02-01"))
    (parsed,) = pydot.graph_from_dot_data(dot.render(g))
    label = parsed.get_node('"expectation:x"')[0].get("label")
    assert 'Say \\"hi\\" \\\\ <b>bold</b>' in label  # quotes and the backslash escaped


def test_graphml_parses_back_with_scalar_attributes(g):
    text = export(g, "graphml")
    back = nx.read_graphml(_write(text), force_multigraph=True)
    assert back.nodes[X + "intent-401"]["status"] == "SATISFIED"
    assert back.nodes[T + "release-prep"]["kind"] == "task"
    kinds = {(u, v, a["kind"]) for u, v, a in back.edges(data=True)}
    assert (X + "intent-401", E + "commit-118", "closed_by") in kinds
    assert (E + "commit-115", X + "intent-401", "rejected") in kinds
    assert back.number_of_edges() == g.number_of_edges()


def _write(text: str) -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "g.graphml"
    path.write_text(text, encoding="utf-8")
    return path


def test_node_link_json_parses_back(g):
    data = json.loads(export(g, "json"))
    back = nx.node_link_graph(data, directed=True, multigraph=True, edges="edges")
    assert set(back.nodes) == set(g.nodes)
    assert back.number_of_edges() == g.number_of_edges()
    assert back.edges[X + "intent-401", E + "commit-118", "closed_by"]["tier"] == "state"
    assert back.nodes[X + "intent-401"]["flags"] == []


def test_mermaid_is_a_well_formed_flowchart(g):
    text = export(g, "mermaid")
    lines = text.splitlines()
    assert lines[:4] == ["---", lines[1], "---", "flowchart LR"]
    defined = set()
    edges = []
    depth = 0
    for line in lines[4:]:
        stripped = line.strip()
        if stripped.startswith("subgraph"):
            depth += 1
        elif stripped == "end":
            depth -= 1
        elif depth:
            assert stripped.startswith(("legend_", "direction")), stripped
        elif link := re.fullmatch(r'(n\d+) (-->|-\.->|==>|-\.-)(\|"[^"]*"\|)? (n\d+)', stripped):
            edges.append((link.group(1), link.group(4)))
        elif node := re.match(r"(n\d+)[\[(]", stripped):
            defined.add(node.group(1))
        if '"' in stripped:
            assert stripped.count('"') % 2 == 0, stripped
    assert depth == 0
    assert edges and all(a in defined and b in defined for a, b in edges)
    labels = [ln for ln in lines if "intent-401" in ln]
    assert labels and "SATISFIED · state" in labels[0]
    assert any("closed_by (state)" in ln for ln in lines)
    assert len([ln for ln in lines if ln.strip().startswith("linkStyle")]) == len(edges)


def test_mermaid_escapes_user_text():
    prepared = prepare_text(
        'expectation x { title "a \\"quote\\" <script>x</script> [b] | c" opened 2024-01-01 }'
    )
    g = graphs.build(prepared, api.status(prepared, at="2024-02-01"))
    line = next(ln for ln in mermaid.render(g).splitlines() if "quote" in ln)
    assert "<script>" not in line and "#lt;script#gt;" in line and "#quot;quote#quot;" in line
    assert line.count('"') == 2


@needs_dot
def test_svg_is_well_formed_xml(tmp_path):
    out = tmp_path / "g.svg"
    assert main(["graph", RELEASE, "--at", "2024-08-28", "--format", "svg", "-o", str(out)]) == 0
    root = ElementTree.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = "".join(root.itertext())
    assert "intent-401" in text and "closed_by (state)" in text and "SUPERSEDED" in text


def test_svg_without_graphviz_is_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(dot.shutil, "which", lambda name: None)
    out = tmp_path / "g.svg"
    assert main(["graph", RELEASE, "--at", "2024-08-28", "--format", "svg", "-o", str(out)]) == 2
    assert "graphviz" in capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_every_format_from_the_command_line(tmp_path):
    for form in ("dot", "mermaid", "graphml", "json", "lifelines"):
        out = tmp_path / f"g.{form}"
        args = ["graph", RELEASE, "--at", "2024-08-28", "--format", form, "-o", str(out)]
        assert main(args) == 0, form
        assert "intent-401" in out.read_text(encoding="utf-8"), form
    focused = tmp_path / "focus.json"
    assert (
        main(
            [
                "graph",
                RELEASE,
                "--at",
                "2024-08-28",
                "--focus",
                "tune-041",
                "--format",
                "json",
                "-o",
                str(focused),
            ]
        )
        == 0
    )
    nodes = {n["id"] for n in json.loads(focused.read_text())["nodes"]}
    assert X + "tune-041" in nodes and X + "intent-401" not in nodes


# --- lifelines --------------------------------------------------------------------------------


def test_lifelines_svg_is_well_formed_with_one_row_per_expectation(release):
    resolution = api.status(release, at="2024-08-23")
    drawn = graphs.build(release, resolution, palette.sentences(release.project))
    svg = lifelines.render(release.project, resolution, drawn)
    root = ElementTree.fromstring(svg)
    rows = [
        el.get("data-id")
        for el in root.iter("{http://www.w3.org/2000/svg}g")
        if el.get("class") == "lifeline"
    ]
    assert sorted(rows) == sorted(v.id for v in resolution.expectations)
    assert "standpoint 2024-08-23 00:00" in svg
    assert "commit-115: commit-115 shares words" in svg  # the rejected candidate's tick
    ticks = lifelines.ticks_of(graphs.build(release, resolution), "intent-401")
    assert {t.event: t.role for t in ticks}["commit-115"] == "rejected"


def test_lifelines_mark_gaps_and_escape_text():
    prepared = prepare_text("""
expectation x { title "<script>alert(1)</script>" opened 2024-07-01 deadline 2024-07-20 }
event c1 { channel commits seq 1 at 2024-07-02 text "unrelated" }
event c3 { channel commits seq 3 at 2024-07-05 text "unrelated" }
""")
    resolution = api.status(prepared, at="2024-08-01")
    svg = lifelines.render(prepared.project, resolution, graphs.build(prepared, resolution))
    ElementTree.fromstring(svg)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "commits: seq 2 missing" in svg and "url(#ol-hatch)" in svg
    assert "(deadline passed)" in svg


def test_pictures_without_candidates_read_only_the_key_reasons(capsys, monkeypatch) -> None:
    """Without rejected candidates a picture is drawn from the key reasons alone (a cheaper
    solve): every picture is the one drawn from every reason; the data formats and the
    pictures with candidates still ask for every reason."""
    from resolver.cli.main import main

    history = str(Path(__file__).resolve().parents[2] / "fixtures" / "release")
    asked: list[bool] = []
    solve = pictures.resolve

    def spy(prepared, point, query, *args, **kwargs):
        asked.append(query.every_reason)
        return solve(prepared, point, query, *args, **kwargs)

    def every(prepared, point, query, *args, **kwargs):
        return solve(prepared, point, replace(query, every_reason=True), *args, **kwargs)

    argvs = [
        ["graph", history, "--at", at, "--format", form, *extra]
        for at in ("2024-08-23", "2024-08-28")
        for form in ("dot", "mermaid", "lifelines")
        for extra in ([], ["--max-nodes", "3"])
    ]
    monkeypatch.setattr(pictures, "resolve", spy)
    cheap = []
    for argv in argvs:
        main(argv)
        cheap.append(capsys.readouterr().out)
    assert asked == [False] * len(argvs)
    main(["graph", history, "--at", "2024-08-23", "--format", "json"])
    main(["graph", history, "--at", "2024-08-23", "--candidates"])
    capsys.readouterr()
    assert asked[len(argvs) :] == [True, True]
    monkeypatch.setattr(pictures, "resolve", every)
    for argv, picture in zip(argvs, cheap, strict=True):
        main(argv)
        assert capsys.readouterr().out == picture, argv
