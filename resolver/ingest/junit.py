"""``openloop ingest junit``: each test suite run of a JUnit XML report as state evidence (§6.2).

One event per ``<testsuite>`` element (nested or under ``<testsuites>``): channel ``ci``, kind
``test_run``, ``at`` = the suite's ``timestamp`` (UTC unless zoned), setting ``PREFIX.SUITE`` to
``"passed"`` when no test failed or erred, else ``"failed"``. The verdict of a run is read from its
test cases (``<failure>``/``<error>`` children) and, where a suite lists none, from its
``failures``/``errors`` counts. Skipped tests neither pass nor fail a suite.

A JUnit file is untrusted input (it comes out of CI, often from third-party tools), so it is parsed
with ``defusedxml``, which refuses entity declarations and external references instead of
expanding them.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeTree
from defusedxml import DefusedXmlException

from resolver.errors import InputError, Location
from resolver.ingest.gitrun import source_error
from resolver.times import MAX_UNIX, MIN_UNIX, TimeFormatError, format_time, parse_time

__all__ = ["read_junit"]

_UNSAFE_ID = re.compile(r"[^A-Za-z0-9_.:/\-@+]+")


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1]


def _count(suite: Element, name: str, location: str) -> int:
    raw = suite.get(name)
    if raw is None or not raw.strip():
        return 0
    try:
        return int(float(raw))
    except ValueError:
        raise source_error(
            location, f"testsuite attribute {name}={raw!r} is not a number"
        ) from None


def read_junit(
    path: str, prefix: str = "tests", channel: str = "ci", at: str | None = None
) -> list[dict[str, Any]]:
    """The test-run events of one JUnit XML file, sorted by time then id."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise source_error(name, "no such file; expected a JUnit XML report") from None
    try:
        root = SafeTree.fromstring(data, forbid_dtd=False)
    except ParseError as exc:
        line, column = exc.position
        raise InputError(
            f"malformed XML ({str(exc).split(':')[0]}); expected a JUnit XML report",
            Location(name, line, column + 1),
        ) from None
    except DefusedXmlException as exc:
        raise source_error(
            name,
            f"refused: the XML declares entities or external references ({type(exc).__name__})",
        ) from None
    except (LookupError, ValueError, RecursionError) as exc:  # an unknown declared encoding...
        raise source_error(name, f"malformed XML ({exc}); expected a JUnit XML report") from None
    if _local(root.tag) not in ("testsuites", "testsuite"):
        raise source_error(
            name, f"the root element is <{_local(root.tag)}>; expected <testsuites> or <testsuite>"
        )
    fallback = None
    if at is not None:
        try:
            fallback = format_time(parse_time(at))
        except TimeFormatError as exc:
            raise source_error(name, f"--at: {exc}") from None
    events: dict[str, dict[str, Any]] = {}
    suites = [e for e in root.iter() if _local(e.tag) == "testsuite"]
    if not suites:
        raise source_error(name, "no <testsuite> element; expected a JUnit XML report")
    for index, suite in enumerate(suites, start=1):
        event = _suite_event(suite, index, name, prefix, channel, fallback)
        ident, number = event["id"], 2
        while ident in events:
            ident, number = f"{event['id']}.{number}", number + 1
        event["id"] = ident
        events[ident] = event
    return sorted(events.values(), key=lambda e: (e["at"], e["id"]))


def _timestamp(stamp: str, title: str, name: str) -> str:
    """A JUnit timestamp (ISO-8601, often without a zone, which means UTC) in log form."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        raise source_error(
            name, f"testsuite {title!r}: timestamp {stamp!r} is not an ISO-8601 time"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    seconds = int(moment.timestamp())
    if not MIN_UNIX <= seconds <= MAX_UNIX:
        raise source_error(name, f"testsuite {title!r}: timestamp {stamp!r} is outside 1970..2100")
    return format_time(seconds)


def _suite_event(
    suite: Element, index: int, name: str, prefix: str, channel: str, fallback: str | None
) -> dict[str, Any]:
    title = (suite.get("name") or "").strip() or f"suite-{index}"
    stamp = suite.get("timestamp")
    if stamp:
        when = _timestamp(stamp.strip(), title, name)
    elif fallback is not None:
        when = fallback
    else:
        raise source_error(
            name, f"testsuite {title!r} has no timestamp; give the run's time with --at"
        )
    cases = [c for c in suite if _local(c.tag) == "testcase"]
    if cases:
        failed = sum(1 for c in cases if any(_local(x.tag) in ("failure", "error") for x in c))
        skipped = sum(1 for c in cases if any(_local(x.tag) == "skipped" for x in c))
        total = len(cases)
    else:
        failed = _count(suite, "failures", name) + _count(suite, "errors", name)
        skipped = _count(suite, "skipped", name)
        total = _count(suite, "tests", name)
    verdict = "failed" if failed else "passed"
    compact = when.replace("-", "").replace(":", "")
    return {
        "id": f"test-run-{_UNSAFE_ID.sub('-', title).strip('-') or index}-{compact}",
        "channel": channel,
        "at": when,
        "recorded": when,
        "kind": "test_run",
        "text": f"Test suite {title} {verdict}: {total} tests, {failed} failed, {skipped} skipped",
        "set": {f"{prefix}.{title}": verdict},
    }
