"""Which last messages claim completion (a Stop is a claim only then, SPEC §8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.agents.stop_claims import claims_completion, transcript_last_assistant

CLAIMS = [
    "Release 7 is deployed and the notes are published. All done!",
    "Deployed.",
    "I fixed the parser bug and all tests pass.",
    "The PR is merged.",
    "Done. Anything else?",
    "All set: the migration ran and the backups are on PostgreSQL.",
]
NOT_CLAIMS = [
    "deploy now or wait for Alice?",
    "I finished the code. Should I deploy now, or wait for Alice to approve?",
    "Here is what remains: the deploy still needs approval.",
    "The notes are not done yet.",
    "Almost finished with the migration.",
    "I looked at the code; the bug is in parser.py line 40.",
    "Next steps: deploy to staging, then production.",
    "I could not finish the deploy: the pipeline failed to start.",
    "",
    None,
]


@pytest.mark.parametrize("message", CLAIMS)
def test_done_style_messages_claim(message):
    assert claims_completion(message)


@pytest.mark.parametrize("message", NOT_CLAIMS)
def test_questions_and_reports_of_what_remains_do_not(message):
    assert not claims_completion(message)


def test_the_last_assistant_turn_of_each_hosts_transcript(tmp_path: Path):
    shapes = [
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "A"}]}},
        {"role": "assistant", "message": {"content": [{"type": "text", "text": "B"}]}},
        {"type": "assistant.message", "data": {"content": "C"}},
        {"type": "response_item", "payload": {"type": "message", "role": "assistant",
                                              "content": [{"type": "output_text", "text": "D"}]}},
    ]  # fmt: skip
    for shape in shapes:
        path = tmp_path / "t.jsonl"
        user = {"type": "user", "message": {"content": "hi"}}
        path.write_text(json.dumps(shape) + "\n" + json.dumps(user) + "\nnot json\n")
        assert transcript_last_assistant(path) in {"A", "B", "C", "D"}
    assert transcript_last_assistant(tmp_path / "missing.jsonl") is None
