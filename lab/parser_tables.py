"""``python -m lab.parser_tables``: write the grammar's LALR tables shipped with the package.

Run it after editing ``grammar/openloop.lark`` (or upgrading Lark): it builds the parser from
the grammar exactly as ``resolver/language/parser.py`` would, and writes what
:func:`resolver.language.parser_tables.document` gives to
``resolver/language/tables/openloop.json``. Lark numbers its states differently in every
process, so the file is rewritten only when it is stale: when its grammar digest, its Lark
version or its tables (compared by :func:`~resolver.language.parser_tables.canonical`) differ
from a fresh build's. ``tests/language/test_parser_tables.py`` fails while the file is stale; a
process finding a stale file builds the parser from the grammar instead (slower, same parses).
``--check`` only says whether the file is current (exit 1 if not).
"""

from __future__ import annotations

import argparse
import sys

from resolver.language.keywords import ascii_keywords
from resolver.language.parser_tables import TABLES, document, stale
from resolver.resources import grammar_text


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the tables file; exit 0, or 1 when it is stale."""
    parser = argparse.ArgumentParser(
        prog="python -m lab.parser_tables",
        description="Write resolver/language/tables/openloop.json from the grammar.",
    )
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if stale")
    args = parser.parse_args(argv)
    grammar = ascii_keywords(grammar_text())
    why = stale(grammar)
    if args.check or why is None:
        print(f"stale: {why}" if why else f"current: {TABLES}")
        return 1 if why else 0
    TABLES.parent.mkdir(parents=True, exist_ok=True)
    text = document(grammar)
    TABLES.write_text(text, encoding="utf-8")
    print(f"wrote {TABLES} ({len(text):,} bytes): {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
