"""Running ``test`` blocks: executable specifications written beside a history.

A test block is a list of steps (SPEC §2.1): ``at T [known K|latest]`` moves the standpoint,
``expect ...`` asserts something about the verdicts there. The history is prepared once and every
standpoint is answered from it (and cached, so blocks sharing a standpoint share the solve). A
failed assertion carries what was expected, what was found, and the one-line reason the rules
give for the actual verdict (``explain.key_reason_of``), so a failure reads as a diagnosis rather
than a bare mismatch. Assertions that name nothing declared fail with a message; they never crash.

Comparing an expected word with the verdict is all this module decides: the verdicts themselves
come from the rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from resolver import vocabulary
from resolver.engine import prepared as engine
from resolver.engine.prepared import Prepared
from resolver.faces.explanation import text as explanation_text
from resolver.faces.safe_text import terminal
from resolver.language.model import Assertion, StandpointClause, TestBlock
from resolver.times import format_time
from resolver.verdicts import explanation as explain
from resolver.verdicts.resolution import Resolution, resolve

#: Flags a test may name in ``has`` / ``lacks`` (SPEC §3).
FLAGS = vocabulary.FLAGS


@dataclass(frozen=True)
class AssertionResult:
    """The outcome of one ``expect`` line at one standpoint."""

    assertion: Assertion
    standpoint: engine.Standpoint
    passed: bool
    expected: str
    actual: str
    reason: str | None = None

    __test__ = False


@dataclass(frozen=True)
class BlockResult:
    """Every assertion of one test block, in source order."""

    block: TestBlock
    results: tuple[AssertionResult, ...]

    __test__ = False

    @property
    def passed(self) -> bool:
        """True iff no assertion failed."""
        return all(r.passed for r in self.results)

    @property
    def failures(self) -> tuple[AssertionResult, ...]:
        """The failed assertions."""
        return tuple(r for r in self.results if not r.passed)


@dataclass(frozen=True)
class TestReport:
    """The results of a run: one entry per test block."""

    blocks: tuple[BlockResult, ...]

    __test__ = False

    @property
    def passed(self) -> int:
        """How many assertions passed."""
        return sum(1 for b in self.blocks for r in b.results if r.passed)

    @property
    def failed(self) -> int:
        """How many assertions failed."""
        return sum(1 for b in self.blocks for r in b.results if not r.passed)

    def summary(self) -> str:
        """``12 passed, 0 failed (3 test blocks)``."""
        count = len(self.blocks)
        blocks = f"{count} test block{'s' if count != 1 else ''}"
        return f"{self.passed} passed, {self.failed} failed ({blocks})"


def engine_standpoint(step: StandpointClause) -> engine.Standpoint:
    """A test block's ``at T [known K|latest]`` as the engine's standpoint."""
    if step.known_latest:
        return engine.Standpoint(step.at, None)
    return engine.Standpoint(step.at, step.at if step.known is None else step.known)


class TestRunner:
    """Runs test blocks against one prepared history, caching each standpoint's resolution."""

    __test__ = False

    def __init__(self, prepared: Prepared) -> None:
        self.prepared = prepared
        self._plain: dict[engine.Standpoint, Resolution] = {}
        self._explained: dict[engine.Standpoint, Resolution] = {}

    def resolution(self, point: engine.Standpoint) -> Resolution:
        """The verdicts at ``point`` (solved once)."""
        if point not in self._plain:
            self._plain[point] = resolve(self.prepared, point)
        return self._plain[point]

    def explained(self, point: engine.Standpoint) -> Resolution:
        """The verdicts at ``point`` with every item explained (solved once, on first failure)."""
        if point not in self._explained:
            facts = explain.query_facts(self.prepared, everything=True)
            self._explained[point] = resolve(self.prepared, point, facts)
        return self._explained[point]

    def run(self, blocks: Iterable[TestBlock] | None = None) -> TestReport:
        """Run ``blocks`` (default: every block of the project) in order."""
        chosen = self.prepared.project.tests if blocks is None else tuple(blocks)
        return TestReport(tuple(self.run_block(block) for block in chosen))

    def run_block(self, block: TestBlock) -> BlockResult:
        """Run one block's steps in order."""
        results = []
        point: engine.Standpoint | None = None
        for step in block.steps:
            if isinstance(step, StandpointClause):
                point = engine_standpoint(step)
                continue
            if point is None:  # the parser refuses this; kept for hand-built blocks
                results.append(
                    AssertionResult(
                        step,
                        engine.Standpoint(0, 0),
                        False,
                        assertion_text(step),
                        "no standpoint: write `at TIME` first",
                    )
                )
                continue
            results.append(self.check(step, point))
        return BlockResult(block, tuple(results))

    def check(self, assertion: Assertion, point: engine.Standpoint) -> AssertionResult:
        """Evaluate one assertion at ``point``."""
        resolution = self.resolution(point)
        kind = assertion.kind
        if kind == "finding":
            return self._finding(assertion, point, resolution)
        if kind == "task":
            return self._task(assertion, point, resolution)
        return self._expectation(assertion, point, resolution)

    # -- the assertion kinds ------------------------------------------------------------------

    def _expectation(
        self, a: Assertion, point: engine.Standpoint, resolution: Resolution
    ) -> AssertionResult:
        expected = _expected(a)
        verdict = resolution.expectation(a.target)
        if verdict is None:
            return self._missing(a, point, expected)
        if a.kind in ("has", "lacks") and a.value not in FLAGS:
            return AssertionResult(
                a, point, False, expected, f"'{a.value}' is not a flag (flags: {', '.join(FLAGS)})"
            )
        if a.kind == "status":
            passed = (
                verdict.status == a.value
                and (a.by is None or verdict.closed_by == a.by)
                and (a.tier is None or verdict.tier == a.tier)
            )
            actual = verdict.status
            if verdict.closed_by:
                actual += f" by {verdict.closed_by}"
            if verdict.tier:
                actual += f" tier {verdict.tier}"
            if verdict.confidence:
                actual += f" (confidence {verdict.confidence})"
            if a.by is not None and self.prepared.project.event(a.by) is None:
                actual += f"; note: no event '{a.by}' in the log"
        elif a.kind == "confidence":
            passed = verdict.confidence == a.value
            actual = (
                f"confidence {verdict.confidence}"
                if verdict.confidence
                else f"no confidence class ({verdict.status} is closed or not opened)"
            )
        else:
            present = a.value in verdict.flags
            passed = present if a.kind == "has" else not present
            actual = "flags: " + (", ".join(verdict.flags) or "none")
        if (
            not passed
            and a.kind == "status"
            and a.value != verdict.status
            and verdict.status != "NOT_OPENED"
        ):
            # What keeps it from the expected status says more than why it has its own.
            missing = explanation_text.why_not_line(
                explain.explain(self.prepared, self.explained(point), a.target, a.value.lower())
            )
            return AssertionResult(a, point, False, expected, actual, missing or None)
        return self._result(a, point, passed, expected, actual)

    def _task(
        self, a: Assertion, point: engine.Standpoint, resolution: Resolution
    ) -> AssertionResult:
        expected = _expected(a)
        verdict = resolution.task(a.target)
        if verdict is None:
            return self._missing(a, point, expected)
        actual = f"task {verdict.status}"
        if verdict.outstanding:
            actual += f" (outstanding: {', '.join(verdict.outstanding)})"
        return self._result(a, point, verdict.status == a.value, expected, actual)

    def _finding(
        self, a: Assertion, point: engine.Standpoint, resolution: Resolution
    ) -> AssertionResult:
        expected = _expected(a)
        event = self.prepared.project.event(a.target)
        if event is None:
            return AssertionResult(
                a, point, False, expected, f"no event named '{a.target}' in the log"
            )
        found = [f for f in resolution.findings if f.event == a.target]
        passed = any(f.kind == a.value.upper() for f in found)
        actual = (
            "; ".join(
                f"{f.kind} about {f.target}"
                + (f" (outstanding: {', '.join(f.outstanding)})" if f.outstanding else "")
                for f in found
            )
            or f"no finding about {a.target}"
        )
        reason = None
        if not passed:
            claims = [
                f"{m.kind} {m.target}" for m in event.markers if m.kind in vocabulary.CLAIM_MARKERS
            ]
            if not claims:
                reason = f"{a.target} carries no claims_complete or reports_pending marker"
            elif not self._claim_visible(resolution, a.target):
                reason = f"{a.target} is not visible at this standpoint"
            else:
                reason = (
                    f"{a.target} ({', '.join(claims)}) is judged at its own time "
                    f"{format_time(event.at)}; there it is "
                    + ("not complete" if a.value == "false_pending" else "complete")
                )
        return AssertionResult(a, point, passed, expected, actual, reason)

    # -- helpers ------------------------------------------------------------------------------

    def _claim_visible(self, resolution: Resolution, event: str) -> bool:
        """Whether the standpoint sees the claim event (``visible_claim``, tasks.lp)."""
        number = self.prepared.facts.interner.get(("event", event))
        return any(e == number for (e,) in resolution.atoms.get("visible_claim"))

    def _missing(self, a: Assertion, point: engine.Standpoint, expected: str) -> AssertionResult:
        project = self.prepared.project
        if a.kind == "task":
            hint = (
                " (it is an expectation: write `expect ID STATUS`)"
                if project.expectation(a.target)
                else ""
            )
            return AssertionResult(a, point, False, expected, f"no task named '{a.target}'{hint}")
        hint = (
            " (it is a task: write `expect task ID COMPLETE|INCOMPLETE|UNKNOWN`)"
            if project.task(a.target)
            else ""
        )
        return AssertionResult(
            a, point, False, expected, f"no expectation named '{a.target}'{hint}"
        )

    def _result(
        self, a: Assertion, point: engine.Standpoint, passed: bool, expected: str, actual: str
    ) -> AssertionResult:
        reason = None
        if not passed:
            reason = explanation_text.line(
                explain.key_reason_of(self.prepared, self.explained(point), a.target)
            )
        return AssertionResult(a, point, passed, expected, actual, reason)


