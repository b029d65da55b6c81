"""Build an ``ingest github``-shaped issue export from the commits ``ingest git`` wrote.

For the audit's measurement on real histories (docs/guide/trackers.md) where the issue tracker
itself is not at hand: every issue a commit completes (``fixes #12`` in its message, which ``ingest
git`` reads as ``completes issue-12``, SPEC §6.1) becomes a closed issue record as ``gh issue
list --json ...`` prints it, titled by that commit's subject. The issue opens one hour before
the first commit that names it (``#12`` anywhere in a message). Its close is put where one of
two trackers would put it:

- ``submit``: at the first completing commit's ``at`` (its author date: the fix as written,
  which is when a tracker that counts closes on submit closes the issue);
- ``merge``: at that commit's ``recorded`` (when the branch learned of it, as GitHub closes an
  issue when the pull request that fixes it merges).

    python tests/trackers/github_export.py commits.jsonl submit > issues.json
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime, timedelta

_NAMED = re.compile(r"#(\d+)\b")


def _instant(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def export(commits_jsonl: str, close_at: str = "submit", prefix: str = "issue-") -> list[dict]:
    """The issue records, by number."""
    first_named: dict[int, datetime] = {}
    closes: dict[int, tuple[datetime, datetime, str]] = {}
    with open(commits_jsonl, encoding="utf-8") as stream:
        for line in stream:
            event = json.loads(line)
            at, recorded = _instant(event["at"]), _instant(event.get("recorded", event["at"]))
            text = event.get("text", "")
            for number in {int(n) for n in _NAMED.findall(text)}:
                first_named[number] = min(first_named.get(number, at), at)
            for target in event.get("completes", []):
                if not target.startswith(prefix) or not target[len(prefix) :].isdigit():
                    continue
                number = int(target[len(prefix) :])
                first_named[number] = min(first_named.get(number, at), at)
                if number not in closes or at < closes[number][0]:
                    closes[number] = (at, recorded, text.splitlines()[0] if text else "")
    records = []
    for number in sorted(closes):
        at, recorded, subject = closes[number]
        closed = at if close_at == "submit" else recorded
        records.append({
            "number": number, "title": subject, "body": "", "state": "CLOSED",
            "stateReason": "COMPLETED",
            "createdAt": _time(first_named[number] - timedelta(hours=1)),
            "closedAt": _time(closed), "author": None, "labels": [], "url": "",
        })  # fmt: skip
    return records


def _time(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


if __name__ == "__main__":
    mode = sys.argv[2] if len(sys.argv) > 2 else "submit"
    if mode not in ("submit", "merge"):
        sys.exit("usage: github_export.py COMMITS.jsonl [submit|merge]")
    json.dump(export(sys.argv[1], mode), sys.stdout, indent=1)
    sys.stdout.write("\n")
