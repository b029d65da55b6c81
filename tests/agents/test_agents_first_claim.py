"""A session's first claim after ``status`` filled the store: the identity's declaration is read
from its kept parse, never by the grammar's parser, and reads exactly as the parser would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.agents import identity, warm
from resolver.agents.hook import Call, Options, judge
from resolver.language import parser
from resolver.store import parsed

NAMES = ("agent", "bot-7", "ci.bot@example.org", "_x:y/z+w", "Ünïcode-bot")
CLAIM = Call("claim", "TaskCompleted", "s-1")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder; no background warm-up (it would fork the test process)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    monkeypatch.setattr(warm, "warm_in_background", lambda *args, **kwargs: None)
    return folder


@pytest.mark.parametrize("name", NAMES)
def test_the_declarations_parse_is_the_parsers(name: str, cache: Path):
    path = identity.declaration_file(name)
    assert identity.declared(path, name) == parser.parse_file(path)


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file the grammar's parser reads from now on."""
    seen: list[str] = []
    real = parser.parse_file

    def recording(name):
        seen.append(str(name))
        return real(name)

    monkeypatch.setattr(parser, "parse_file", recording)
    return seen


@pytest.mark.parametrize("name", NAMES[:3])
def test_a_kept_declaration_is_read_without_the_parser(name: str, cache: Path, monkeypatch):
    path = identity.declaration_file(name)
    identity.keep_parse(path, name)
    seen = _parses(monkeypatch)
    with parsed.keeping():
        assert parsed.parse_file(str(path)) == identity.declared(path, name)
    assert seen == []


def test_a_changed_kept_parse_is_written_again(cache: Path, monkeypatch):
    path = identity.declaration_file("agent")
    identity.keep_parse(path, "agent")
    (entry,) = cache.glob("parsed-*.json")
    forged = entry.read_text(encoding="utf-8").replace('"role":"agent"', '"role":"principal"')
    assert forged != entry.read_text(encoding="utf-8")
    entry.write_text(forged, encoding="utf-8")
    with parsed.keeping():
        assert parsed.parse_file(str(path)).actors[0].role == "principal"  # what was forged
    identity.keep_parse(path, "agent")
    with parsed.keeping():
        assert parsed.parse_file(str(path)) == identity.declared(path, "agent")


def test_the_first_claim_after_status_parses_no_file(history: Path, cache: Path, monkeypatch):
    done = subprocess.run(
        [sys.executable, "-m", "resolver", "status", str(history)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "OPENLOOP_CACHE_DIR": str(cache)},
    )
    assert done.returncode in (0, 1), done.stderr
    seen = _parses(monkeypatch)
    decision = judge(CLAIM, Options("release-7", [history], use_cache=True))
    assert decision.action == "refuse" and "release-7/deploy" in decision.reason
    assert seen == []


def test_the_answer_is_the_uncached_answer(history: Path, cache: Path):
    kept = judge(CLAIM, Options("release-7", [history], use_cache=True, at=1_800_000_000))
    plain = judge(CLAIM, Options("release-7", [history], use_cache=False, at=1_800_000_000))
    assert (kept.action, kept.status, kept.reason) == (plain.action, plain.status, plain.reason)
    lines = (history / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["channel"] for x in lines[-2:]] == ["agent", "agent"]
