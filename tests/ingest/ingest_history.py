"""The shared test history: a repository with every case SPEC §6.1 names."""

from __future__ import annotations

import hashlib

A_PY = "import os\n# TODO: handle errors\nx = 1\n\n\n\n\n\n\n\n# TODO: add logging\ny = 2\n"
HANDLED = A_PY.replace("# TODO: handle errors", "x = check(x)")
LOGGED = HANDLED.replace("# TODO: add logging", "log(y)")
MAILMAP = "Bob Builder <bob@example.com> <BOB@Old.Example>\n"
BOB = "Bob <BOB@Old.Example>"
CAROL = "Carol <carol@example.com>"
BOT = "Bot <bot@agents.example>"


def h(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def build(repo) -> dict[str, str]:
    """The history the tests below read; returns the commits' full hashes by name."""
    c = {}
    c["start"] = repo.commit(
        "Start the project",
        {".mailmap": MAILMAP, "src/a.py": A_PY, "README.md": "# demo\n"},
        date="2024-01-01T10:00:00+02:00",
    )
    c["errors"] = repo.commit(
        "Handle errors in a\n\nThis fixes #12 and closes owner/repo#13.\n\n"
        "Completes: intent-1, intent-2\nBogus-Key: nothing\nCancels: not an id!\n",
        {"src/a.py": HANDLED},
        author=BOB,
        date="2024-01-02T09:00:00-08:00",
    )
    c["logging"] = repo.commit(  # rebased onto main: committed later than written
        "Add logging",
        {"src/a.py": LOGGED},
        date="2024-01-03T10:00:00Z",
        committed="2024-01-03T15:00:00Z",
    )
    repo.git("checkout", "-q", "-b", "feature")
    c["fixme"] = repo.commit(
        "Add the b library",
        {"lib/b.py": "def b():\n    pass  // FIXME: later\n"},
        author=CAROL,
        date="2024-01-04T10:00:00Z",
        committed="2024-01-06T12:00:00Z",
    )
    repo.mv("lib/b.py", "lib/c.py")
    c["rename"] = repo.commit(
        "Rename b to c", author=CAROL, date="2024-01-05T10:00:00Z", committed="2024-01-06T12:00:00Z"
    )
    repo.git("checkout", "-q", "main")
    c["hack"] = repo.commit(
        "Add the old module\n\nClaims-Complete: task-x\n",
        {"old.py": "# HACK: temporary\nz = 3\n"},
        author=BOT,
        date="2024-01-07T10:00:00Z",
    )
    c["merge"] = repo.merge("feature", "Merge branch 'feature'", "2024-01-08T10:00:00Z")
    c["delete"] = repo.commit("Drop the old module", {"old.py": None}, date="2024-01-09T10:00:00Z")
    c["revert"] = repo.revert(c["errors"], "2024-01-10T10:00:00Z")
    return c
