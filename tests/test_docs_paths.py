"""Every repository path the README, CONTRIBUTING.md and ``docs/`` name exists.

Pages get moved and modules renamed; a page that still names the old path sends its reader
nowhere. So every path into the repository (``resolver/...``, ``rules/...``, ``tests/...``,
``docs/...``, ``fixtures/...``, ...) that a page names in inline code, in a link, or in a command
line of a code block must exist. Output shown in a code block is not read: it quotes other
repositories' files (Lark's ``tests/test_parser.py``). Globs and placeholders (``docs/**``,
``tests/rules/test_<file>.py``, ``schemas/KIND.json``) name no one file and are skipped; the few
paths that belong to someone else's repository or to an example history are listed below, each
with why.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *ROOT.glob("docs/**/*.md")])

#: The folders and top-level files a page can point into.
TOP = r"(?:\.ci|resolver|rules|tests|docs|fixtures|grammar|schemas|lab)/"
FILES = {".ci/run", "action.yml", "pyproject.toml", ".pre-commit-hooks.yaml"}
#: A path token: a top folder, then anything up to white space or closing punctuation. The
#: look-behind keeps ``~/.cache/...`` and ``path/to/repo/tests/...`` out.
PATH = re.compile(r"(?<![\w./~$-])" + TOP + r"[^\s`'\"(),;|]*")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")
#: A code-block line that is a command (its paths are the reader's to use), not output.
COMMAND = re.compile(r"^\s*(?:\$\s+)?(?:[A-Z_]+=\S+\s+)*(?:openloop|python3?|pytest|\.venv/)")
#: Characters of a glob or a placeholder: such a token names no one file.
PATTERN = set("*?[]{}<>$")
#: Upper-case names that are files, not placeholders (``schemas/KIND.json`` is a placeholder).
NAMES = {"README", "CONTRIBUTING", "LICENSE", "SPEC"}

#: Paths in the pages that are not this repository's, by page: (page, path) → why.
ELSEWHERE: dict[tuple[str, str], str] = {
    ("docs/guide/agents.md", "docs/hooks/reference.md"): "Gemini CLI's own documentation",
    ("docs/guide/policies.md", "docs/api/cart.md"): "a file of the example history",
    ("docs/guide/policies.md", "docs/api/login.md"): "a file of the example history",
    ("docs/guide/policies.md", "docs/api/pagination.md"): "a file of the example history",
    ("docs/guide/policies.md", "docs/src/a"): "a file of the example history",
    ("docs/guide/policies.md", "docs//x"): "a glob an empty substitution would make",
    ("docs/design/performance.md", "docs/modI/"): "a folder of the generated history",
}
#: Pages others are rewriting now: their stale paths are theirs to mend (then drop the entry).
BEING_REWRITTEN: dict[str, set[str]] = {}


def _prose_and_commands(text: str) -> tuple[str, list[str]]:
    """The page outside code blocks, and the command lines inside them."""
    prose, commands, fenced = [], [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            prose.append("")
        elif fenced:
            if COMMAND.match(line):
                commands.append(line)
        else:
            prose.append(line)
    return "\n".join(prose), commands


def _is_pattern(path: str) -> bool:
    if PATTERN & set(path):
        return True
    stems = (part.split(".")[0] for part in path.split("/"))
    return any(len(s) > 1 and s.isupper() and s not in NAMES for s in stems)


def named_paths(page: Path) -> set[tuple[str, Path]]:
    """Each (path as written, file it names) the page points at inside the repository."""
    prose, commands = _prose_and_commands(page.read_text(encoding="utf-8"))
    spans = [m.group(2) for m in CODE_SPAN.finditer(prose)] + commands
    found: set[tuple[str, Path]] = set()
    for span in spans:
        if span.strip() in FILES:
            found.add((span.strip(), ROOT / span.strip()))
        for match in PATH.finditer(span):
            path = match.group(0).rstrip(".:")
            if not _is_pattern(path):
                found.add((path, ROOT / path))
    for target in LINK.findall(CODE_SPAN.sub("", prose)):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        found.add((path, (page.parent / path).resolve()))
    return found


def _exists(target: Path) -> bool:
    """The file exists; for a test id (``tests/x.py::test_y``), the test is defined in it."""
    file, _, test = str(target).partition("::")
    if not Path(file).exists():
        return False
    name = test.split("::")[-1].split("[")[0]
    return not name or re.search(rf"def {re.escape(name)}\b", Path(file).read_text()) is not None


def test_the_pages_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "docs/README.md", "docs/guide/verdicts.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_named_path_exists(page: Path) -> None:
    name = page.relative_to(ROOT).as_posix()
    missing = sorted(
        written
        for written, target in named_paths(page)
        if not _exists(target)
        and (name, written) not in ELSEWHERE
        and written not in BEING_REWRITTEN.get(name, set())
    )
    assert not missing, f"{name} names paths that do not exist: {missing}"


def test_the_docs_index_lists_every_page() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    listed = {(ROOT / "docs" / target).resolve() for target in LINK.findall(index)}
    pages = {p.resolve() for p in ROOT.glob("docs/*/*.md")}
    assert pages - listed == set(), "docs/README.md lists every page of docs/"


def test_the_checker_sees_what_it_should() -> None:
    """The reading itself: code spans, links and commands count; output, globs, URLs do not."""
    page = ROOT / "docs" / "guide" / "example.md"
    text = (
        "See `resolver/api.py` and [the guide](../README.md), `docs/**`, `schemas/KIND.json`,\n"
        "`tests/rules/test_<file>.py`, `~/.cache/openloop`, [a site](https://example.org/x).\n"
        "```\nopenloop status fixtures/release\nOPEN  todo.tests/test_parser.py:6f31  TODO\n```\n"
    )
    prose, commands = _prose_and_commands(text)
    assert commands == ["openloop status fixtures/release"]
    spans = [m.group(2) for m in CODE_SPAN.finditer(prose)] + commands
    paths = {m.group(0) for s in spans for m in PATH.finditer(s) if not _is_pattern(m.group(0))}
    assert paths == {"resolver/api.py", "fixtures/release"}
    assert LINK.findall(CODE_SPAN.sub("", prose)) == ["../README.md", "https://example.org/x"]
    assert (page.parent / "../README.md").resolve() == ROOT / "docs" / "README.md"
