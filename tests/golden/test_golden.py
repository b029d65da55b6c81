"""Every fixture's command outputs, compared with the outputs saved before a refactor.

``status``, ``check``, ``graph``, ``receipt`` and ``explain`` (with ``--why-not``) at every
standpoint the fixture's test blocks name. A difference means a verdict, a reason or a sentence
changed; write the golden file again (``python tests/golden/golden_capture.py NAME``) only for a
change that is meant.
"""

from __future__ import annotations

import difflib

import pytest
from golden_capture import golden_path, goldens, render


@pytest.mark.parametrize("history", goldens(), ids=lambda p: golden_path(p).stem)
def test_outputs_match_golden(history) -> None:
    expected = golden_path(history).read_text(encoding="utf-8")
    actual = render(history)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "now", lineterm="", n=2
        )
        pytest.fail("\n".join(list(diff)[:80]))
