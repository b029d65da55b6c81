"""``openloop lint``: static checks; warnings keep exit 0 (1 with --strict), errors exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import api
from resolver.cli.main import main
from resolver.language.loader import load_with_warnings
from resolver.verdicts.lint import lint
from tests.helpers import PREAMBLE


def warnings_for(tmp_path: Path, source: str, jsonl: str | None = None) -> list[str]:
    (tmp_path / "h.ol").write_text(PREAMBLE + source, encoding="utf-8")
    if jsonl is not None:
        (tmp_path / "events.jsonl").write_text(jsonl, encoding="utf-8")
    project, loaded = load_with_warnings([tmp_path])
    return [str(d) for d in lint(project, loaded)]


OK = "event e1 { channel commits at 2024-07-01 }\n"

CASES = [
    ("expectation x { opened_by nope }", "opened_by names nope, which is no event"),
    ("expectation x { opened 2024-07-01 before rel }", "before names rel, which is not in the log"),
    ("expectation x { opened 2024-07-01 requires y }", "requires names y, which is no declared"),
    ("expectation x { opened 2024-07-01 part_of t }", "part_of names t, which is no declared task"),
    (
        "expectation x { opened 2024-07-01 search issues }",
        "search channel issues has no event in the log",
    ),
    ("expectation x { opened 2024-07-01 search sessions }", "is a mention channel"),
    ("expectation x { opened 2024-07-01 verify state }", "`verify state` but no `want`"),
    ("expectation x { opened 2024-07-01 opened_by e1 }", "both `opened` and `opened_by`"),
    ('expectation x { title "no opening" }', "x has no opening"),
    ("expectation x { opened 2024-07-01 principal bot }", "principal bot is declared an agent"),
    (
        "event e2 { channel commits at 2024-07-02 cancels ghost }",
        "cancels names ghost, which is no declared expectation or task",
    ),
    (
        "task t { opened 2024-07-01 } event e2 { channel commits at 2024-07-02 completes t }",
        "`completes` does not spread",
    ),
    (
        'expectation x { opened 2024-07-01 } test "t" { at 2024-07-02 expect y open }',
        "expect names y, which is no declared expectation",
    ),
    (
        'test "t" { at 2024-07-02 expect finding false_completion ghost }',
        "expect finding names ghost, which is no event",
    ),
    ("channel commits work", "duplicate declaration of channel 'commits'"),
]


@pytest.mark.parametrize(("source", "message"), CASES, ids=[m[:30] for _, m in CASES])
def test_each_warning(tmp_path, source, message):
    found = warnings_for(tmp_path, OK + source)
    assert any(message in w for w in found), found
    assert all(": warning: " in w for w in found)


def test_clean_history_has_no_warnings(tmp_path):
    source = (
        OK + 'expectation x { opened_by e1 want k = "v" part_of t }\ntask t { opened 2024-07-01 }'
    )
    assert warnings_for(tmp_path, source) == []


def test_task_opening_counts(tmp_path):
    source = OK + 'task t { opened 2024-07-01 obligation o { title "o" } }'
    assert not any("no opening" in w for w in warnings_for(tmp_path, source))


def test_locations_point_into_files(tmp_path):
    found = warnings_for(
        tmp_path,
        OK,
        jsonl='{"id": "j", "channel": "commits", "at": "2024-07-01", "waives": "ghost"}\n',
    )
    assert found == [
        f"{tmp_path}/events.jsonl:1: warning: j: waives names ghost, which is no "
        "declared expectation or task"
    ]


def test_cli_exit_codes(tmp_path, capsys):
    (tmp_path / "h.ol").write_text(
        PREAMBLE + OK + "expectation x { opened_by nope }", encoding="utf-8"
    )
    assert main(["lint", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{tmp_path}/h.ol:") and ": warning: " in captured.out
    assert "1 warning in 1 file" in captured.err
    assert main(["lint", str(tmp_path), "--strict"]) == 1
    (tmp_path / "h.ol").write_text(PREAMBLE + "expectation x { want }", encoding="utf-8")
    assert main(["lint", str(tmp_path)]) == 2
    assert ": error: " in capsys.readouterr().err


def test_release_fixture_is_clean(capsys):
    assert main(["lint", "fixtures/release", "--strict"]) == 0


# --- what lint reads from the rules' atoms (roles, openings) ----------------------------------


def test_a_principal_an_agent_pattern_matches_is_an_agent(tmp_path):
    """``acts_as``: a ``by`` matched by an agent pattern is an agent, unless declared plainly."""
    source = (
        'actor "*-bot@example.com" agent\n'
        "event e1 { channel commits at 2024-07-01 by ci-bot@example.com }\n"
        "event e2 { channel commits at 2024-07-01 by release-bot@example.com }\n"
        "actor release-bot@example.com principal\n"
        "expectation x { opened_by e1 principal ci-bot@example.com }\n"
        "expectation y { opened_by e1 principal release-bot@example.com }\n"
    )
    found = [w for w in warnings_for(tmp_path, source) if "agents never have authority" in w]
    assert len(found) == 1 and "principal ci-bot@example.com is declared an agent" in found[0]


def test_sessions_declared_work_is_searched_like_any_work_channel(tmp_path):
    """``mention``: the sessions channel is a mention channel unless declared work."""
    (tmp_path / "h.ol").write_text(
        "channel sessions work\n"
        "event s1 { channel sessions at 2024-07-01 }\n"
        "expectation x { opened 2024-07-01 search sessions }\n",
        encoding="utf-8",
    )
    project, loaded = load_with_warnings([tmp_path])
    assert [d.message for d in lint(project, loaded)] == []
    (tmp_path / "h.ol").write_text(
        "event s1 { channel sessions at 2024-07-01 }\n"
        "expectation x { opened 2024-07-01 search sessions }\n",
        encoding="utf-8",
    )
    project, loaded = load_with_warnings([tmp_path])
    assert any("is a mention channel" in d.message for d in lint(project, loaded))


def test_an_obligation_opens_with_its_task_or_not_at_all(tmp_path):
    """``never_opens``: an obligation without an opening inherits its task's, if it has one."""
    source = OK + (
        'task t { title "t" obligation o { title "o" } }\n'
        'task u { opened_by e1 obligation p { title "p" } }\n'
    )
    found = [w for w in warnings_for(tmp_path, source) if "has no opening" in w]
    assert len(found) == 1 and "o has no opening" in found[0]


