"""``openloop ingest github``: issues and pull requests as ``gh issue|pr list --json`` prints them.

Two shapes, told apart per record by their fields (the field lists are the ones SPEC §6.2 names,
which are the gh CLI's ``--json`` field names):

- an issue (``stateReason`` or ``labels``, no ``mergedAt``): an event ``issue-N-opened`` (channel
  ``issues``, kind ``issue``) and, with ``--ol``, an expectation ``issue-N`` opened by it; when
  closed, ``issue-N-closed`` carrying ``completes`` (``COMPLETED``, or no reason: GitHub's default),
  ``cancels`` (``NOT_PLANNED``) or ``supersedes`` (``DUPLICATE``) for ``issue-N``;
- a pull request (``mergedAt``, ``mergeCommit`` or ``closingIssuesReferences``): when merged, an
  event ``pr-N-merged`` (channel ``pulls``, kind ``merge``) that sets ``pr.N = "merged"`` and
  ``completes`` each closing reference.

The tracker's close is a marker, not a state transition: the rules grade it at tier ``explicit``
(from a non-agent actor) and judge it like any other claim. Records keep their file positions, so a
record of neither shape is reported as ``FILE:LINE: error: ...``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.ingest.gitrun import source_error
from resolver.times import TimeFormatError, format_time, parse_time

__all__ = ["GithubImport", "read_github"]

_ISSUE_FIELDS = ("number", "title", "state", "createdAt")
_PR_FIELDS = ("number", "title", "state", "createdAt", "mergedAt")
_CLOSE_MARKER = {"COMPLETED": "completes", "NOT_PLANNED": "cancels", "DUPLICATE": "supersedes"}


@dataclass
class GithubImport:
    """The events (sorted by time, then id) and expectations read from gh JSON files."""

    events: list[dict[str, Any]]
    expectations: list[tuple[str, str, str]]  # (id, title, opening event)

    def declarations(self) -> str:
        """The ``.ol`` text declaring one expectation per issue."""
        lines = [
            "# Expectations imported from GitHub issues: each issue owes its resolution.",
            "# Regenerate with `openloop ingest github FILE.json --ol FILE`.",
            "",
        ]
        for ident, title, opening in self.expectations:
            lines.append(f"expectation {ident} {{")
            lines.append(f"  title {_quote(title)}")
            lines.append(f"  opened_by {opening}")
            lines.append("}")
            lines.append("")
        return "\n".join(lines)


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return '"' + flat.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _records(path: Path) -> list[tuple[int, Any]]:
    """The array's items with the line each starts on."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise source_error(name, "no such file; expected the JSON of gh issue/pr list") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (at byte {exc.start})", Location(name, 1)) from None
    decoder = json.JSONDecoder()
    index = _skip(text, 0)
    if index >= len(text) or text[index] != "[":
        raise InputError(
            "expected a JSON array, as `gh issue list --json ...` or `gh pr list --json ...` "
            "prints",
            Location(name, text.count("\n", 0, index) + 1),
        )
    items: list[tuple[int, Any]] = []
    index = _skip(text, index + 1)
    while True:
        line = text.count("\n", 0, index) + 1
        if index < len(text) and text[index] == "]" and not items:
            index += 1
            break
        try:
            value, index = decoder.raw_decode(text, index)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", Location(name, exc.lineno)) from None
        except RecursionError:
            raise InputError("invalid JSON: nested too deeply", Location(name, line)) from None
        except ValueError:  # Python refuses integers of more than 4,300 digits
            raise InputError(
                "invalid JSON: an integer with too many digits", Location(name, line)
            ) from None
        items.append((line, value))
        index = _skip(text, index)
        if index < len(text) and text[index] == ",":
            index = _skip(text, index + 1)
            continue
        if index < len(text) and text[index] == "]":
            index += 1
            break
        raise InputError(
            "invalid JSON: expected ',' or ']'", Location(name, text.count("\n", 0, index) + 1)
        )
    if _skip(text, index) != len(text):
        raise InputError(
            "unexpected text after the JSON array", Location(name, text.count("\n", 0, index) + 1)
        )
    return items


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def read_github(paths: list[str], issue_prefix: str = "issue-") -> GithubImport:
    """Read one or more gh JSON exports (issues, pull requests, or a mix)."""
    events: dict[str, dict[str, Any]] = {}
    expectations: dict[str, tuple[str, str, str]] = {}
    for path in paths:
        for line, record in _records(Path(path)):
            location = Location(str(path), line)
            reader = _Record(record, location)
            if reader.is_pull:
                reader.pull(events, issue_prefix)
            else:
                reader.issue(events, expectations, issue_prefix)
    ordered = sorted(events.values(), key=lambda e: (parse_time(e["at"]), e["id"]))
    return GithubImport(ordered, [expectations[k] for k in sorted(expectations)])


