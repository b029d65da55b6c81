"""The accuracy study written up in Markdown: accuracy per family and standpoint, confusion,
every disagreement, the UNKNOWNs and false closes, and the first screen.

``python -m lab study BUNDLE`` prints this; ``docs/design/accuracy.md`` holds a copy of one
run per history with the reading of each disagreement written beside it.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from lab.study.claims import claims_markdown
from lab.study.run import Pair, StudyResult, claimed_sample, run_study
from resolver import times
from resolver.errors import InputError

__all__ = ["TARGETS", "met", "render", "run_study_command"]

_TODO_WORDS = ("open", "unknown", "removed", "file_deleted", "absent")
_ISSUE_WORDS = ("open", "unknown", "closed", "absent")
#: Issue 27's targets: TODO exact status and issue references.
TARGETS = {"todo": 0.99, "issue": 0.98}
_NAMED = ("a third", "two thirds", "HEAD")


def met(result: StudyResult) -> bool:
    """Every target holds: accuracy, no UNKNOWN, no false close by a merge or a revert, and the
    truth's walk agrees with ``git grep`` at every standpoint."""
    accurate = all(result.accuracy(f) >= t for f, t in TARGETS.items())
    return (
        accurate
        and not result.unknowns()
        and not result.false_closes()
        and not (result.tree_problems)
    )


def _matrix(counts: Counter[tuple[str, str]], words: tuple[str, ...]) -> list[str]:
    used = [w for w in words if any(w in key for key in counts)]
    lines = ["| git says \\ openloop says | " + " | ".join(used) + " |"]
    lines.append("|---|" + "---|" * len(used))
    for truth in used:
        cells = [str(counts.get((truth, verdict), 0)) for verdict in used]
        lines.append(f"| **{truth}** | " + " | ".join(cells) + " |")
    return lines


def _group(name: str) -> str:
    """Named standpoints stand alone; the extra ones are grouped by kind."""
    return name.split(" @", 1)[0] + " (each)" if " @" in name else name


def _cells(pairs: list[Pair]) -> str:
    """A confusion matrix in one cell: ``git→openloop pairs`` for every non-empty cell."""
    counts = Counter((p.truth, p.verdict) for p in pairs)
    return ", ".join(f"{t}→{v} {n}" for (t, v), n in sorted(counts.items())) or "none"


def _by_standpoint(result: StudyResult) -> list[str]:
    """Per standpoint (the extra ones grouped by kind, after the rest): pairs, right, and the
    confusion matrix of each family."""
    order = [p.name for p in result.standpoints if " @" not in p.name]
    order += sorted({_group(p.name) for p in result.standpoints if " @" in p.name})
    groups: dict[str, list[Pair]] = {name: [] for name in order}
    for pair in result.pairs:
        groups[_group(pair.standpoint)].append(pair)
    points = Counter(_group(p.name) for p in result.standpoints)
    lines = ["| standpoint | points | TODO right / pairs | TODO (git→openloop) | issue right / "]
    lines[0] += "pairs | issue (git→openloop) |"
    lines.append("|---|---|---|---|---|---|")
    for name, pairs in groups.items():
        todo = [p for p in pairs if p.family == "todo"]
        issue = [p for p in pairs if p.family == "issue"]
        lines.append(
            f"| {name} | {points[name]} | {sum(p.right for p in todo)} / {len(todo)} | "
            f"{_cells(todo)} | {sum(p.right for p in issue)} / {len(issue)} | {_cells(issue)} |"
        )
    return lines


def _disagreement(pair: Pair) -> str:
    closer = ""
    if pair.closed_by:
        closer = f", closed by {pair.closed_by} ({pair.tier}, {pair.closer_kind or 'event'})"
    return f"| {pair.id} | {pair.standpoint} | {pair.truth} | {pair.verdict}{closer} |"


def render(result: StudyResult) -> str:
    """One history's study as Markdown."""
    named = [p for p in result.standpoints if p.name in _NAMED]
    out = [
        f"### {result.name}",
        "",
        f"History: {result.commits} commits, {result.first_parent} on HEAD's first-parent line; "
        f"{result.todo_openings} TODO openings, {result.issues} issues closed by a keyword; "
        f"declarations from {result.declarations_from}; {len(result.standpoints)} standpoints.",
        "",
        "| standpoint | commit | time |",
        "|---|---|---|",
    ]
    for point in named:
        out.append(f"| {point.name} | {point.commit[:12]} | {times.format_time(point.time)} |")
    out += ["", "| family | pairs | right | accuracy | target |", "|---|---|---|---|---|"]
    for family in ("todo", "issue"):
        pairs = result.family(family)
        right = sum(p.right for p in pairs)
        target = TARGETS[family]
        verdict = "met" if result.accuracy(family) >= target else "MISSED"
        out.append(
            f"| {family} | {len(pairs)} | {right} | {100 * result.accuracy(family):.2f}% | "
            f"≥ {100 * target:.0f}% ({verdict}) |"
        )
    out += [
        "",
        f"UNKNOWN verdicts: {len(result.unknowns())}. False closes by a merge or a revert: "
        f"{len(result.false_closes())}. The truth's walk against `git grep` at every "
        f"standpoint: {len(result.tree_problems)} difference(s). Issues whose close and reopen "
        f"ancestry does not order: {len(result.unordered_issues)}.",
        "",
    ]
    out += [*_by_standpoint(result), ""]
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
    out += [f"- {problem}" for problem in result.tree_problems[:20]]
    flagged, sample = claimed_sample(result)
    out += [f"`claimed_unverified` at HEAD: {flagged} items (a sample of up to 40, seed 27).", ""]
    if result.claims is not None:
        out += [*claims_markdown(result.claims, sample), ""]
    if result.timings:
        named_times = {k: v for k, v in result.timings.items() if " @" not in k}
        out += ["Timings (seconds):", ""]
        out += [f"- {name}: {value:.3f}" for name, value in named_times.items()]
        out.append("")
    if result.sizes:
        out += ["Output sizes at HEAD:", ""]
        out += [f"- {name}: {value}" for name, value in result.sizes.items()]
        out.append("")
    if result.screen:
        out += ["First screen (`openloop status`, first 50 lines):", "", "```"]
        out += [result.screen, "```", ""]
    return "\n".join(out)


def run_study_command(bundle: Path) -> int:
    """``python -m lab study BUNDLE`` (or ``bench --study BUNDLE``): run the study with output
    sizes, print Markdown.

    Exit 0 when every target is met, 1 otherwise.
    """
    if not bundle.exists():
        raise InputError(f"study: '{bundle}' does not exist (expected a git bundle or clone)")
    result = run_study(bundle, sizes=True)
    sys.stdout.write(render(result) + "\n")
    return 0 if met(result) else 1
