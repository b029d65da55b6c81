"""Rendering the evaluation: a terminal table, Markdown (``docs/design/evaluation.md``) or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

from lab.evaluation import commitments as sim
from lab.evaluation import commitments_world as world
from lab.evaluation.intervals import Rate
from lab.evaluation.method import METHOD
from lab.evaluation.rows import Row

TITLE = "python -m lab eval: the studies' experiments, reproduced"
VERDICT = {True: "yes", False: "NO", None: "measured"}


def _sections(rows: Sequence[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for row in rows:
        out.setdefault(row.section, []).append(row)
    return out


def _summary(rows: Sequence[Row]) -> str:
    judged = [r for r in rows if r.agrees is not None]
    held = sum(1 for r in judged if r.agrees)
    measured = len(rows) - len(judged)
    return f"{held}/{len(judged)} figures reproduced; {measured} measured and reported"


# -- terminal ---------------------------------------------------------------------------------


def text(rows: Sequence[Row], experiment: sim.Experiment | None) -> str:
    """The whole evaluation as plain text."""
    lines = []
    if rows:
        lines += [TITLE, "", _summary(rows), ""]
        for section, members in _sections(rows).items():
            lines.append(section.upper())
            for row in members:
                lines.append(f"  {VERDICT[row.agrees]:<9}{row.experiment}")
                lines.append(f"           study:    {row.study}")
                lines.append(f"           openloop: {row.measured}")
                lines.append(f"           history:  {row.fixture}")
                lines += [f"             - {note}" for note in row.notes]
            lines.append("")
    if experiment is not None:
        lines += commitments_text(experiment)
    return "\n".join(lines).rstrip() + "\n"


def _rate(rate: Rate) -> str:
    if not rate.total:
        return "-"
    low, high = rate.interval  # type: ignore[misc]
    return f"{rate.value:.2f} [{low:.2f}-{high:.2f}] {rate.hits}/{rate.total}"


def _grid(experiment: sim.Experiment, metric: str) -> list[list[str]]:
    families = [*world.FAMILIES, "all"]
    rows = [["judge", *families]]
    for judge in sim.JUDGES:
        rows.append([judge] + [_rate(getattr(experiment.cell(judge, f), metric)) for f in families])
    return rows


def _columns(grid: list[list[str]]) -> list[str]:
    widths = [max(len(r[k]) for r in grid) for k in range(len(grid[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in grid]


def _header(experiment: sim.Experiment) -> list[str]:
    modes = "; ".join(
        f"{family}: " + ", ".join(f"{m} {n}" for m, n in counts.items())
        for family, counts in experiment.modes.items()
    )
    return [
        sim.DISCLAIMER,
        "",
        f"seed {experiment.seed}; {experiment.per_family} instances per family "
        f"({experiment.instances} in all)",
        f"planted modes: {modes}",
    ]


def _censored_line(experiment: sim.Experiment) -> str:
    held = experiment.censored["all"]
    judged = ", ".join(f"{j} {held[f'judged_complete_by_{j}']}" for j in sim.JUDGES)
    per = ", ".join(f"{f} {experiment.censored[f]['runs']}" for f in world.FAMILIES)
    return (
        f"censored (still inside the {world.ACCEPTANCE_WINDOW // world.DAY}-day window of delayed "
        f"evidence, counted in neither rate): {held['runs']} runs ({per}); judged complete by: "
        f"{judged}"
    )


def _paired_lines(experiment: sim.Experiment) -> list[str]:
    lines = []
    for pair in experiment.paired:
        metric = pair["metric"].replace("_", " ")
        lines.append(
            f"openloop vs {pair['against']}, {metric}: openloop right where it erred "
            f"{pair['openloop_right_other_wrong']}, the reverse "
            f"{pair['openloop_wrong_other_right']} (exact McNemar p = {pair['p_exact']:.2g})"
        )
    return lines


def _claims_line(experiment: sim.Experiment) -> str:
    c = experiment.claims
    return (
        f"the agent's claims, judged by openloop at the claim's own time: "
        f"{c['flagged_false_completion']} of {c['false_completion_claims']} false 'complete' "
        f"claims reported FALSE_COMPLETION; {c['true_claims_flagged']} of "
        f"{c['true_completion_claims']} true ones flagged (unconfirmed effects); "
        f"{c['flagged_false_pending']} of {c['false_pending_reports']} false 'pending' reports "
        f"reported FALSE_PENDING ({c['false_pending_unconfirmed']} of them wait on an "
        f"unconfirmed effect)"
    )


def _decision_line(experiment: sim.Experiment) -> str:
    d = experiment.decision()
    verdict = "met" if d["met"] else "not met"
    return (
        f"decision rule (margin fixed in advance: {d['margin']:.2f}): the graph cuts the pooled "
        f"false-completion rate below the checklist's by {d['reduction']:.2f} (paired exact "
        f"p = {d['p_exact']:.2g}): {verdict} in this simulation"
    )


def commitments_text(experiment: sim.Experiment) -> list[str]:
    """The simulation's tables as plain text lines."""
    lines = ["COMMITMENT-GRAPH EXPERIMENT (SIMULATION)", *_header(experiment)]
    lines += [f"judged in {experiment.seconds:.1f} s", ""]
    lines.append("False-completion rate: truly incomplete runs judged complete (95% Wilson)")
    lines += _columns(_grid(experiment, "false_completion"))
    lines += ["", "False-pending rate: truly complete runs judged not complete (95% Wilson)"]
    lines += _columns(_grid(experiment, "false_pending"))
    lines += ["", _decision_line(experiment), "", _censored_line(experiment)]
    lines += ["", _claims_line(experiment)]
    lines += ["", "Paired on the same runs:"]
    lines += [f"  {line}" for line in _paired_lines(experiment)]
    return lines


