"""Generators of hostile importer inputs, built from scratch rather than mutated (issue 29).

Each generator takes its own ``random.Random`` and returns one input, so case ``N`` of a seed is
a pure function of the two and can be replayed alone. The values are drawn from pools of what
has broken readers before or sits on a boundary: control characters (C0, DEL, C1, U+2028, ESC
sequences, workflow commands), lone surrogates, invalid UTF-8, huge/negative/non-finite numbers,
dates before 1970 and after 2100, odd offsets, bot logins, identifier-breaking names.

- :func:`github_export`: a ``gh issue|pr list --json`` array (issues and pull requests mixed);
- :func:`junit_report`: a JUnit XML report (nested suites, cases with failures, skips, errors);
- :func:`git_history`: a ``git fast-import`` stream (commits with random messages, trailers,
  closing keywords, reverts, identities, dates, file names and TODO lines; renames, deletions,
  a merge), so that a whole repository is built by one git process.
"""

from __future__ import annotations

import json
import random
from typing import Any

TEXT = (
    "",
    "plain words",
    "line one\nline two",
    "\x1b[2K\x1b]0;title\x07",
    "::error file=x::forged\n::stop-commands::t",
    "\x00nul",
    "\x7f\x85\x9f",
    "a\u2028b\u2029c",
    "\u202eevil\u202c",
    "ünïcödé ✓ 日本",
    "\ud800lone",
    "\udfff",
    'quote " back \\ slash',
    "x" * 3000,
    "\r\n\r",
    "\t",
)
LOGINS = (
    "alice",
    "Bob",
    "app/dependabot",
    "renovate[bot]",
    "ev\nil",
    "a\x1bb",
    "a\u2028b",
    "*",
    'odd"name[bot]',
    "back\\slash",
    "",
    "émile",
    7,
    None,
)
NUMBERS = (1, 2, 12, 2**31 - 1, 2**31, 0, -1, 10**30, 1.5, True, "3", None, float("inf"))
TIMES = (
    "2024-03-01T08:00:00Z",
    "2024-03-04T09:30:00Z",
    "2024-03-02T00:00:00+14:00",
    "1970-01-01T00:00:00Z",
    "1969-12-31T23:59:59Z",
    "2100-12-31T23:59:59Z",
    "2101-01-01T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "2024-02-30T00:00:00Z",
    "2024-03-01",
    "soon",
    "",
    1709280000,
    None,
)


def _pick(rng: random.Random, pool: tuple[Any, ...], usual: Any, odd: float = 0.12) -> Any:
    return rng.choice(pool) if rng.random() < odd else usual


def github_export(rng: random.Random) -> bytes:
    """A gh JSON export of one to four records, as ``json.dumps`` writes it (surrogates as
    ``\\u`` escapes); now and then a record's field is retyped or dropped."""
    records = []
    for _ in range(rng.randint(1, 4)):
        number = _pick(rng, NUMBERS, rng.randint(1, 40), 0.15)
        author = {"login": _pick(rng, LOGINS, rng.choice(("alice", "bob"))), "is_bot": False}
        if rng.random() < 0.2:
            author["is_bot"] = rng.choice((True, True, "yes", None))
        record: dict[str, Any] = {
            "author": author if rng.random() > 0.05 else rng.choice((None, "alice", [])),
            "body": _pick(rng, TEXT, "Body text."),
            "createdAt": _pick(rng, TIMES, "2024-03-01T08:00:00Z", 0.1),
            "number": number,
            "title": _pick(rng, TEXT, "A title"),
        }
        if rng.random() < 0.6:  # an issue
            record |= {
                "labels": [{"name": _pick(rng, TEXT, "bug", 0.1)}],
                "state": rng.choice(("OPEN", "CLOSED", "CLOSED", "closed", "")),
                "stateReason": rng.choice(("COMPLETED", "NOT_PLANNED", "DUPLICATE", "", "X\n")),
                "closedAt": _pick(rng, TIMES, "2024-03-04T09:30:00Z", 0.1),
            }
        else:  # a pull request
            references = [{"number": _pick(rng, NUMBERS, rng.randint(1, 40), 0.1)}]
            record |= {
                "state": "MERGED",
                "mergedAt": _pick(rng, TIMES, "2024-03-03T10:00:00Z", 0.1),
                "mergeCommit": {"oid": "abc"},
                "closingIssuesReferences": rng.choice((references, references, [], [7], "5", None)),
            }
        if rng.random() < 0.05:
            del record[rng.choice(sorted(record))]
        records.append(record)
    text = json.dumps(records, indent=rng.choice((None, 2)), ensure_ascii=rng.random() < 0.8)
    return text.encode("utf-8", "surrogatepass")


