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
(from a non-agent actor) and judge it like any other claim. Bot authors (``author.is_bot``, a
login ``app/NAME`` as gh spells GitHub Apps, or ``NAME[bot]`` as the REST API does) are agents:
with ``--ol`` the declarations say so (``actor "app/dependabot" agent``), so a bot's merged pull
request that closes an issue is a claim, never evidence.

An export is untrusted input: whatever this module emits passes the event reader's own checks
(``resolver.language.eventlog_checks``) before anything is written, and every refusal names the
file, the record's line and its JSON path (``FILE:LINE: error: [3].author.login: ...``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.ingest.gitrun import source_error
from resolver.ingest.writer import dumps
from resolver.language.eventlog_checks import CONTROL, IDENTIFIER, MAX_INT, checked_line
from resolver.times import TimeFormatError, format_time, parse_time

__all__ = ["GithubImport", "read_github"]

_ISSUE_FIELDS = ("number", "title", "state", "createdAt")
_PR_FIELDS = ("number", "title", "state", "createdAt", "mergedAt")
_CLOSE_MARKER = {"COMPLETED": "completes", "NOT_PLANNED": "cancels", "DUPLICATE": "supersedes"}


@dataclass
class GithubImport:
    """The events (sorted by time, then id), expectations and bot authors read from gh JSON."""

    events: list[dict[str, Any]]
    expectations: list[tuple[str, str, str]]  # (id, title, opening event)
    bots: list[str] = field(default_factory=list)  # the `by` of every bot author, sorted

    def declarations(self) -> str:
        """The ``.ol`` text declaring the bots agents and one expectation per issue."""
        lines = [
            "# Expectations imported from GitHub issues: each issue owes its resolution.",
            "# Regenerate with `openloop ingest github FILE.json --ol FILE`.",
            "",
        ]
        if self.bots:
            lines.append("# Bot authors are agents: their word is a claim, never evidence.")
            lines.extend(f"actor {_exact(bot)} agent" for bot in self.bots)
            lines.append("")
        for ident, title, opening in self.expectations:
            lines.append(f"expectation {ident} {{")
            lines.append(f"  title {_quote(title)}")
            lines.append(f"  opened_by {opening}")
            lines.append("}")
            lines.append("")
        return "\n".join(lines)


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return _exact(flat)