def run_tests(prepared: Prepared, blocks: Iterable[TestBlock] | None = None) -> TestReport:
    """Run test blocks (default: all of the project's) against a prepared history."""
    return TestRunner(prepared).run(blocks)


def assertion_text(a: Assertion) -> str:
    """The assertion as it would be written (normalised case)."""
    if a.kind == "status":
        text = f"expect {a.target} {a.value.lower()}"
        if a.by:
            text += f" by {a.by}"
        if a.tier:
            text += f" tier {a.tier}"
        return text
    if a.kind == "confidence":
        return f"expect {a.target} confidence {a.value.lower()}"
    if a.kind in ("has", "lacks"):
        return f"expect {a.target} {a.kind} {a.value}"
    if a.kind == "task":
        return f"expect task {a.target} {a.value.lower()}"
    return f"expect finding {a.value} {a.target}"


def _expected(a: Assertion) -> str:
    if a.kind == "status":
        return a.value + (f" by {a.by}" if a.by else "") + (f" tier {a.tier}" if a.tier else "")
    if a.kind == "confidence":
        return f"confidence {a.value}"
    if a.kind == "has":
        return f"flag {a.value}"
    if a.kind == "lacks":
        return f"no flag {a.value}"
    if a.kind == "task":
        return f"task {a.value}"
    return f"{a.value.upper()} by {a.target}"


def standpoint_text(point: engine.Standpoint) -> str:
    """``at 2024-08-23T00:00:00Z, known latest``."""
    known = "latest" if point.known is None else format_time(point.known)
    return f"at {format_time(point.at)}, known {known}"


def format_failure(result: AssertionResult) -> str:
    """A failed assertion as indented lines: where, what, expected, actual, why."""
    a = result.assertion
    lines = [
        f"{a.location}: {assertion_text(a)}",
        f"    {standpoint_text(result.standpoint)}",
        f"    expected: {result.expected}",
        f"    actual:   {result.actual}",
    ]
    if result.reason:
        lines.append(f"    why:      {result.reason}")

    return "\n".join(lines)


def format_block(result: BlockResult) -> str:
    """``ok   FILE:LINE "name"`` or ``FAIL ...`` followed by each failure."""
    block = result.block
    head = f'{"ok  " if result.passed else "FAIL"} {block.location}: test "{block.name}"'
    if result.passed:
        return terminal(head)
    return terminal(
        "\n".join(
            [head, *("  " + format_failure(f).replace("\n", "\n  ") for f in result.failures)]
        )
    )
