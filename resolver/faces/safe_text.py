"""Text that leaves the program safely: for terminals, for XML, for Markdown.

User strings (titles, texts, values, actor names) may hold any character. Printed raw, an ESC
sequence in an id can move the cursor and overwrite an earlier row with a forged ``SATISFIED``;
a control character makes GraphML, SVG and JUnit XML ill-formed (XML 1.0 cannot hold most of
C0, even as ``&#27;``); ``<img onerror=...>`` in a title becomes live HTML wherever Markdown is
rendered. Each output kind is made safe once, where its text leaves:

- :func:`visible` spells a control character as Python would (``\\x1b``, ``\\n``, ``\\u202e``):
  for one user string inside a line.
- :func:`terminal` does the same to a whole human-readable document, keeping its own newlines.
  Every C0 and C1 control, DEL, the Unicode line and paragraph separators and the bidirectional
  overrides are shown, so what a terminal displays is what the text holds. It is also safe in a
  CI log: the GitHub Actions runner reads a line whose text, after leading white space, starts
  with ``::`` as a workflow command (``::error``, ``::add-mask::``, ``::stop-commands::``), and
  ``##[`` anywhere in a line as an older-style one; a title wrapped onto a new line could start
  one. Such a line gets its first colon (or the bracket) spelled ``\\x3a`` (``\\x5b``), as a
  control character is spelled, so the log shows the text and the runner runs nothing. Every
  text face (the ``status`` table and Markdown, ``check``, ``brief``, ``ready``, ``receipt``,
  ``lint``, error messages) leaves through it.
- :func:`spelled` spells the control characters alone, for the one document whose lines are
  meant to be workflow commands (``check --format github``, which escapes its data itself).
- :func:`xml_document` replaces what XML 1.0 cannot hold by its visible spelling; it may be
  applied to a whole serialised document, since such a character is illegal anywhere in it.
- :func:`markdown` makes a whole Markdown document hold no raw HTML (our Markdown uses none):
  ``&``, ``<`` and ``>`` become entities, then :func:`terminal`.
"""

from __future__ import annotations

import re

__all__ = ["markdown", "spelled", "terminal", "visible", "xml_document"]

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
# DEL, C1, ALM, LRM/RLM, line/paragraph separators, bidi embeddings/overrides/isolates.
_OTHER_CONTROLS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_ANY_CONTROL = re.compile(f"[\x00-\x1f{_OTHER_CONTROLS}]")
_CONTROL_BUT_NEWLINE = re.compile(f"[\x00-\x09\x0b-\x1f{_OTHER_CONTROLS}]")
# What XML 1.0 cannot hold: C0 but tab, newline and carriage return; surrogates; U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# A workflow command: ``::`` after leading white space (the runner trims it, Unicode white space
# included); the older ``##[`` anywhere in a line is spelled by :func:`terminal` itself.
_COMMAND_START = re.compile(r"^([^\S\n]*):(?=:)", re.MULTILINE)
_HTML_SPECIAL = re.compile("[&<>]")


def _spell(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character spelled out (newlines included)."""
    return _ANY_CONTROL.sub(_spell, text)


def spelled(document: str) -> str:
    """A document with every control character but its newlines spelled out (and nothing else
    changed: its workflow commands stay commands)."""
    return _CONTROL_BUT_NEWLINE.sub(_spell, document)


def terminal(document: str) -> str:
    """A human-readable document with every control character but its newlines spelled out and
    no line a CI runner would read as a workflow command."""
    text = spelled(document)
    text = _COMMAND_START.sub(lambda m: m.group(1) + "\\x3a", text)
    return text.replace("##[", "##\\x5b")


def xml_document(document: str) -> str:
    """An XML (GraphML, SVG, JUnit) document with what XML 1.0 cannot hold spelled out."""
    return _NOT_XML.sub(_spell, document)


def markdown(document: str) -> str:
    """A Markdown document with no raw HTML and no control characters but its newlines."""
    return terminal(_HTML_SPECIAL.sub(lambda m: _HTML[m.group()], document))
