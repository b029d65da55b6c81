"""`openloop --help` lists each command by the summary in ``resolver.cli.main.SUMMARIES``
(without importing it); that summary must be the one the command registers for itself."""

from __future__ import annotations

import argparse

from resolver.cli import COMMANDS
from resolver.cli.main import SUMMARIES, build_parser


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: choice.help for choice in action._choices_actions}


def test_every_command_has_its_own_summary_in_the_listing() -> None:
    assert set(SUMMARIES) == set(COMMANDS)
    registered = _helps(build_parser())
    assert registered == {name: SUMMARIES[name] for name in COMMANDS}
    assert _helps(build_parser(listing=True)) == registered
