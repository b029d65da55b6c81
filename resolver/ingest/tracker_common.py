"""What the tracker importers (beads, Task Master, Backlog.md) share: items, events, declarations.

A tracker holds obligations (its items) and what people and agents said about them (status
changes). The importers keep the two apart, because the contract does (SPEC §3, §6):

- each item is an expectation (or, with sub-items, a task whose obligations they are), declared
  in the ``--ol`` file and opened by an event ``ITEM-opened`` (kind ``issue``) on the tracker's
  channel, which the declarations make a ``mention`` channel: an item's description restates
  other items' words, and a restatement must never satisfy another item;
- every status change is an event on ``CHANNEL-status`` (a work channel, kind ``issue_status``)
  without text, so it is never a text link to anything; a close carries ``claims_complete``
  (a claim by the closer, judged by the rules, never evidence), a cancellation ``cancels`` (with
  effect only where the closer has authority), a reopening ``reports_pending``;
- event ids are the item's id, the change and its time (``bd-12-closed-20240827T100000Z``),
  so a re-run over the same export, or a later export of the same tracker, writes the same ids
  for the same changes (``--append`` adds only the new ones).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from resolver.errors import InputError, Location
from resolver.ingest.writer import dumps
from resolver.language.eventlog_checks import checked_line
from resolver.times import TimeFormatError, format_time, parse_time

__all__ = ["Item", "TrackerImport", "check_id", "check_text", "one_line", "tracker_time"]

#: The language's identifier (grammar/openloop.lark, NAME): ids are written into ``.ol`` files.
_NAME = re.compile(r"[^\W\d][\w.:/@+-]*")
_FRACTION = re.compile(r"^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})\.\d+")
_SPACED = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})")


def check_id(ident: str, location: Location, what: str = "item id") -> str:
    """``ident`` when it can be written as an identifier of the language, else an input error."""
    if not _NAME.fullmatch(ident):
        raise InputError(
            f"{what} {ident!r} is not an identifier (a letter or _, then letters, digits, "
            "_ . : / - @ +)",
            location,
        )
    return ident


def check_text(value: Any, location: Location) -> None:
    """Refuse a JSON value holding a lone surrogate escape (``"\\ud800"``): JSON allows it,
    UTF-8 cannot write it, and an import must stop before anything is written."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            "a string holds a lone surrogate escape, which is not UTF-8", location
        ) from None


