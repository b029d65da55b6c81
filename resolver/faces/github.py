"""``check --format github``: GitHub Actions annotations and a job summary (SPEC §8).

Prints one workflow command per reported item (``::error file=F,line=L,title=T::MESSAGE``, or
``::warning`` for UNKNOWN items and false pendings, the level ``rules/query/ci.lp`` gives) at
the ``.ol`` line of each outstanding expectation or the ``.jsonl`` line of each finding: at most
:data:`MAX_ANNOTATIONS` (GitHub shows only the first ten of a step per level), then one
``::notice`` that sums up the gate. When ``$GITHUB_STEP_SUMMARY`` names a file, a Markdown
summary is appended to it, as GitHub expects (one append; the file belongs to the runner).
"""

from __future__ import annotations

import os

from resolver.faces.safe_text import markdown, spelled
from resolver.verdicts.ci_items import CiItem

#: Annotations printed before the summary notice.
MAX_ANNOTATIONS = 10


def _data(text: str) -> str:
    """Escape a workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """Escape a workflow command's property value."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(item: CiItem) -> str:
    """One workflow command for one item."""
    props = []
    if item.location is not None:
        props.append(f"file={_property(item.location.file)}")
        props.append(f"line={max(item.location.line, 1)}")
        if item.location.column:
            props.append(f"col={item.location.column}")
    props.append(f"title={_property('openloop: ' + item.title)}")
    return f"::{item.level} {','.join(props)}::{_data(item.message)}"


def summary_counts(items: list[CiItem], scope: str, result: str) -> str:
    """The one-line sum of a gate run."""
    counts: dict[str, int] = {}
    for item in items:
        key = item.kind if item.kind == "finding" else item.level
        counts[key] = counts.get(key, 0) + 1
    parts = [
        f"{counts.get('error', 0)} outstanding",
        f"{counts.get('warning', 0)} unknown",
        f"{counts.get('finding', 0)} finding(s)",
    ]
    return f"{result.upper()}: {', '.join(parts)} in {scope}"


def render(items: list[CiItem], scope: str, result: str) -> str:
    """The annotations (at most ten) and the summary notice."""
    lines = [annotation(item) for item in items[:MAX_ANNOTATIONS]]
    text = summary_counts(items, scope, result)
    hidden = len(items) - MAX_ANNOTATIONS
    if hidden > 0:
        text += f"; {hidden} more not annotated (openloop check --format sarif lists all)"
    lines.append(f"::notice title=openloop check::{_data(text)}")
    # Its lines are meant as workflow commands (their data escaped above): controls only.
    return spelled("\n".join(lines) + "\n")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_summary(items: list[CiItem], scope: str, result: str) -> str:
    """The job summary: the result, then a table of every reported item."""
    mark = {"PASS": "passed", "FAIL": "failed", "UNKNOWN": "unknown"}[result.upper()]
    lines = [f"## openloop check {mark}", "", summary_counts(items, scope, result), ""]
    if items:
        lines += ["| level | item | where | why |", "|---|---|---|---|"]
        for item in items:
            where = f"`{item.location}`" if item.location is not None else ""
            lines.append(
                f"| {item.level} | {_cell(item.title)} | {_cell(where)} | {_cell(item.message)} |"
            )
        lines.append("")
    return markdown("\n".join(lines) + "\n")


def append_summary(items: list[CiItem], scope: str, result: str) -> None:
    """Append the Markdown summary to ``$GITHUB_STEP_SUMMARY`` when it is set."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    text = markdown_summary(items, scope, result).encode("utf-8")
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        os.write(fd, text)
    finally:
        os.close(fd)