SUITE_NAMES = (
    "unit",
    "integration",
    "a&#10;b",
    "a&#133;b",
    "a\u2028b",
    "&lt;x&gt; &amp; &quot;q&quot;",
    "",
    "ünï ✓",
    "x" * 300,
    "::error::y",
    "a&#27;b",
)
COUNTS = ("0", "1", "3", "2.0", "", "inf", "-inf", "nan", "-1", "1e300", "2147483648", "many")
STAMPS = (
    "2024-03-04T10:00:00",
    "2024-03-04T10:00:00.123456+01:00",
    "2024-03-04T10:00:00Z",
    "1970-01-01T00:00:00",
    "1969-12-31T23:59:59",
    "2100-12-31T23:59:59",
    "2101-01-01T00:00:00",
    "0001-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-23:59",
    "2024-02-30T00:00:00",
    "yesterday",
    "",
)


def _attribute(rng: random.Random, name: str, pool: tuple[str, ...], usual: str) -> str:
    if rng.random() < 0.08:
        return ""
    return f' {name}="{_pick(rng, pool, usual, 0.15)}"'


def _suite(rng: random.Random, depth: int) -> str:
    cases = []
    for n in range(rng.randint(0, 3)):
        child = rng.choice(("", "", "<failure message='x'/>", "<error/>", "<skipped/>"))
        cases.append(f'<testcase name="t{n}">{child}</testcase>')
    if depth < 2 and rng.random() < 0.15:
        cases.append(_suite(rng, depth + 1))
    attributes = _attribute(rng, "name", SUITE_NAMES, "unit")
    attributes += _attribute(rng, "timestamp", STAMPS, "2024-03-04T10:00:00")
    for count in ("tests", "failures", "errors", "skipped"):
        attributes += _attribute(rng, count, COUNTS, "0" if count != "tests" else "2")
    return f"<testsuite{attributes}>\n" + "\n".join(cases) + "\n</testsuite>"


