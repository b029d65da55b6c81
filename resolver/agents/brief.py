"""``openloop brief``: what is owed, most urgent first, in a token budget (SPEC §8).

Meant to be put in front of an agent at session start or after its context was compacted. The
urgency class of each owed expectation (overdue, ready, unknown, waiting, not opened) is derived
by ``rules/query/ready.lp``; the key reason of each line by ``rules/query/explain.lp``; false
completions and false pendings by ``rules/standpoint/tasks.lp``. This module orders lines by
class, then bound, then id, and stops before the budget is spent. User text (titles, actors)
is spelled with :func:`~resolver.faces.safe_text.visible`, so no title starts a line of its own.

Tokens are counted approximately, as ``ceil(characters / 4)`` per line (with its newline): the
usual rate for English text and identifiers under the byte-pair tokenizers language models
use. No tokenizer is loaded, so the count is cheap and the same everywhere; it errs a little
high on plain English, a little low on long hexadecimal ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from resolver.engine.prepared import Prepared, Standpoint
from resolver.faces.explanation import text as explanation_text
from resolver.faces.safe_text import visible
from resolver.times import format_time
from resolver.verdicts.explanation import key_reason_of
from resolver.verdicts.resolution import Resolution, resolve

#: Query facts: the gate over everything (key reasons) and the ready/urgency rules.
BRIEF_QUERY = "gate_all.\nready_query.\n"
#: Default budget in tokens.
DEFAULT_BUDGET = 800
#: Characters per token in the approximate count.
CHARS_PER_TOKEN = 4


def tokens(text: str) -> int:
    """The approximate token count of ``text``: ceil(characters / 4)."""
    return -(-len(text) // CHARS_PER_TOKEN)


@dataclass(frozen=True)
class Brief:
    """The lines of a brief and what was left out."""

    lines: tuple[str, ...]
    omitted: int
    used: int
    budget: int

    def text(self) -> str:
        """The brief as text."""
        return "\n".join(self.lines) + "\n"


def _entries(prepared: Prepared, resolution: Resolution) -> list[str]:
    """One line per finding, then per owed expectation, most urgent first."""
    item = prepared.facts.item_id
    waiting: dict[str, list[str]] = {}
    for x, y in resolution.atoms.get("waiting_on"):
        waiting.setdefault(item(x), []).append(item(y))
    lines = []
    for f in resolution.findings:
        if f.kind == "FALSE_COMPLETION":
            owed = ", ".join(f.outstanding) or "-"
            lines.append(f"FALSE CLAIM {f.event} by {_who(f.by)}: {f.target} done; owed {owed}")
        else:
            lines.append(f"FALSE PENDING {f.event} by {_who(f.by)}: {f.target} was done")
    ranked = []
    for x, rank, word in resolution.atoms.get("urgency"):
        verdict = resolution.expectation(item(x))
        assert verdict is not None
        ranked.append((rank, verdict.bound is None, verdict.bound or 0, verdict.id, str(word)))
    for _, _, _, ident, word in sorted(ranked):
        verdict = resolution.expectation(ident)
        assert verdict is not None
        head = f"{word.upper().replace('_', ' ')} {ident}"
        if verdict.title:
            head += f' "{visible(verdict.title)}"'
        if verdict.bound is not None:
            head += f" by {format_time(verdict.bound)}"
        if word == "waiting":
            head += f": waits on {', '.join(sorted(waiting.get(ident, [])))}"
        elif word != "not_opened":
            head += (
                f": {visible(explanation_text.line(key_reason_of(prepared, resolution, ident)))}"
            )
        lines.append(head)
    return lines


def brief(prepared: Prepared, point: Standpoint, budget: int = DEFAULT_BUDGET) -> Brief:
    """The brief at ``point`` within ``budget`` tokens (the header always fits)."""
    resolution = resolve(prepared, point, BRIEF_QUERY)
    known = "latest" if point.known is None else format_time(point.known)
    owed = len(resolution.atoms.get("urgency"))
    tasks = [t for t in resolution.tasks if t.status != "COMPLETE"]
    header = [
        f"openloop brief at {format_time(point.at)} (known {known}): {owed} owed, "
        f"{len(tasks)} task(s) not complete, {len(resolution.findings)} false claim(s)"
    ]
    for task in tasks:
        title = f' "{visible(task.title)}"' if task.title else ""
        header.append(f"TASK {task.id}{title} {task.status}: {len(task.outstanding)} outstanding")
    if not owed and not resolution.findings:
        header.append("nothing is owed")
    used = sum(tokens(line + "\n") for line in header)
    lines = list(header)
    entries = _entries(prepared, resolution)
    for index, line in enumerate(entries):
        cost = tokens(line + "\n")
        rest = len(entries) - index - 1
        tail = tokens(_omitted(rest) + "\n") if rest else 0
        if used + cost + tail > budget:
            omitted = len(entries) - index
            lines.append(_omitted(omitted))
            return Brief(tuple(lines), omitted, used + tokens(_omitted(omitted) + "\n"), budget)
        lines.append(line)
        used += cost
    return Brief(tuple(lines), 0, used, budget)


def _who(actor: str | None) -> str:
    return visible(actor) if actor else "?"


def _omitted(count: int) -> str:
    return f"... {count} more (openloop status lists everything)"
