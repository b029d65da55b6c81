"""One importer run judged by the property every importer holds (issue 29, SPEC §6.2).

An input either imports (exit 0) and what was written reads back through the same loader every
command uses (:func:`resolver.language.loader.load`), or it is refused with exit 2, one
``SOURCE...: error: ...`` line naming the input, and no output file. Never a traceback, never a
log that later commands refuse. Shared by the importer tests and the importer fuzzer.
"""

from __future__ import annotations

import traceback
from pathlib import Path

from resolver.errors import InputError
from resolver.language.loader import load
from tests.fuzz.test_crash_fuzz import _problem, _run


def import_problem(argv: list[str], source: Path, outputs: list[Path]) -> str | None:
    """Run ``openloop`` with ``argv`` (which writes ``outputs``); what went wrong, or None."""
    for output in outputs:
        output.unlink(missing_ok=True)
    code, _, err = _run(argv)
    problem = _problem(code, err)
    if problem is not None:
        return f"{problem}\n{err}"
    if code == 2:
        if not err.startswith(f"{source}:") or ": error: " not in err:
            return f"the refusal does not name {source}: {err!r}"
        written = [str(o) for o in outputs if o.exists()]
        return f"written despite the error: {written}" if written else None
    if code != 0:
        return f"exit {code}: {err}"
    written = [o for o in outputs if o.exists()]
    try:
        load(written)
    except InputError as exc:
        return f"the reader refuses what the importer wrote: {exc}"
    except Exception:  # a traceback while reading back is as bad as one while writing
        return f"reading back crashed:\n{traceback.format_exc()}"
    return None
