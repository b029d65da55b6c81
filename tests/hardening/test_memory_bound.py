"""A bounded input cannot take the machine (issue 29, "Memory").

A policy that triggers on most of 10,000 commits once ran out of memory at 11.4 GB. Here the
same shape of history, smaller (``fixtures/policies/scale/make_history.py``: N commits, one
policy ``when touches "src/api/*.py"  when not touches "docs/**"  want touches "docs/**"`` that
about 90% of them trigger), is judged by the real ``openloop status`` in a child process whose
address space is capped at 2 GB: it must finish with exit 0 and list the policy's instances. A
cap, unlike a timing, holds on any machine; the peak RSS at 2k, 5k and 10k commits is measured
in docs/design/hardening.md.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMMITS = int(os.environ.get("OPENLOOP_MEMORY_COMMITS", "2000"))
CAP = 2 * 1024**3  # bytes of address space


def _make_history(commits: int, folder: Path) -> None:
    script = ROOT / "fixtures" / "policies" / "scale" / "make_history.py"
    spec = importlib.util.spec_from_file_location("make_history", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.make(commits, folder)


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_AS"), reason="needs RLIMIT_AS")
def test_a_policy_over_most_commits_runs_within_2_gb(tmp_path: Path) -> None:
    folder = tmp_path / "history"
    _make_history(COMMITS, folder)
    env = {**os.environ, "OPENLOOP_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "resolver", "status", str(folder), "--format", "json"]
    done = subprocess.run(
        command, capture_output=True, preexec_fn=_capped, env=env, cwd=tmp_path, timeout=600
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-3000:]
    items = json.loads(done.stdout)["expectations"]
    assert len(items) > COMMITS // 2  # the policy's instances: most commits opened one
