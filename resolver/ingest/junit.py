"""``openloop ingest junit``: each test suite run of a JUnit XML report as state evidence (§6.2).

One event per ``<testsuite>`` element (nested or under ``<testsuites>``): channel ``ci``, kind
``test_run``, ``at`` = the suite's ``timestamp`` (UTC unless zoned), setting ``PREFIX.SUITE`` to
``"passed"`` when tests ran and none failed or erred, ``"failed"`` when one did, and ``"empty"``
when no test ran (none collected, or every one skipped): a run that checked nothing is no evidence
that tests pass, yet it is recorded, so ``explain`` can say why the key is not ``"passed"``. The
verdict of a run is read from its test cases (``<failure>``/``<error>`` children) and, where a
suite lists none, from its ``tests``/``failures``/``errors``/``skipped`` counts.

A JUnit file is untrusted input (it comes out of CI, often from third-party tools), so it is parsed
with ``defusedxml``, which refuses entity declarations and external references instead of
expanding them; every suite keeps the line it starts on, so a bad count, name or timestamp is
reported as ``FILE:LINE: error: ...``; and every event passes the event reader's own checks
(``resolver.language.eventlog_checks``) before anything is written.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from resolver.errors import InputError, Location
from resolver.ingest.gitrun import source_error
from resolver.ingest.writer import dumps
from resolver.language.eventlog_checks import CONTROL, IDENTIFIER, MAX_INT, checked_line
from resolver.times import MAX_UNIX, MIN_UNIX, TimeFormatError, format_time, parse_time

__all__ = ["read_junit"]

_UNSAFE_ID = re.compile(r"[^A-Za-z0-9_.:/\-@+]+")


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1]


class _LineBuilder(TreeBuilder):
    """A tree builder that notes the line each element starts on (ElementTree keeps none)."""

    def __init__(self) -> None:
        super().__init__()
        self.expat: Any = None
        self.lines: dict[int, int] = {}

    def start(self, tag: Any, attrs: Any) -> Element:
        element = super().start(tag, attrs)
        self.lines[id(element)] = self.expat.CurrentLineNumber if self.expat else 1
        return element


def _parse(name: str, data: bytes) -> tuple[Element, dict[int, int]]:
    """The root element and the start line of every element (by ``id``)."""
    builder = _LineBuilder()
    try:
        parser = DefusedXMLParser(target=builder, forbid_dtd=False)
        builder.expat = parser.parser
        parser.feed(data)
        root = parser.close()
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
    return root, builder.lines


def read_junit(
    path: str, prefix: str = "tests", channel: str = "ci", at: str | None = None
) -> list[dict[str, Any]]:
    """The test-run events of one JUnit XML file, sorted by time then id."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise source_error(name, "no such file; expected a JUnit XML report") from None
    except IsADirectoryError:
        raise source_error(name, "a folder; expected a JUnit XML report") from None
    if not prefix or CONTROL.search(prefix):
        raise source_error(name, f"--key {prefix!r}: expected a key prefix on one line")
    if not IDENTIFIER.fullmatch(channel):
        raise source_error(name, f"--channel {channel!r}: expected an identifier")
    root, lines = _parse(name, data)
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
        location = Location(name, lines.get(id(suite), 1))
        event = _suite_event(suite, index, location, prefix, channel, fallback)
        ident, number = event["id"], 2
        while ident in events:
            ident, number = f"{event['id']}.{number}", number + 1
        event["id"] = ident
        checked_line(dumps(event), location)  # what the reader would refuse is never written
        events[ident] = event
    return sorted(events.values(), key=lambda e: (e["at"], e["id"]))


def _count(suite: Element, name: str, title: str, location: Location) -> int:
    """A count attribute: a whole number from 0 to 2^31-1 (``3`` or ``3.0``); absent is 0."""
    raw = suite.get(name)
    if raw is None or not raw.strip():
        return 0
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value != int(value) or not 0 <= value <= MAX_INT:
        raise InputError(
            f"testsuite {title!r}: attribute {name}={raw!r} is not a count "
            f"(a whole number from 0 to {MAX_INT})",
            location,
        )
    return int(value)


def _timestamp(stamp: str, title: str, location: Location) -> str:
    """A JUnit timestamp (ISO-8601, often without a zone, which means UTC) in log form."""
    try:
        moment = datetime.fromisoformat(stamp)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = math.floor(moment.timestamp())
    except (ValueError, OverflowError, OSError):
        raise InputError(
            f"testsuite {title!r}: timestamp {stamp!r} is not an ISO-8601 time", location
        ) from None
    if not MIN_UNIX <= seconds <= MAX_UNIX:
        raise InputError(
            f"testsuite {title!r}: timestamp {stamp!r} is outside 1970..2100", location
        )
    return format_time(seconds)


def _suite_event(
    suite: Element,
    index: int,
    location: Location,
    prefix: str,
    channel: str,
    fallback: str | None,
) -> dict[str, Any]:
    title = (suite.get("name") or "").strip() or f"suite-{index}"
    found = CONTROL.search(title)
    if found is not None:
        raise InputError(
            f"testsuite name {title!r} holds a control character ({found.group()!r}); "
            "it names a key, which is one line",
            location,
        )
    stamp = suite.get("timestamp")
    if stamp and stamp.strip():
        when = _timestamp(stamp.strip(), title, location)
    elif fallback is not None:
        when = fallback
    else:
        raise InputError(
            f"testsuite {title!r} has no timestamp; give the run's time with --at", location
        )
    cases = [c for c in suite if _local(c.tag) == "testcase"]
    if cases:
        failed = sum(1 for c in cases if any(_local(x.tag) in ("failure", "error") for x in c))
        skipped = sum(1 for c in cases if any(_local(x.tag) == "skipped" for x in c))
        total = len(cases)
    else:
        failed = _count(suite, "failures", title, location)
        failed += _count(suite, "errors", title, location)
        skipped = _count(suite, "skipped", title, location)
        total = _count(suite, "tests", title, location)
    if failed:
        verdict = "failed"
    elif total - skipped <= 0:
        verdict = "empty"  # nothing ran: no evidence that the tests pass
    else:
        verdict = "passed"
    compact = when.replace("-", "").replace(":", "")
    summary = "ran no test" if verdict == "empty" else verdict
    return {
        "id": f"test-run-{_UNSAFE_ID.sub('-', title).strip('-') or index}-{compact}",
        "channel": channel,
        "at": when,
        "recorded": when,
        "kind": "test_run",
        "text": f"Test suite {title} {summary}: {total} tests, {failed} failed, {skipped} skipped",
        "set": {f"{prefix}.{title}": verdict},
    }
