"""The pytest plugin: ``.ol`` test blocks collected and run as pytest items."""

from __future__ import annotations

from importlib.metadata import entry_points

from tests.helpers import PREAMBLE

pytest_plugins = ["pytester"]

HISTORY = (
    PREAMBLE
    + """
expectation x { title "Move backups" opened 2024-07-01 want backup.backend = "PostgreSQL" }
event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }
"""
)

GOOD = 'test "closed by c1" { at 2024-08-02 expect x satisfied by c1 tier state }\n'
BAD = 'test "wrong on purpose" { at 2024-07-15 expect x satisfied }\n'


def _args() -> list[str]:
    """Load the plugin explicitly only where the entry point is not installed."""
    names = {ep.name for ep in entry_points(group="pytest11")}
    return ["-p", "no:cacheprovider"] + (
        [] if "openloop" in names else ["-p", "resolver.testing.pytest_plugin"]
    )


def test_collects_one_item_per_block(pytester):
    pytester.makefile(".ol", history=HISTORY + GOOD + GOOD.replace("closed by", "still closed by"))
    result = pytester.runpytest("--collect-only", "-q", *_args())
    result.stdout.fnmatch_lines(["history.ol::closed by c1", "history.ol::still closed by c1"])


def test_passing_and_failing_blocks(pytester):
    pytester.makefile(".ol", history=HISTORY + GOOD + BAD)
    result = pytester.runpytest(*_args())
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            '*history.ol:*: test "wrong on purpose": 1 of 1 assertions failed*',
            "*expect x satisfied*",
            "*expected: SATISFIED*",
            "*actual:   OPEN*",
            "*why:*",
        ]
    )


def test_folder_is_the_history_and_blocks_are_collected_once(pytester):
    # Declarations, events and tests in three files of one folder: each block once.
    pytester.makefile(
        ".ol",
        decl=HISTORY.replace(
            'event c1 { channel commits at 2024-08-01 set backup.backend = "PostgreSQL" }', ""
        ),
    )
    pytester.makefile(
        ".jsonl",
        events='{"id": "c1", "channel": "commits", "at": "2024-08-01", '
        '"set": {"backup.backend": "PostgreSQL"}}\n',
    )
    pytester.makefile(".ol", first=GOOD, second=GOOD.replace("closed by", "again closed by"))
    result = pytester.runpytest("-v", *_args())
    result.assert_outcomes(passed=2)


def test_bad_history_is_a_collection_error(pytester):
    pytester.makefile(".ol", history=HISTORY + 'test "t" { at 2024-08-02 expect x finished }')
    result = pytester.runpytest(*_args())
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*openloop could not load*error:*"])


def test_files_without_tests_are_not_collected(pytester):
    pytester.makefile(".ol", history=HISTORY)
    result = pytester.runpytest("--collect-only", "-q", *_args())
    assert "history.ol" not in result.stdout.str()
