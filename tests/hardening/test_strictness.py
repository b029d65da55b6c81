"""Mistakes in what users write are bad input or a lint warning, not silent or late failures.

Regressions of issue 17, item 15: ``expect x has nonsense_flag`` ran as a failed assertion
(exit 1) instead of bad input (exit 2), and ``lint`` warned about ``x requires x`` but not about
``x requires y`` with ``y requires x``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.cli.main import main

PREAMBLE = "channel commits work\nactor alice principal\n"


def _write(folder: Path, source: str) -> Path:
    (folder / "h.ol").write_text(PREAMBLE + source, encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", ["test", "lint"])
@pytest.mark.parametrize("step", ["has", "lacks"])
def test_an_unknown_flag_is_bad_input(tmp_path, capsys, command, step):
    folder = _write(
        tmp_path,
        "expectation x { opened 2024-01-01 }\n"
        f'test "t" {{ at 2024-01-02 expect x {step} nonsense_flag }}\n',
    )
    assert main([command, str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{folder / 'h.ol'}:4:") and "unknown flag 'nonsense_flag'" in err
    assert "deadline_passed" in err, "the message lists the flags"


def _warnings(capsys, folder: Path) -> list[str]:
    assert main(["lint", str(folder)]) == 0
    return capsys.readouterr().out.splitlines()


def test_lint_warns_about_a_requires_two_cycle(tmp_path, capsys):
    folder = _write(
        tmp_path,
        "expectation x { opened 2024-01-01 requires y }\n"
        "expectation y { opened 2024-01-01 requires x }\n"
        "event e1 { channel commits at 2024-01-02 }\n",  # commits has an event: no channel warning
    )
    assert _warnings(capsys, folder) == [
        f"{folder / 'h.ol'}:3:1: warning: requires cycle x -> y -> x: "
        "each waits for another to close first"
    ]


def test_lint_warns_once_about_a_longer_cycle_through_a_task(tmp_path, capsys):
    folder = _write(
        tmp_path,
        "task t { opened 2024-01-01 requires a }\n"
        "expectation a { opened 2024-01-01 requires b }\n"
        "expectation b { opened 2024-01-01 requires t }\n"
        "expectation c { opened 2024-01-01 requires a }\n",
    )
    cycles = [w for w in _warnings(capsys, folder) if "requires cycle" in w]
    assert cycles == [
        f"{folder / 'h.ol'}:4:1: warning: requires cycle a -> b -> t -> a: "
        "each waits for another to close first"
    ]


def test_lint_is_quiet_about_a_chain(tmp_path, capsys):
    folder = _write(
        tmp_path,
        "expectation x { opened 2024-01-01 requires y }\nexpectation y { opened 2024-01-01 }\n",
    )
    assert not [w for w in _warnings(capsys, folder) if "cycle" in w]
