"""Small histories for the ledger's tests, written to a folder as ``.ol`` and ``.jsonl`` files."""

from __future__ import annotations

import json
from pathlib import Path

DECLARATIONS = """
channel commits work
channel audit work
actor alice principal

expectation backups {
  title "Move backups to PostgreSQL"
  opened 2024-01-01
  want backup.backend = "PostgreSQL"
  verify state
  search commits
}
expectation tokens {
  title "Rotate the deploy tokens"
  opened 2024-01-01
  want token.rotated = true
  verify state
  search commits
}
expectation later {
  title "Work that opens in June"
  opened 2024-06-01
  want later.done = true
  search commits
}
expectation audited {
  title "Audit the access list"
  opened 2024-01-01
  want audit.done = true
  verify state
  search audit
}
"""

EVENTS = [
    {"id": "a-1", "channel": "audit", "seq": 1, "at": "2024-01-02T00:00:00Z", "text": "start"},
    {
        "id": "c-1",
        "channel": "commits",
        "seq": 1,
        "at": "2024-01-05T00:00:00Z",
        "set": {"token.rotated": True},
    },
    {
        "id": "c-2",
        "channel": "commits",
        "seq": 2,
        "at": "2024-01-10T00:00:00Z",
        "text": "unrelated work",
    },
    {"id": "a-3", "channel": "audit", "seq": 3, "at": "2024-01-20T00:00:00Z", "text": "end"},
]

#: The event that closes ``backups``, appended after a first refresh.
CLOSING = {
    "id": "c-3",
    "channel": "commits",
    "seq": 3,
    "at": "2024-02-02T00:00:00Z",
    "set": {"backup.backend": "PostgreSQL"},
}


def line(event: dict) -> str:
    """One JSON-lines record."""
    return json.dumps(event, sort_keys=True) + "\n"


def write_history(folder: Path, events: list[dict] | None = None) -> Path:
    """Write the small history into ``folder`` and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "project.ol").write_text(DECLARATIONS, encoding="utf-8")
    records = EVENTS if events is None else events
    (folder / "events.jsonl").write_text("".join(line(e) for e in records), encoding="utf-8")
    return folder


def append(folder: Path, event: dict) -> None:
    """Append one whole line to the history's log."""
    with open(folder / "events.jsonl", "a", encoding="utf-8") as stream:
        stream.write(line(event))


def big_history(folder: Path, expectations: int) -> Path:
    """Many expectations, three in four closed by a state event spread over February 2024."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["channel commits work"]
    for i in range(expectations):
        lines.append(
            f'expectation x-{i} {{ title "Item {i}" opened 2024-01-01 '
            f'want item.k{i} = "done" verify state }}'
        )
    (folder / "project.ol").write_text("\n".join(lines) + "\n", encoding="utf-8")
    events = [
        {
            "id": f"c-{i}",
            "channel": "commits",
            "at": f"2024-02-{1 + i % 28:02d}T{i % 24:02d}:00:00Z",
            "set": {f"item.k{i}": "done"},
        }
        for i in range(expectations)
        if i % 4 != 3
    ]
    events.sort(key=lambda e: (e["at"], e["id"]))
    for number, event in enumerate(events, start=1):
        event["seq"] = number
    (folder / "events.jsonl").write_text("".join(line(e) for e in events), encoding="utf-8")
    return folder
