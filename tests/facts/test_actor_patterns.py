"""Actor patterns (SPEC §3, fine points): ``actor "*[bot]@users.noreply.github.com" agent``.

A quoted pattern declares every ``by`` it matches (``*`` = any characters, everything else
literal); a plain declaration of the same actor wins; ``lint`` names the values each matched.
"""

from __future__ import annotations

import json
import subprocess
import sys

from resolver import api
from resolver.facts.actor_patterns import compile_pattern
from tests.helpers import prepare_text, verdict

AT = "2024-09-01"
BOT = "49699333+dependabot[bot]@users.noreply.github.com"

_HISTORY = """
channel commits work
actor "*[bot]@users.noreply.github.com" agent
actor "*-bot@example.com" agent
event s1 { channel commits seq 1 at 2024-08-01 by alice text "Bump the lock file" }
expectation bump { title "Bump the lock file" opened_by s1 verify explicit }
"""


def _prepare(extra: str = "", by: str = BOT, marker: str = "completes"):
    """The history with one event by ``by`` (a JSON line: e-mails like the bot's are not
    identifiers of the language) carrying ``marker bump``."""
    line = json.dumps(
        {
            "id": "c1",
            "channel": "commits",
            "seq": 2,
            "at": "2024-08-02T00:00:00Z",
            "by": by,
            marker: ["bump"],
        }
    )
    return prepare_text(_HISTORY + extra, jsonl=line + "\n", preamble=False)


def test_the_pattern_is_literal_but_for_the_star():
    pattern = compile_pattern("*[bot]@users.noreply.github.com")
    assert pattern.fullmatch(BOT)
    assert pattern.fullmatch("[bot]@users.noreply.github.com")
    assert not pattern.fullmatch("b@users.noreply.github.com")
    assert not pattern.fullmatch(BOT + ".evil")
    assert compile_pattern("a.b").fullmatch("a.b") and not compile_pattern("a.b").fullmatch("axb")


def test_a_bot_matched_by_a_pattern_is_an_agent():
    found = verdict(api.status(_prepare(), at=AT), "bump")
    # an agent's `completes` is only a textual claim, below `verify explicit`
    assert found.status == "OPEN"
    assert "claimed_unverified" in found.flags


def test_a_plain_declaration_wins_over_the_pattern():
    by = "release-bot@example.com"
    assert verdict(api.status(_prepare(by=by), at=AT), "bump").status == "OPEN"
    found = verdict(api.status(_prepare(f"actor {by} principal\n", by=by), at=AT), "bump")
    assert (found.status, found.closed_by, found.tier) == ("SATISFIED", "c1", "explicit")


def test_an_actor_no_pattern_matches_is_an_ordinary_actor():
    found = verdict(api.status(_prepare(by="carol@example.com"), at=AT), "bump")
    assert (found.status, found.tier) == ("SATISFIED", "explicit")


def test_a_pattern_agent_has_no_authority_to_cancel():
    found = verdict(api.status(_prepare(marker="cancels"), at=AT), "bump")
    assert found.status == "OPEN"
    assert ("proposal", "c1") in {(r.code, r.event) for r in found.reasons}


def test_a_principal_pattern_gives_authority_over_expectations_without_principals():
    source = """
    channel commits work
    actor "*@example.com" principal
    actor bob agent
    event s1 { channel commits seq 1 at 2024-08-01 by bob text "owed" }
    event c1 { channel commits seq 2 at 2024-08-02 by bob cancels x }
    event c2 { channel commits seq 3 at 2024-08-03 by carol@example.com cancels x }
    expectation x { title "Something owed" opened_by s1 }
    """
    found = verdict(api.status(prepare_text(source, preamble=False), at=AT), "x")
    assert (found.status, found.closed_by) == ("CANCELLED", "c2")


def _lint(folder) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "resolver", "lint", str(folder), "--strict"],
        capture_output=True,
        text=True,
        check=False,
    )


def _write(folder, extra: str = "", by: str = BOT) -> None:
    (folder / "h.ol").write_text(_HISTORY + extra, encoding="utf-8")
    lines = [
        {"id": f"c{n}", "channel": "commits", "seq": n + 2, "at": "2024-08-02T00:00:00Z", "by": b}
        for n, b in enumerate([by, "dependabot[bot]@users.noreply.github.com"])
    ]
    (folder / "e.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), "utf-8")


def test_lint_names_the_values_each_pattern_matched(tmp_path):
    _write(tmp_path, 'actor "*@nowhere.invalid" agent\n')
    done = _lint(tmp_path)
    lines = done.stdout.splitlines()
    note = next(line for line in lines if "note:" in line and "[bot]" in line)
    assert 'actor pattern "*[bot]@users.noreply.github.com" (agent) matches 2 `by` values' in note
    assert BOT in note and ", dependabot[bot]@users.noreply.github.com" in note
    assert any(
        '"*@nowhere.invalid" matches no `by`' in line for line in lines if "warning:" in line
    )
    assert done.returncode == 1  # the warnings, not the note, fail --strict


def test_lint_says_which_values_a_plain_declaration_took(tmp_path):
    _write(tmp_path, "actor release-bot@example.com principal\n", by="release-bot@example.com")
    done = _lint(tmp_path)
    assert "declared plainly, so not by the pattern: release-bot@example.com" in done.stdout
    assert not [line for line in done.stdout.splitlines() if "warning:" in line], done.stdout
    assert done.returncode == 0
