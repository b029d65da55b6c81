"""Kept parses of ``.ol`` files: the same project as parsing, a miss whenever not exactly that,
and a warm command that never builds the grammar's parser."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.language.parser import parse_file as parse
from resolver.store import parsed

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.ol"))


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(folder))
    with parsed.keeping():
        yield folder


def test_outside_a_store_read_nothing_is_kept(tmp_path, cache):
    from resolver.language.loader import load

    path = tmp_path / "h"
    path.mkdir()
    (path / "a.ol").write_text('expectation x { title "X" opened 2024-01-01 }\n')
    token = parsed._KEEPING.set(False)  # as a library call or a test loads files
    try:
        assert load([path]).expectations[0].id == "x"
    finally:
        parsed._KEEPING.reset(token)
    assert not list(cache.glob("parsed-*.json"))
    assert load([path]).expectations[0].id == "x"  # within a store read: kept
    assert len(list(cache.glob("parsed-*.json"))) == 1


def test_every_fixture_reads_back_as_it_parses(cache):
    assert len(FIXTURES) > 20
    for path in FIXTURES:
        name = str(path)
        assert parsed.parse_file(name) == parse(name)  # parsed, and kept when it can be
        assert parsed.parse_file(name) == parse(name)  # read back
    assert len(list(cache.glob("parsed-*.json"))) > 20


@pytest.mark.parametrize(
    "entry",
    [
        "not json",
        '{"channels": {"(": [{"$": "Popen", "args": "true"}]}}',
        '{"channels": [1, 2]}',
        "",
    ],
)
def test_a_foreign_or_torn_entry_is_parsed_again(tmp_path, cache, entry):
    path = tmp_path / "a.ol"
    path.write_text('channel c work\nexpectation x { title "X" opened 2024-01-01 }\n')
    expected = parse(str(path))
    parsed.parse_file(str(path))
    (kept,) = cache.glob("parsed-*.json")
    kept.write_text(entry, encoding="utf-8")
    assert parsed.parse_file(str(path)) == expected


def test_an_edit_replaces_the_entry_and_an_error_is_never_kept(tmp_path, cache):
    path = tmp_path / "a.ol"
    path.write_text('expectation x { title "X" opened 2024-01-01 }\n')
    first = parsed.parse_file(str(path))
    path.write_text('expectation x { title "Y" opened 2024-01-01 }\n')
    assert parsed.parse_file(str(path)).expectations[0].title == "Y" != first.expectations[0].title
    path.write_text("expectation x { title }\n")
    for _ in range(2):
        with pytest.raises(Exception, match=r"a\.ol:1"):
            parsed.parse_file(str(path))
    assert len(list(cache.glob("parsed-*.json"))) == 1  # the edit replaced the first


def test_a_warm_command_never_builds_the_grammars_parser(cache):
    history = str(ROOT / "fixtures" / "release")
    code = (
        "import json, sys\n"
        "from resolver.cli.main import main\n"
        f"main(['ready', {history!r}, '--at', '2024-08-23', '--format', 'json'])\n"
        "names = ('resolver.language.parser', 'resolver.language.builder')\n"
        "print(json.dumps([n for n in names if n in sys.modules]))\n"
    )
    env = {"OPENLOOP_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    cold, warm = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert cold == ["resolver.language.parser", "resolver.language.builder"]
    assert warm == []