class _Record:
    """One gh record, checked field by field with its position for messages."""

    def __init__(self, record: Any, location: Location) -> None:
        self.location = location
        if not isinstance(record, dict):
            raise InputError("expected a JSON object (one gh issue or pull request)", location)
        self.record = record
        pull_fields = {"mergedAt", "mergeCommit", "closingIssuesReferences"}
        self.is_pull = bool(pull_fields & record.keys())
        issue_like = bool({"stateReason", "labels"} & record.keys())
        if not self.is_pull and not issue_like:
            raise InputError(
                "neither a gh issue record (number, title, state, stateReason, createdAt, "
                "closedAt, ...) nor a gh pr record (number, ..., mergedAt, mergeCommit, "
                "closingIssuesReferences)",
                location,
            )
        required = _PR_FIELDS if self.is_pull else _ISSUE_FIELDS
        missing = [f for f in required if f not in record]
        if missing:
            what = "pull request" if self.is_pull else "issue"
            raise InputError(f"gh {what} record lacks {', '.join(missing)}", location)
        number = record["number"]
        if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
            raise InputError(f"field 'number' must be a positive integer, got {number!r}", location)
        self.number = number

    def text(self, key: str) -> str:
        value = self.record.get(key)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise InputError(f"field '{key}' must be a string, got {value!r}", self.location)
        return value

    def time(self, key: str) -> str | None:
        value = self.text(key)
        if not value or value.startswith("0001-01-01"):  # Go's zero time: not set
            return None
        try:
            return format_time(parse_time(value))
        except TimeFormatError as exc:
            raise InputError(f"field '{key}': {exc}", self.location) from None

    def author(self) -> str | None:
        author = self.record.get("author")
        if isinstance(author, dict) and isinstance(author.get("login"), str) and author["login"]:
            return str(author["login"]).lower()
        return None

    def words(self) -> str:
        body = self.text("body").strip()
        title = self.text("title").strip()
        return f"{title}\n\n{body}" if body else title

    def issue(
        self,
        events: dict[str, dict[str, Any]],
        expectations: dict[str, tuple[str, str, str]],
        prefix: str,
    ) -> None:
        ident = f"{prefix}{self.number}"
        opened = self.time("createdAt")
        if opened is None:
            raise InputError("field 'createdAt' must be a time", self.location)
        _put(events, {
            "id": f"{ident}-opened", "channel": "issues", "at": opened, "recorded": opened,
            "by": self.author(), "kind": "issue", "text": self.words(),
        }, self.location)  # fmt: skip
        expectations[ident] = (ident, self.text("title") or ident, f"{ident}-opened")
        if self.text("state").upper() != "CLOSED":
            return
        closed = self.time("closedAt")
        if closed is None:
            raise InputError("a closed issue needs field 'closedAt'", self.location)
        reason = (self.text("stateReason") or "COMPLETED").upper()
        marker = _CLOSE_MARKER.get(reason)
        if marker is None:
            return  # e.g. REOPENED on a closed record: no closing reason to import
        _put(events, {
            "id": f"{ident}-closed", "channel": "issues", "at": closed, "recorded": closed,
            "kind": "issue_closed", "text": f"Closed as {reason.lower().replace('_', ' ')}",
            marker: [ident],
        }, self.location)  # fmt: skip

    def pull(self, events: dict[str, dict[str, Any]], prefix: str) -> None:
        merged = self.time("mergedAt")
        if merged is None:
            return
        references = self.record.get("closingIssuesReferences") or []
        if not isinstance(references, list):
            raise InputError("field 'closingIssuesReferences' must be a list", self.location)
        closes: list[str] = []
        for reference in references:
            number = reference.get("number") if isinstance(reference, dict) else reference
            if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
                raise InputError(
                    f"closingIssuesReferences: expected issues with a number, got {reference!r}",
                    self.location,
                )
            closes.append(f"{prefix}{number}")
        _put(events, {
            "id": f"pr-{self.number}-merged", "channel": "pulls", "at": merged,
            "recorded": merged, "by": self.author(), "kind": "merge", "text": self.words(),
            "set": {f"pr.{self.number}": "merged"},
            "completes": list(dict.fromkeys(closes)) or None,
        }, self.location)  # fmt: skip


def _put(events: dict[str, dict[str, Any]], event: dict[str, Any], location: Location) -> None:
    event = {k: v for k, v in event.items() if v is not None}
    known = events.get(event["id"])
    if known is not None and known != event:
        raise InputError(f"event {event['id']} is given twice with different content", location)
    events[event["id"]] = event
