"""The layout shows the flow: import rules read from every module's own imports, and small modules.

The data flows one way, ``language → facts → engine → verdicts → faces``, and a package of that
pipeline imports only the packages before it (:data:`PIPELINE`): the engine never reads a verdict,
results never import phrasing, and a face cannot solve. Nothing of the pipeline imports what is
built on it (:data:`OUTER`: the API, the agents, the CLI, the store, the test runner, the lab).
The API (``resolver/api``) answers every command; the CLI keeps arguments, rendering choices and
exit codes, so it reaches no engine, verdict, test runner or store but through the API; and no
module imports the CLI but the CLI itself and ``resolver/__main__``. Imports inside functions
count as much as those at the top. Every module stays within 400 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "resolver"

#: Each package of the pipeline and the pipeline packages it may import.
PIPELINE = {
    "language": set(),
    "facts": {"language"},
    "engine": {"language", "facts"},
    "verdicts": {"language", "facts", "engine"},
    "faces": {"language", "verdicts"},
}
#: What is built on the pipeline: none of it is imported by a pipeline package.
OUTER = {"api", "agents", "bench", "cli", "evaluation", "ingest", "ledger", "store", "testing"}
#: What the CLI reaches only through the API.
CLI_THROUGH_API = {"engine", "facts", "verdicts", "testing", "store"}
#: What the store (below the API: ``api.prepare`` reads through it) never imports.
STORE_NEVER = {"api", "agents", "bench", "cli", "evaluation", "testing"}
#: The modules allowed to import the CLI.
CLI_IMPORTERS = {"cli", "__main__"}

#: Imports that break a rule, each with why it stays: (module, imported module) → reason.
ALLOWED = {
    ("resolver.language.loader", "resolver.store.parsed"): "the loader reuses the parse a "
    "command reading through the store kept; imported in the function that parses a file",
}
#: Breaches being mended in another file: (module, imported package) → what mends it. A listed
#: breach that is gone fails too (take it off the list).
NOT_YET: dict[tuple[str, str], str] = {}
#: Lines a module may have.
LIMIT = 400


def _modules() -> list[tuple[str, str, Path]]:
    """Every module as (dotted name, its package under ``resolver``, path)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        dotted = ".".join(("resolver", *parts)).removesuffix(".__init__")
        found.append((dotted, parts[0], path))
    return found


def _imports(name: str, path: Path) -> set[str]:
    """The ``resolver`` modules ``path`` imports anywhere in it (``from resolver import api``
    reads as ``resolver.api``; relative imports are resolved)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base == "resolver":
                found.update(f"resolver.{alias.name}" for alias in node.names)
            else:
                found.add(base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.startswith("resolver.")}


def _forbidden(package: str) -> set[str]:
    """The packages ``package``'s modules may not import."""
    banned = set()
    if package in PIPELINE:
        banned |= (set(PIPELINE) - PIPELINE[package] - {package}) | OUTER
    if package == "cli":
        banned |= CLI_THROUGH_API
    if package == "store":
        banned |= STORE_NEVER
    if package not in CLI_IMPORTERS:
        banned.add("cli")
    return banned


def _breaches() -> dict[tuple[str, str], set[str]]:
    """(module, forbidden package) → the modules of that package it imports."""
    found: dict[tuple[str, str], set[str]] = {}
    for name, package, path in _modules():
        banned = _forbidden(package)
        for target in _imports(name, path):
            imported = target.split(".")[1]
            if imported in banned and (name, target) not in ALLOWED:
                found.setdefault((name, imported), set()).add(target)
    return found


def test_the_flow_holds() -> None:
    breaches = {key: sorted(value) for key, value in _breaches().items() if key not in NOT_YET}
    assert breaches == {}, "imports against the flow: " + "; ".join(
        f"{module} imports {', '.join(targets)}" for (module, _), targets in breaches.items()
    )


@pytest.mark.parametrize(("module", "package"), sorted(NOT_YET))
def test_a_breach_listed_as_pending_is_still_there(module: str, package: str) -> None:
    assert (module, package) in _breaches(), f"{module} no longer imports {package}: unlist it"


@pytest.mark.parametrize(("module", "target"), sorted(ALLOWED))
def test_an_allowed_import_is_still_made(module: str, target: str) -> None:
    path = next(p for name, _, p in _modules() if name == module)
    assert target in _imports(module, path), f"{module} no longer imports {target}: unlist it"


def test_the_rules_see_imports_inside_functions() -> None:
    """The rules read every import, not only those at the top: the CLI's lazy ones count."""
    path = PACKAGE / "cli" / "mcp.py"
    assert "resolver.agents.mcp_server" in _imports("resolver.cli.mcp", path)


def test_the_api_names_what_it_exports() -> None:
    """``resolver.api.__all__`` is the table its lazy imports read, and every name resolves
    (also as ``resolver.NAME``)."""
    import resolver
    from resolver import api

    assert sorted(api.__all__) == sorted(api._HOMES)
    for name in api.__all__:
        assert getattr(resolver, name) is getattr(api, name), name


def test_modules_stay_small() -> None:
    for name, _, path in _modules():
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= LIMIT, f"{name} has {lines} lines (limit {LIMIT})"
