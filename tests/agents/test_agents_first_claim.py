"""A session's first claim after ``status`` filled the store: the identity's declaration is read
from its kept parse, never by the grammar's parser, and reads exactly as the parser would; after
a stop that claims nothing, the first claim is a lookup with the answer a solve gives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agent_helpers import claims, openloop, payload

from resolver.agents import identity, warm
from resolver.agents.hook import Call, Options, judge
from resolver.engine import prepared as engine
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


def _settle(history: Path, limit: float = 60.0) -> None:
    """Wait for the hook's detached warm-up (it keeps the hook's command line) to end."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        running = False
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and entry.name != str(os.getpid()):
                try:
                    line = (entry / "cmdline").read_bytes()
                except OSError:
                    continue
                running = running or (str(history).encode() in line and b"hook" in line)
        if not running:
            return
        time.sleep(0.05)
    raise AssertionError("the warm-up did not end")


@pytest.mark.parametrize("name", ["stop_question.json", "session_start.json"])
def test_a_session_start_or_a_stop_that_claims_nothing_warms_the_first_claim(
    history: Path, cache: Path, tmp_path: Path, monkeypatch, name: str
):
    env = {**os.environ, "OPENLOOP_CACHE_DIR": str(cache)}
    assert openloop("status", history, env=env).returncode in (0, 1)
    before = (history / "events.jsonl").read_bytes()
    stop = payload(f"claude-code/{name}", history.parent)
    done = openloop("hook", "claude-code", "--task", "release-7", history, stdin=stop, env=env)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    _settle(history)
    assert (history / "events.jsonl").read_bytes() == before  # nothing recorded
    assert list(cache.glob("scan-*.json"))  # the log's scan kept for the claim's append
    plain, solves = _plain_and_solves(history, tmp_path, monkeypatch)
    at = int(time.time())
    kept = judge(CLAIM, Options("release-7", [history], at=at))
    assert solves == []  # the prepared group and the claim's answer were kept by the warm-up
    cold = judge(CLAIM, Options("release-7", [plain], use_cache=False, at=at))
    assert solves == ["prepare", "standpoint"]
    assert (kept.action, kept.status) == (cold.action, cold.status)
    assert kept.action == "refuse"
    assert kept.reason == cold.reason.replace(str(plain), str(history))
    assert [c["id"] for c in claims(history)] == [kept.claim]


def _plain_and_solves(history: Path, tmp_path: Path, monkeypatch) -> tuple[Path, list[str]]:
    """A copy of ``history`` to judge without the store, and the parts solved from now on."""
    plain = tmp_path / "plain"
    shutil.copytree(history, plain)
    solves: list[str] = []
    real = engine._solve
    monkeypatch.setattr(
        engine, "_solve", lambda parts, part: solves.append(part) or real(parts, part)
    )
    return plain, solves


@pytest.mark.parametrize("offset", [0, 1, 5])
def test_a_next_claim_soon_after_a_claim_is_a_lookup(
    history: Path, cache: Path, tmp_path: Path, monkeypatch, offset: int
):
    """The warm-up after a claim asks the next claim's question at the claim's second, the next
    and after now: a claim made in the same second, or the one after, finds it kept too."""

    def at_once(paths, scope=None, then=None, prepare=None):  # the warm-up, without a fork
        ready = warm.load_prepared(paths, scope=scope) if prepare is None else prepare()
        if then is not None:
            then(ready)

    at = int(time.time())
    monkeypatch.setattr(warm, "warm_in_background", at_once)
    judge(CLAIM, Options("release-7", [history], at=at))
    monkeypatch.setattr(warm, "warm_in_background", lambda *args, **kwargs: None)
    plain, solves = _plain_and_solves(history, tmp_path, monkeypatch)
    kept = judge(CLAIM, Options("release-7", [history], at=at + offset))
    assert solves == []
    cold = judge(CLAIM, Options("release-7", [plain], use_cache=False, at=at + offset))
    assert (kept.action, kept.status) == (cold.action, cold.status) == ("refuse", "UNKNOWN")
    assert kept.reason == cold.reason.replace(str(plain), str(history))
