"""Every text face is terminal- and CI-log-safe (issue 29, item 1).

A policy titles its instances with a recorded ``set`` value, so whoever can record an event
chooses the title. Printed raw, a newline in it starts a line of its own, and the GitHub Actions
runner reads a line that starts with ``::`` (after white space) as a workflow command
(``::error``, ``::add-mask::``, ``::stop-commands::``) and ``##[`` anywhere in a line as an
older-style one; an ESC sequence recolours or rewrites the terminal. Each face runs here as a
subprocess, as CI runs it, on such a history.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Newlines, a carriage return, ESC, a bidi override and both workflow-command forms.
HOSTILE = (
    "x\n::error file=x::boom\n  ::add-mask::secret\n\x1b[31mred ##[error]old\r"
    "::warning::cr\u202e\n::stop-commands::tok"
)
AT = "2024-08-01"
TASK = "ticket-opens/e1/ticket.t"

DECLARATIONS = """
channel tracker work

template fix {
  title "Fix it"
  obligation patch { want patch.$task = "merged" }
}

policy bug-owed {
  title "Fix: $value"
  when set bug.*
  want $key = "fixed"
}

policy ticket-opens {
  title "Ticket $value"
  when set ticket.*
  opens fix
}
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "h.ol").write_text(DECLARATIONS, encoding="utf-8")
    events = [
        {
            "id": "e1",
            "channel": "tracker",
            "seq": 1,
            "at": "2024-07-01T10:00:00Z",
            "by": "alice",
            "text": HOSTILE,
            "set": {"bug.a": HOSTILE, "ticket.t": HOSTILE},
        },
        {
            "id": "e2",
            "channel": "tracker",
            "seq": 2,
            "at": "2024-07-02T10:00:00Z",
            "by": "alice",
            "text": "done " + HOSTILE,
            "claims_complete": [TASK],
        },
    ]
    (folder / "h.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return folder


FACES = {
    "status table": ["status", "{h}", "--at", AT],
    "status table --all": ["status", "{h}", "--at", AT, "--all"],
    "status md": ["status", "{h}", "--at", AT, "--format", "md", "--all"],
    "check": ["check", "{h}", "--at", AT],
    "check --task": ["check", "{h}", "--at", AT, "--task", TASK],
    "brief": ["brief", "{h}", "--at", AT],
    "ready": ["ready", "{h}", "--at", AT],
    "receipt": ["receipt", TASK, "{h}", "--at", AT],
    "receipt --full": ["receipt", TASK, "{h}", "--at", AT, "--full"],
    "explain": ["explain", "bug-owed/e1/bug.a", "{h}", "--at", AT, "--full"],
}


def _run(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    words = [a.replace("{h}", str(folder)) for a in args]
    return subprocess.run(
        [sys.executable, "-m", "resolver", *words],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )


def unsafe_lines(text: str) -> list[str]:
    """The lines a CI runner would obey or a terminal would interpret."""
    bad = []
    for line in text.split("\n"):
        command = line.lstrip().startswith("::") or "##[" in line
        if command or any(
            (ord(c) < 0x20 and c != "\t") or 0x7F <= ord(c) <= 0x9F or c == "\u202e" for c in line
        ):
            bad.append(line)
    return bad


@pytest.mark.parametrize("face", FACES, ids=list(FACES))
def test_no_face_prints_a_workflow_command_or_a_control_character(hostile, face):
    done = _run(FACES[face], hostile)
    assert done.returncode in (0, 1, 3), done.stderr
    assert "Traceback" not in done.stderr
    if face != "check --task":  # the task's one obligation is titled by its template
        assert "x\\n" in done.stdout, "the hostile title is not shown at all"
    assert unsafe_lines(done.stdout) == []
    assert unsafe_lines(done.stderr) == []


def test_the_hostile_title_is_shown_spelled_not_dropped(hostile):
    out = _run(FACES["status table"], hostile).stdout
    joined = " ".join(line.strip() for line in out.splitlines())
    for piece in ("error file=x", "add-mask", "\\x1b[31mred", "\\r", "\\u202e", "stop-commands"):
        assert piece in joined


def test_the_github_face_keeps_its_own_commands_and_escapes_the_title(hostile):
    done = _run(["check", "{h}", "--at", AT, "--format", "github"], hostile)
    commands = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert commands and all(
        c.split(" ", 1)[0] in ("::error", "::warning", "::notice") for c in commands
    )
    assert len(commands) == len(done.stdout.splitlines()), "a title started a line of its own"
    assert "\x1b" not in done.stdout
