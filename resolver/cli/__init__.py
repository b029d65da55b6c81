"""One module per subcommand, each with ``register(subparsers)``; the CLI only dispatches.

A command's module keeps its arguments, the choice of face and the exit code; every answer
comes from :mod:`resolver.api` (``tests/test_layout.py`` holds the CLI to it). To add a
command, write its function in the API, then ``resolver/cli/NAME.py`` with ``register`` (which
sets ``func`` via ``set_defaults``), list it in :data:`COMMANDS` and give it a summary line in
``resolver.cli.main.SUMMARIES``.
"""

COMMANDS = (
    "status",
    "explain",
    "check",
    "test",
    "lint",
    "receipt",
    "graph",
    "report",
    "bench",
    "ingest",
    "record",
    "ledger",
    "ready",
    "brief",
    "hook",
    "mcp",
    "audit",
    "init",
)