# -- Markdown ---------------------------------------------------------------------------------


def _cell(value: str) -> str:
    return value.replace("|", "\\|")


def markdown(rows: Sequence[Row], experiment: sim.Experiment | None) -> str:
    """The whole evaluation as Markdown."""
    lines = ["# Evaluation: the studies' experiments, reproduced", ""]
    lines += [
        "Generated by `python -m lab eval --format md -o docs/design/evaluation.md`; "
        "do not edit by hand.",
        "Each row sets the figure the study reports beside what openloop measured, on the",
        "history named (folders under `fixtures/`). *Reproduced* is `yes` when the measured",
        "figure matches the study's, `measured` for timings, which depend on the machine.",
        "",
    ]
    if rows:
        lines += [f"**{_summary(rows)}.**", ""]
        for section, members in _sections(rows).items():
            lines += [f"## {section}", ""]
            lines.append("| Experiment | Study | openloop (measured) | History | Reproduced |")
            lines.append("|---|---|---|---|---|")
            for row in members:
                where = f"`{row.fixture}`" if row.fixture.startswith("fixtures/") else row.fixture
                cells = (row.experiment, row.study, row.measured, where)
                lines.append(
                    "| " + " | ".join(_cell(c) for c in cells) + f" | {VERDICT[row.agrees]} |"
                )
            lines.append("")
            detailed = [r for r in members if r.notes]
            for row in detailed:
                lines.append(f"- *{row.experiment}*: " + "; ".join(row.notes))
            if detailed:
                lines.append("")
    if experiment is not None:
        lines += commitments_markdown(experiment)
    lines += ["", METHOD]
    return "\n".join(lines).rstrip() + "\n"


def _md_grid(grid: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(grid[0]) + " |", "|" + "---|" * len(grid[0])]
    out += ["| " + " | ".join(r) + " |" for r in grid[1:]]
    return out


def commitments_markdown(experiment: sim.Experiment) -> list[str]:
    """The simulation's tables as Markdown lines."""
    lines = ["## The commitment-graph experiment, as a simulation", ""]
    lines += [f"**{sim.DISCLAIMER}**", "", *_header(experiment)[2:]]
    lines += ["", "### False-completion rate", "", "Truly incomplete runs judged complete;"]
    lines += ["rate, 95% Wilson interval, count.", ""]
    lines += _md_grid(_grid(experiment, "false_completion"))
    lines += ["", "### False-pending rate", "", "Truly complete runs judged not complete."]
    lines += ["", *_md_grid(_grid(experiment, "false_pending"))]
    lines += ["", _decision_line(experiment) + ".", "", _censored_line(experiment) + "."]
    lines += ["", _claims_line(experiment) + "."]
    lines += ["", "### Paired on the same runs", ""]
    lines += [f"- {line}" for line in _paired_lines(experiment)]
    return lines


# -- JSON -------------------------------------------------------------------------------------


def as_json(rows: Sequence[Row], experiment: sim.Experiment | None) -> str:
    """The whole evaluation as JSON (``schema_version`` 1, ``kind`` ``eval``)."""
    data: dict[str, object] = {"schema_version": 1, "kind": "eval"}
    if rows:
        data["rows"] = [
            {
                "section": r.section,
                "experiment": r.experiment,
                "study": r.study,
                "measured": r.measured,
                "fixture": r.fixture,
                "reproduced": r.agrees,
                "value": r.value,
                "notes": list(r.notes),
            }
            for r in rows
        ]
    if experiment is not None:
        data["commitments"] = experiment.as_dict()
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
