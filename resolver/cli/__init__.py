"""One module per subcommand, each with ``register(subparsers)``; the CLI only dispatches.

To add a command, write ``commands/NAME.py`` with ``register`` (which sets ``func`` via
``set_defaults``) and list it in :data:`COMMANDS`.
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
    "eval",
    "ready",
    "brief",
    "hook",
    "mcp",
    "audit",
    "init",
)