def _exact(text: str) -> str:
    """``text`` as an ``.ol`` string, every character kept (a pattern must match ``by`` exactly;
    the text holds no line break: logins with control characters are refused)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _shown(value: Any) -> str:
    """A value for a message: JSON, shortened (escapes keep control characters visible)."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _records(path: Path) -> list[tuple[int, Any]]:
    """The array's items with the line each starts on."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise source_error(name, "no such file; expected the JSON of gh issue/pr list") from None
    except IsADirectoryError:
        raise source_error(name, "a folder; expected the JSON of gh issue/pr list") from None
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
        _refuse_surrogates(value, f"[{len(items)}]", Location(name, line))
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


def _refuse_surrogates(value: Any, where: str, location: Location) -> None:
    """A lone surrogate escape (``"\\ud800"``) decodes to text that cannot be written as UTF-8."""
    stack = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                stack.append((key, path))
                stack.append((inner, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}[{n}]") for n, inner in enumerate(item))
        elif isinstance(item, str) and not item.isascii():
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(
                    f"{path}: a string holds a lone surrogate escape, which is not UTF-8 text",
                    location,
                ) from None


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def read_github(
    paths: list[str], issue_prefix: str = "issue-", note_bots: bool = False
) -> GithubImport:
    """Read one or more gh JSON exports (issues, pull requests, or a mix).

    ``note_bots``: say on stderr which bot authors the events hold (for a run without ``--ol``,
    whose events alone cannot make them agents).
    """
    if not IDENTIFIER.fullmatch(f"{issue_prefix}1"):
        raise InputError(
            f"--issue-prefix {_shown(issue_prefix)}: ids are identifiers (a letter or '_', then "
            "letters, digits and _ . : / - @ +)"
        )
    events: dict[str, dict[str, Any]] = {}
    expectations: dict[str, tuple[str, str, str]] = {}
    bots: set[str] = set()
    for path in paths:
        for index, (line, record) in enumerate(_records(Path(path))):
            reader = _Record(record, Location(str(path), line), f"[{index}]", bots)
            if reader.is_pull:
                reader.pull(events, issue_prefix)
            else:
                reader.issue(events, expectations, issue_prefix)
    ordered = sorted(events.values(), key=lambda e: (parse_time(e["at"]), e["id"]))
    imported = GithubImport(ordered, [expectations[k] for k in sorted(expectations)], sorted(bots))
    if note_bots and imported.bots:
        shown = ", ".join(imported.bots[:5]) + (", ..." if len(imported.bots) > 5 else "")
        print(
            f"note: {len(imported.bots)} bot author(s) ({shown}) are agents only where declared: "
            "give --ol FILE to write their `actor ... agent` declarations",
            file=sys.stderr,
        )
    return imported


class _Record:
    """One gh record, checked field by field with its position for messages."""

    def __init__(self, record: Any, location: Location, where: str, bots: set[str]) -> None:
        self.location = location
        self.where = where
        self.bots = bots
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
        self.number = self.positive(record["number"], "number")

    def fail(self, key: str, message: str) -> InputError:
        return InputError(f"{self.where}.{key}: {message}", self.location)

    def positive(self, number: Any, key: str) -> int:
        """An issue or pull request number: ids and ``set`` keys carry it, clingo reads 32 bits."""
        if isinstance(number, bool) or not isinstance(number, int) or not 0 < number <= MAX_INT:
            raise self.fail(
                key, f"must be a positive integer up to {MAX_INT}, got {_shown(number)}"
            )
        return number

    def text(self, key: str) -> str:
        value = self.record.get(key)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {_shown(value)}")
        return value

    def time(self, key: str) -> str | None:
        value = self.text(key)
        if not value or value.startswith("0001-01-01"):  # Go's zero time: not set
            return None
        try:
            return format_time(parse_time(value))
        except TimeFormatError as exc:
            raise self.fail(key, str(exc)) from None

    def later(self, key: str, opened: str) -> str | None:
        """A closing time, refused before the opening: the close could never count, silently."""
        closed = self.time(key)
        if closed is not None and parse_time(closed) < parse_time(opened):
            raise self.fail(key, f"{closed} is before createdAt {opened}")
        return closed

    def author(self) -> str | None:
        """The author's login, lower case, as ``by``; a bot's is also kept in ``bots``."""
        author = self.record.get("author")
        if author is None:
            return None
        if not isinstance(author, dict):
            raise self.fail("author", f"must be an object with a login, got {_shown(author)}")
        login = author.get("login")
        if login is None or login == "":
            return None
        if not isinstance(login, str):
            raise self.fail("author.login", f"must be a string, got {_shown(login)}")
        found = CONTROL.search(login)
        if found is not None:
            raise self.fail(
                "author.login",
                f"must not hold control characters, got {_shown(login)} "
                f"(holding {found.group()!r})",
            )
        is_bot = author.get("is_bot")
        if is_bot is not None and not isinstance(is_bot, bool):
            raise self.fail("author.is_bot", f"must be true or false, got {_shown(is_bot)}")
        by = login.lower()
        if is_bot or by.endswith("[bot]") or by.startswith("app/"):
            if "*" in by:  # its declaration is a quoted pattern, where `*` is a wildcard
                raise self.fail("author.login", f"a bot's login cannot hold '*', got {_shown(by)}")
            self.bots.add(by)
        return by

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
            raise self.fail("createdAt", "must be a time")
        self.put(events, {
            "id": f"{ident}-opened", "channel": "issues", "at": opened, "recorded": opened,
            "by": self.author(), "kind": "issue", "text": self.words(),
        })  # fmt: skip
        expectations[ident] = (ident, self.text("title") or ident, f"{ident}-opened")
        if self.text("state").upper() != "CLOSED":
            return
        closed = self.later("closedAt", opened)
        if closed is None:
            raise self.fail("closedAt", "a closed issue needs a closing time")
        reason = (self.text("stateReason") or "COMPLETED").upper()
        marker = _CLOSE_MARKER.get(reason)
        if marker is None:
            return  # e.g. REOPENED on a closed record: no closing reason to import
        self.put(events, {
            "id": f"{ident}-closed", "channel": "issues", "at": closed, "recorded": closed,
            "kind": "issue_closed", "text": f"Closed as {reason.lower().replace('_', ' ')}",
            marker: [ident],
        })  # fmt: skip

    def pull(self, events: dict[str, dict[str, Any]], prefix: str) -> None:
        opened = self.time("createdAt")
        merged = self.time("mergedAt") if opened is None else self.later("mergedAt", opened)
        if merged is None:
            return
        references = self.record.get("closingIssuesReferences") or []
        if not isinstance(references, list):
            raise self.fail("closingIssuesReferences", "must be a list")
        closes: list[str] = []
        for n, reference in enumerate(references):
            number = reference.get("number") if isinstance(reference, dict) else reference
            closes.append(f"{prefix}{self.positive(number, f'closingIssuesReferences[{n}]')}")
        self.put(events, {
            "id": f"pr-{self.number}-merged", "channel": "pulls", "at": merged,
            "recorded": merged, "by": self.author(), "kind": "merge", "text": self.words(),
            "set": {f"pr.{self.number}": "merged"},
            "completes": list(dict.fromkeys(closes)) or None,
        })  # fmt: skip

    def put(self, events: dict[str, dict[str, Any]], event: dict[str, Any]) -> None:
        """Keep ``event`` once it passes the checks of a hand-written log line."""
        event = {k: v for k, v in event.items() if v is not None}
        checked_line(dumps(event), self.location)
        known = events.get(event["id"])
        if known is not None and known != event:
            raise InputError(
                f"{self.where}: event {event['id']} is given twice with different content",
                self.location,
            )
        events[event["id"]] = event
