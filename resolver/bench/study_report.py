"""The accuracy study written up in Markdown: accuracy per family, confusion, every disagreement.

``openloop bench --study BUNDLE`` prints this; ``docs/accuracy.md`` holds a copy of one run with
the reading of each disagreement written beside it.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from resolver import times
from resolver.bench.study import Pair, StudyResult, run_study
from resolver.errors import InputError

__all__ = ["render", "run_study_command"]

_TODO_WORDS = ("open", "removed", "file_deleted", "absent")
_ISSUE_WORDS = ("open", "closed", "absent")
_TARGETS = {"todo": 0.98, "issue": 0.95}


def _matrix(counts: Counter[tuple[str, str]], words: tuple[str, ...]) -> list[str]:
    used = [w for w in words if any(w in key for key in counts)]
    lines = ["| git says \\ openloop says | " + " | ".join(used) + " |"]
    lines.append("|---|" + "---|" * len(used))
    for truth in used:
        cells = [str(counts.get((truth, verdict), 0)) for verdict in used]
        lines.append(f"| **{truth}** | " + " | ".join(cells) + " |")
    return lines


def _disagreement(pair: Pair) -> str:
    closer = ""
    if pair.closed_by:
        closer = f", closed by {pair.closed_by} ({pair.tier}, {pair.closer_kind or 'event'})"
    return f"| {pair.id} | {pair.standpoint} | {pair.truth} | {pair.verdict}{closer} |"


def render(result: StudyResult) -> str:
    """The study as Markdown."""
    out = [
        f"History: {result.commits} commits; {result.todo_additions} TODO comments added, "
        f"{result.issues} issues referenced.",
        "",
        "| standpoint | commit | time |",
        "|---|---|---|",
    ]
    for point in result.standpoints:
        out.append(f"| {point.name} | {point.commit[:12]} | {times.format_time(point.time)} |")
    out += ["", "| family | pairs | right | accuracy | target |", "|---|---|---|---|---|"]
    for family in ("todo", "issue"):
        pairs = result.family(family)
        right = sum(p.right for p in pairs)
        target = _TARGETS[family]
        verdict = "met" if result.accuracy(family) >= target else "MISSED"
        out.append(
            f"| {family} | {len(pairs)} | {right} | {100 * result.accuracy(family):.1f}% | "
            f"≥ {100 * target:.0f}% ({verdict}) |"
        )
    merges = result.merge_false_closes()
    out += ["", f"False closes by a merge commit: {len(merges)}.", ""]
    for family, words in (("todo", _TODO_WORDS), ("issue", _ISSUE_WORDS)):
        out += [f"Confusion, {family} (pairs):", ""]
        out += _matrix(result.confusion(family), words)
        out.append("")
    wrong = [p for p in result.pairs if not p.right]
    out += [f"Disagreements ({len(wrong)}):", ""]
    if wrong:
        out += ["| expectation | standpoint | git | openloop |", "|---|---|---|---|"]
        out += [_disagreement(p) for p in wrong]
        out.append("")
    if result.timings:
        out += ["Timings (seconds):", ""]
        out += [f"- {name}: {value:.3f}" for name, value in result.timings.items()]
        out.append("")
    if result.sizes:
        out += ["Output sizes at HEAD:", ""]
        out += [f"- {name}: {value}" for name, value in result.sizes.items()]
        out.append("")
    return "\n".join(out)


def run_study_command(bundle: Path) -> int:
    """``openloop bench --study BUNDLE``: run the study with output sizes, print Markdown.

    Exit 0 when every target is met, 1 otherwise.
    """
    if not bundle.exists():
        raise InputError(f"--study: '{bundle}' does not exist (expected a git bundle or clone)")
    result = run_study(bundle, sizes=True)
    sys.stdout.write(render(result) + "\n")
    met = all(result.accuracy(f) >= t for f, t in _TARGETS.items())
    return 0 if met and not result.merge_false_closes() else 1