def junit_report(rng: random.Random) -> bytes:
    """A JUnit report of one to three suites, under ``<testsuites>`` or alone."""
    suites = "\n".join(_suite(rng, 0) for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.7 or suites.count("<testsuite") > 1:
        suites = f"<testsuites>\n{suites}\n</testsuites>"
    return f'<?xml version="1.0" encoding="utf-8"?>\n{suites}\n'.encode()


MESSAGES = (
    b"Add the parser",
    b"Fix the crash\n\nFixes #12",
    b"Close it: closes owner/repo#3 and fixes #99999999999999",
    b"Work\n\nCompletes: intent-1, intent-2\nClaims-Complete: x\nReports-Pending: y",
    b"Work\n\nCompletes: bad id!\nWaives: \x1b[2K",
    b'Revert "Add the parser"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.',
    b"Esc \x1b]0;x\x07 and \x7f and \xc2\x85",
    b"::error file=a::forged\n::add-mask::secret",
    b"Not UTF-8 \xff\xfe",
    b"CR\r\nLF\rmixed",
    b"\xe2\x80\xa8line separator",
    b"long " + b"word " * 2000,
)
IDENTITIES = (
    b"Alice <alice@example.com>",
    b"Bob <BOB@Example.COM>",
    b"dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>",
    b"Esc \x1b <esc@example.com>",
    b"Nobody <>",
    b"\xc3\xa9mile <\xc3\xa9@example.com>",
)
DATES = (
    b"1709280000 +0000",
    b"1709290000 +0530",
    b"1709300000 -1200",
    b"1709310000 +1400",
    b"0 +0000",
    b"-100 +0000",
    b"4133980799 +0000",
    b"4133980800 +0000",
    b"9999999999 -0000",
)
PATHS = (
    "app.py",
    "src/lib.c",
    "docs/read me.md",
    "new\nline.py",
    "tab\tname.py",
    'quote"d.py',
    "ünï/cödé.py",
    "\x1b[2K.py",
    "-dash.py",
    "a" * 200 + ".py",
)
LINES = (
    b"x = 1",
    b"# TODO: retry when the pool is exhausted",
    b"// FIXME handle \x1b[2K escapes",
    b"/* XXX */ y = 2",
    b"# HACK \xff\xfe not utf-8",
    b"s = 'TODO not a comment'",
    b"# TODO: " + b"long " * 400,
    b"a();" * 300 + b" // TODO minified",
    b"\x00binary\x00",
    b"# TODO: \xe2\x80\xa8 separator",
    b"",
)


def _quoted(path: str) -> bytes:
    """A path as fast-import reads it: C-style quoted."""
    raw = path.encode("utf-8")
    escaped = raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
    escaped = escaped.replace(b"\n", b"\\n").replace(b"\t", b"\\t")
    return b'"' + escaped + b'"'


def _data(payload: bytes) -> bytes:
    """A fast-import ``data`` command (exact byte count; the line feed after it is optional)."""
    return b"data %d\n%s" % (len(payload), payload)


def git_history(rng: random.Random) -> bytes:
    """A fast-import stream: one to five commits on ``main``, sometimes a side branch merged back,
    with files added, changed, renamed and deleted."""
    stream = []
    tracked: dict[bytes, list[str]] = {b"refs/heads/main": []}
    for number in range(rng.randint(1, 5)):
        mark = number + 1
        branch = b"refs/heads/side" if number == 2 and rng.random() < 0.3 else b"refs/heads/main"
        if branch not in tracked:
            tracked[branch] = list(tracked[b"refs/heads/main"])
        files = tracked[branch]
        who = _pick(rng, IDENTITIES, IDENTITIES[0], 0.3)
        when = _pick(rng, DATES, b"%d +0000" % (1709280000 + 3600 * number), 0.3)
        commit = [b"commit " + branch, b"mark :%d" % mark]
        commit.append(b"author " + who + b" " + when)
        commit.append(b"committer " + who + b" " + _pick(rng, DATES, when, 0.1))
        commit.append(_data(rng.choice(MESSAGES)))
        if branch == b"refs/heads/side":
            commit.append(b"from :%d" % (mark - 1))
        elif number == 3 and b"refs/heads/side" in tracked:
            commit.append(b"merge refs/heads/side")  # fast-import keeps the first parent's tree
        for _ in range(rng.randint(1, 3)):
            action = rng.random()
            if files and action < 0.15:
                commit.append(b"D " + _quoted(files.pop(rng.randrange(len(files)))))
            elif files and action < 0.3 and (new := rng.choice(PATHS) + ".moved") not in files:
                old = files.pop(rng.randrange(len(files)))
                commit.append(b"R " + _quoted(old) + b" " + _quoted(new))
                files.append(new)
            else:
                path = rng.choice(PATHS)
                body = b"\n".join(rng.choice(LINES) for _ in range(rng.randint(1, 6))) + b"\n"
                commit.append(b"M 100644 inline " + _quoted(path))
                commit.append(_data(body))
                if path not in files:
                    files.append(path)
        stream.append(b"\n".join(commit) + b"\n\n")
    return b"".join(stream)
