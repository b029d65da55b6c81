"""Where the compiled grammar is kept between runs.

Building Lark's LALR tables for ``grammar/openloop.lark`` costs about a third of a command's CPU
time on a small history (0.1 s of 0.3 s), which an agent's hook pays on every call. Lark can
cache the analysed grammar itself (its ``cache`` option: the file starts with a digest of the
grammar, the options and the Lark and Python versions, and a file that does not match or does
not load is rebuilt and rewritten without a word). This module only chooses the file: one in
the user's cache folder (:func:`resolver.resources.cache_dir`, made private if it is new),
never the shared temporary directory Lark would use by default, since the file is unpickled. A
folder that cannot be made or written turns the cache off; the parser is then built each time.
"""

from __future__ import annotations

import hashlib
import os

from resolver.resources import cache_dir


def grammar_cache(grammar: str) -> str | bool:
    """Lark's ``cache`` option for ``grammar``: a file named by the grammar's digest in the
    cache folder, or False when the folder cannot be used."""
    folder = cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return str(folder / f"grammar-{digest}.lark")