def tracker_time(value: Any, field_name: str, location: Location) -> str | None:
    """A tracker's time as a UTC time of the contract; None when absent (or Go's zero time).

    Trackers write RFC 3339 with fractions of a second (beads, Task Master) or ``YYYY-MM-DD
    HH:MM`` (Backlog.md); the fraction is dropped (events are ordered to the second)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InputError(f"field '{field_name}' must be a time, got {value!r}", location)
    text = value.strip().strip("'\"")
    if text.startswith("0001-01-01"):
        return None
    text = _FRACTION.sub(r"\1", text)
    text = _SPACED.sub(r"\1T\2", text)
    try:
        return format_time(parse_time(text))
    except TimeFormatError as exc:
        raise InputError(f"field '{field_name}': {exc}", location) from None


def stamp(time: str) -> str:
    """The compact form of a UTC time used in event ids: ``20240827T100000Z``."""
    return time.replace("-", "").replace(":", "")


def one_line(text: str) -> str:
    """Whitespace collapsed: notes and ``.ol`` titles hold one line."""
    return " ".join(text.split())


@dataclass
class Item:
    """One tracker item: an expectation, or a task when other items are ``part_of`` it."""

    ident: str
    title: str
    opening: str
    requires: list[str] = field(default_factory=list)
    part_of: str | None = None


@dataclass
class TrackerImport:
    """Events and items read from one tracker's files; ``channel`` names the tracker."""

    channel: str
    events: dict[str, dict[str, Any]] = field(default_factory=dict)
    items: dict[str, Item] = field(default_factory=dict)
    agents: list[str] = field(default_factory=list)
    #: ``FILE:LINE: warning: ...`` lines about what was read but not imported.
    warnings: list[str] = field(default_factory=list)

    @property
    def status_channel(self) -> str:
        """The work channel that carries the tracker's status changes."""
        return f"{self.channel}-status"

    def put(self, event: dict[str, Any], location: Location) -> None:
        """Add one event; the same id twice must be the same event. Each event passes the
        checks of a hand-written log line first (a tracker's names and notes are untrusted: a
        control character in a ``by`` would otherwise write a log its own reader refuses)."""
        event = {k: v for k, v in event.items() if v is not None}
        checked_line(dumps(event), location)
        known = self.events.get(event["id"])
        if known is not None and known != event:
            raise InputError(f"event {event['id']} is given twice with different content", location)
        self.events[event["id"]] = event

    def add_item(self, item: Item, location: Location) -> None:
        """Add one item; the same id twice is an error (a tracker's ids are unique)."""
        if item.ident in self.items and self.items[item.ident] != item:
            raise InputError(f"item {item.ident} is given twice with different content", location)
        self.items[item.ident] = item

    def opened(
        self, ident: str, at: str, by: str | None, title: str, body: str, location: Location
    ) -> str:
        """The item's opening event; returns its id."""
        text = f"{title}\n\n{body.strip()}" if body.strip() else title
        event_id = f"{ident}-opened"
        self.put(
            {"id": event_id, "channel": self.channel, "at": at, "recorded": at, "by": by,
             "kind": "issue", "text": text},
            location,
        )  # fmt: skip
        return event_id

    def change(
        self,
        ident: str,
        what: str,
        at: str,
        by: str | None,
        status: str,
        location: Location,
        marker: str | None = None,
        notes: dict[str, str] | None = None,
    ) -> None:
        """A status change of ``ident`` at ``at``: ``what`` names it in the id (``closed``,
        ``cancelled``, ``reopened``, ``started``); ``marker`` is what it says of the item."""
        shown = {"status": one_line(status)}
        for key, value in (notes or {}).items():
            if value and value.strip():
                shown[key] = one_line(value)
        event: dict[str, Any] = {
            "id": f"{ident}-{what}-{stamp(at)}", "channel": self.status_channel, "at": at,
            "recorded": at, "by": by, "kind": "issue_status", "notes": shown,
        }  # fmt: skip
        if marker is not None:
            event[marker] = [ident]
        self.put(event, location)

    def ordered_events(self) -> list[dict[str, Any]]:
        """Every event, by time, openings first at one instant, then id (the order written)."""
        return sorted(
            self.events.values(),
            key=lambda e: (parse_time(e["at"]), e["channel"] != self.channel, e["id"]),
        )

    def declarations(self, source: str) -> str:
        """The ``.ol`` text: the channels, the agents, and one declaration per item."""
        lines = [
            f"# Items imported from {source}: each owes its completion; a close is a claim.",
            "# Regenerated by the importer: edit the tracker, not this file.",
            "",
            f"channel {self.channel} mention",
            f"channel {self.status_channel} work",
        ]
        for pattern in sorted(set(self.agents)):
            plain = "*" not in pattern and _NAME.fullmatch(pattern)
            lines.append(f"actor {pattern if plain else quote(pattern)} agent")
        lines.append("")
        parents = {x.part_of for x in self.items.values() if x.part_of is not None}
        for ident in sorted(self.items):
            item = self.items[ident]
            kind = "task" if ident in parents else "expectation"
            lines.append(f"{kind} {ident} {{")
            lines.append(f"  title {quote(item.title or ident)}")
            lines.append(f"  opened_by {item.opening}")
            requires = [r for r in dict.fromkeys(item.requires) if r != ident]
            if requires:
                lines.append(f"  requires {', '.join(requires)}")
            if item.part_of is not None and kind == "expectation":
                lines.append(f"  part_of {item.part_of}")
            lines.append("}")
            lines.append("")
        return "\n".join(lines)


def quote(text: str) -> str:
    """A string literal of the language."""
    flat = one_line(text)
    return '"' + flat.replace("\\", "\\\\").replace('"', '\\"') + '"'
