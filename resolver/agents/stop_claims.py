"""Does an agent's last message claim completion? (SPEC §8: a ``Stop`` is a claim only then.)

A stop hook fires at the end of every reply, and most replies are not claims: a question for the
user ("deploy now or wait for Alice?"), a progress report, a list of what remains. Judging each
of them as a ``claims_complete`` blocked questions and left a false completion per reply. So a
stop is a claim only when its last message makes a done-style claim, the same cue words the text
linker measures for the ``textual`` tier (``resolver.facts.linker.DONE_WORDS``, compared after
stemming), plus the phrases agents use to sign off ("all set", "ready for review", ...).

This is a measurement of the host's text, not of the history, so it is made here and not in the
rules: the message is never recorded (an agent's words must not become evidence through the
linker), and what follows from a claim (its judgment) is the rules' alone.

A message is **not** a claim when
- it makes no done-style claim at all;
- its done-style words are negated or hedged ("not done yet", "almost finished", "once it is
  merged");
- it reports what remains ("still need to", "remaining", "next steps", "TODO", "blocked");
- its last sentence asks the user something that is not a courtesy offer ("Shall I deploy now or
  wait for Alice?" asks; "Anything else?" and "Let me know if you need more." do not).
When in doubt the message is not a claim: a missed claim costs one unjudged stop (the task's
status is unchanged and ``TaskCompleted`` is always judged); a wrong one blocks a question.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from resolver.facts.linker import DONE_CUES, stem, words


def _names(text: str) -> frozenset[str]:
    """A set of words written as one string (long lists read better so)."""
    return frozenset(text.split())


#: Sign-off phrases that claim completion without a cue word.
DONE_PHRASES = (
    "all set",
    "all good",
    "ready for review",
    "ready to merge",
    "task is complete",
    "that's everything",
    "that is everything",
    "wrapped up",
    "implemented",
    "deployed",
    "published",
    "successfully",
    "everything is in place",
    "nothing left",
    "nothing remains",
)
#: Words that, just before a cue word, negate or hedge it.
HEDGES = _names(
    "not no never nearly almost partly partially mostly half until once when if after "
    "before isn't isnt aren't arent wasn't wasnt hasn't hasnt haven't havent won't wont "
    "cannot can't cant couldn't couldnt didn't didnt yet"
)
#: Phrases that report outstanding work: the reply is a status report, not a claim.
REMAINS = (
    "still need",
    "still needs",
    "still have to",
    "still has to",
    "still to do",
    "still pending",
    "still open",
    "remaining",
    "remains to",
    "what remains",
    "left to do",
    "not yet",
    "next step",
    "next steps",
    "todo",
    "to-do",
    "blocked",
    "waiting for",
    "waiting on",
    "in progress",
    "unable to",
    "could not",
    "couldn't",
    "failed to",
    "i will now",
    "i'll now",
    "next, i",
    "pending",
)
#: Questions that offer more help rather than ask for a decision.
COURTESY = (
    "anything else",
    "something else",
    "let me know",
    "any questions",
    "any other",
    "can i help",
    "else i can",
)

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def claims_completion(message: str | None) -> bool:
    """Whether ``message`` (an agent's last reply) claims that its work is complete."""
    if not message or not message.strip():
        return False
    text = message.strip()
    lowered = " ".join(text.lower().split())
    if any(_has_phrase(lowered, phrase) for phrase in REMAINS):
        return False
    sentences = [s.strip() for s in _SENTENCE.findall(text) if s.strip()]
    if sentences and _asks(sentences[-1]):
        return False
    return any(_claims(sentence) for sentence in sentences)


def _has_phrase(text: str, phrase: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", text) is not None


def _asks(sentence: str) -> bool:
    if not sentence.rstrip().endswith("?"):
        return False
    lowered = sentence.lower()
    return not any(phrase in lowered for phrase in COURTESY)


def _claims(sentence: str) -> bool:
    if sentence.rstrip().endswith("?"):
        return False
    tokens = words(sentence)
    raw = sentence.lower()
    for index, token in enumerate(tokens):
        if stem(token) in DONE_CUES and not HEDGES.intersection(tokens[max(0, index - 3) : index]):
            return True
    negated = any(h in raw.split() for h in ("not", "no", "never"))
    return not negated and any(_has_phrase(raw, phrase) for phrase in DONE_PHRASES)


def last_message(payload: dict[str, Any], *fields: str) -> str | None:
    """The agent's last reply: the first of ``fields`` the payload holds as text, else the last
    assistant turn of the transcript at ``transcript_path`` (or ``transcriptPath``)."""
    for name in fields:
        value = payload.get(name)
        if isinstance(value, str) and value.strip():
            return value
    path = payload.get("transcript_path") or payload.get("transcriptPath")
    if not isinstance(path, str) or not path:
        return None
    return transcript_last_assistant(Path(path), payload.get("cwd"))


def transcript_last_assistant(path: Path, cwd: Any = None) -> str | None:
    """The text of the last assistant turn of a JSON-lines transcript (Claude Code, Codex,
    Cursor and Copilot shapes), or None when there is none or the file cannot be read."""
    if not path.is_absolute() and isinstance(cwd, str):
        path = Path(cwd) / path
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        text = _assistant_text(entry) if isinstance(entry, dict) else None
        if text:
            return text
    return None


def _assistant_text(entry: dict[str, Any]) -> str | None:
    message = entry.get("message") if isinstance(entry.get("message"), dict) else None
    role = entry.get("role") or entry.get("type") or (message or {}).get("role")
    if isinstance(entry.get("payload"), dict):  # Codex rollout: {"type": ..., "payload": {...}}
        return _assistant_text(entry["payload"])
    if role not in ("assistant", "assistant.message", "model", "gemini"):
        return None
    content = (message or entry).get("content")
    if content is None and isinstance(entry.get("data"), dict):
        content = entry["data"].get("content")
    return _text_of(content)


def _text_of(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            part.get("text")
            for part in content
            if isinstance(part, dict)
            and part.get("type") in ("text", "output_text", None)
            and isinstance(part.get("text"), str)
        ]
        return "\n".join(parts) if parts else None
    return None