@pytest.mark.parametrize(
    "fixture", ["release", "support-mission/base", "policies", "mentions", "four-futures/open"]
)
def test_the_declarations_alone_derive_what_lint_reads(fixture):
    """lint solves the prepare part over the declarations only: the atoms it reads are the ones
    the whole preparation derives."""
    from resolver import api
    from resolver.verdicts.lint import declared_atoms

    prepared = api.prepare([f"fixtures/{fixture}"])
    alone = declared_atoms(prepared.facts)
    for name in ("mention", "acts_as", "pattern_applies", "never_opens"):
        assert sorted(alone.get(name)) == sorted(prepared.core.get(name)), name


def test_a_declared_work_channel_without_events_is_warned_about(tmp_path):
    source = "channel issues work\nexpectation x { opened 2024-07-01 want a = 1 }\n"
    found = [w for w in warnings_for(tmp_path, source + OK) if "channel issues" in w]
    assert len(found) == 1
    assert found[0].startswith(f"{tmp_path}/h.ol:6:1: warning: channel issues is declared but ")
    assert "INCOMPLETE_SEARCH instead of CORROBORATED_OPEN" in found[0]
    # what it says is what the rules do: the open expectation's search is incomplete
    (tmp_path / "h.ol").write_text(PREAMBLE + source + OK, encoding="utf-8")
    resolution = api.status(api.prepare([tmp_path]), at="2024-07-02")
    assert resolution.expectation("x").confidence == "INCOMPLETE_SEARCH"


def test_no_channel_warning_when_every_expectation_names_its_search(tmp_path):
    source = "channel issues work\nexpectation x { opened 2024-07-01 want a = 1 search commits }\n"
    assert not [w for w in warnings_for(tmp_path, source + OK) if "channel issues" in w]
    # a mention channel is never searched by default
    source = "channel chat mention\nexpectation x { opened 2024-07-01 want a = 1 }\n"
    assert not [w for w in warnings_for(tmp_path, source + OK) if "channel chat" in w]
