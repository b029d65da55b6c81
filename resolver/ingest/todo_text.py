"""The words of a TODO comment: finding it in a line, its hash, its note, and safe key paths.

A line carries a TODO comment when a ``TODO``, ``FIXME``, ``XXX`` or ``HACK`` word (upper case,
a whole word) follows a comment leader (``#``, ``//``, ``/*``, ``<!--``, ``--``, ``;``, ``%``, or
``*`` first on the line). The comment's text runs from that word to the end of the line, a
trailing ``*/`` or ``-->`` dropped, whitespace collapsed; its SHA-1 (first 8 hex digits) names the
TODO in ``todo.PATH:H`` (SPEC §6.1).

Every step is linear in the length of the line: a minified file's single line of a megabyte is
scanned in milliseconds. (A regular expression that searched "a leader, then lazily anything,
then a marker word" was quadratic on such lines: every leader restarted the lazy scan.) The first
leader is found, then the first marker word after it, which is what that search meant.

Paths reach keys, notes and ``files``, all of which the event reader keeps to one line of
printable text (a name is printed inside a line of output); git allows any byte but NUL in a
path, so control characters are written as escapes (``\\n``, ``\\t``, ``\\x1b``), the way git
quotes such paths.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["comment_text", "issue_reference", "key_path", "note_text", "todo_hash"]

_LEADER = re.compile(r"#|//|/\*|<!--|--|;|%")
_STAR = re.compile(r"\s*\*")
_MARKER = re.compile(r"\b(?:TODO|FIXME|XXX|HACK)\b")
_SPACE = re.compile(r"\s+")
#: What the event reader refuses in a name (``resolver.language.eventlog_checks.CONTROL``).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
#: The tag: the marker word and an owner in parentheses right after it (``TODO(alice)``).
_TAG = re.compile(r"(TODO|FIXME|XXX|HACK)(\([^()]{0,40}\))?[\s:;,.\-–—]*")
#: A TODO tied to an issue: ``TODO(#12)``, ``FIXME(GH-12)``, ``TODO(owner/repo#12)``.
_ISSUE_TAG = re.compile(
    r"(?:TODO|FIXME|XXX|HACK)\((?:(?:[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]+)?#|[Gg][Hh]-)"
    r"(\d{1,12})\)"
)
#: A note is a title: long enough for a sentence, short enough for one line of a table.
NOTE_LIMIT = 120


def comment_text(line: str) -> str | None:
    """The normalised TODO comment a source line carries, or None (linear in the line)."""
    star = _STAR.match(line)
    if star is not None:
        start = star.end()
    else:
        leader = _LEADER.search(line)
        if leader is None:
            return None
        start = leader.end()
    marker = _MARKER.search(line, start)
    if marker is None:
        return None
    text = line[marker.start() :].rstrip()
    if text.endswith("*/"):
        text = text[:-2]
    elif text.endswith("-->"):
        text = text[:-3]
    return _SPACE.sub(" ", text).strip() or None


def issue_reference(text: str) -> int | None:
    """The issue number a normalised comment's tag names (``TODO(#12): ...`` -> 12), or None.

    Only the tag right after the marker word counts: a ``#12`` later in the words is a mention,
    not the TODO's owner, the way ``TODO(alice)`` names its owner.
    """
    match = _ISSUE_TAG.match(text)
    if match is None:
        return None
    number = int(match.group(1))
    return number if number > 0 else None


def todo_hash(text: str) -> str:
    """First 8 hex digits of the SHA-1 of the normalised comment text."""
    return hashlib.sha1(text.encode("utf-8", errors="surrogatepass")).hexdigest()[:8]


def key_path(path: str) -> str:
    """``path`` with each control character escaped, as a key, a note or ``files`` may hold it."""
    if _CONTROL.search(path) is None:
        return path
    return _CONTROL.sub(_escape, path)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def note_text(text: str, path: str) -> str:
    """The words a title shows for the TODO ``text`` in ``path``: ``TODO src/app.py: retry``.

    One line of printable text, whitespace collapsed, at most :data:`NOTE_LIMIT` characters.
    """
    words = _SPACE.sub(" ", _CONTROL.sub(" ", text)).strip()
    tag = _TAG.match(words)
    if tag is None:  # not a comment_text(); still say something true
        head, rest = "TODO", words
    else:
        head, rest = tag.group(1) + (tag.group(2) or ""), words[tag.end() :]
    note = f"{head} {key_path(path)}: {rest}" if rest else f"{head} {key_path(path)}"
    if len(note) > NOTE_LIMIT:
        note = note[: NOTE_LIMIT - 1].rstrip() + "…"
    return note
