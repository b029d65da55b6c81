"""Start-up: a command imports what it needs; ``openloop --help`` lists every command without
importing any of them (and so none of clingo, Lark, networkx or Jinja2)."""

from __future__ import annotations

import json
import subprocess
import sys

from resolver.cli.main import build_parser

HEAVY = ("clingo", "lark", "networkx", "jinja2", "mcp", "dask")


def imported(argv: list[str]) -> list[str]:
    """The heavy packages a run of ``openloop ARGV`` imported, in a fresh interpreter."""
    code = (
        "import json, sys\n"
        "from resolver.cli.main import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & set(heavy))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_listing_is_what_the_commands_register():
    assert build_parser(listing=True).format_help() == build_parser().format_help()


def test_help_imports_no_command():
    assert imported(["--help"]) == []
    assert imported(["no-such-command"]) == []
