"""openloop: what did we leave unfinished?

Expectations (obligations about a future state transition) live beside an append-only,
bitemporal event log; clingo rules in ``rules/*.lp`` derive each expectation's status at any
standpoint. The pipeline reads from the package names: ``language`` → ``facts`` → ``engine``
→ ``verdicts`` → ``faces``; :mod:`resolver.api` holds one plain function per command, and its
public names are this package's too (``resolver.prepare``, ``resolver.status``, ...), imported
when first used so that ``import resolver`` stays cheap for every command.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: The public surface: the version and every name of :mod:`resolver.api` (whose package holds
#: only this list and its lazy imports, so reading it here costs nothing).
__all__ = ["__version__", *importlib.import_module("resolver.api").__all__]


def __getattr__(name: str) -> Any:
    """The public names of :mod:`resolver.api`, imported when first asked for (PEP 562)."""
    if name.startswith("_") or name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module("resolver.api"), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
