"""The layout shows the flow: import rules read from every module's own imports, and small modules.

The data flows one way, ``language → facts → engine → verdicts → faces``, and a package of that
pipeline imports only the packages before it (:data:`PIPELINE`): the engine never reads a verdict,
results never import phrasing, and a face cannot solve. Nothing of the pipeline imports what is
built on it (:data:`OUTER`: the API, the agents, the CLI, the store, the test runner, the bench).
The API (``resolver/api``) answers every command; the CLI keeps arguments, rendering choices and
exit codes, so it, and the bench that times a user's history, reach no engine, verdict, test
runner or store but through the API; and no module imports the CLI but the CLI itself and
``resolver/__main__``. The laboratory (``lab/``, outside the wheel) may import anything of the
package, and nothing in the package imports it. Imports inside functions count as much as those
at the top. Every module, the lab's too, stays within 400 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "resolver"
LAB = PACKAGE.parent / "lab"

#: Each package of the pipeline and the pipeline packages it may import.
PIPELINE = {
    "language": set(),
    "facts": {"language"},
    "engine": {"language", "facts"},
    "verdicts": {"language", "facts", "engine"},
    "faces": {"language", "verdicts"},
}
#: What is built on the pipeline: none of it is imported by a pipeline package.
OUTER = {"api", "agents", "benchmark", "cli", "ingest", "ledger", "store", "testing"}
#: What the CLI (and the bench, :data:`THROUGH_API`) reaches only through the API.
CLI_THROUGH_API = {"engine", "facts", "verdicts", "testing", "store"}
#: The packages that reach :data:`CLI_THROUGH_API` only through the API.
THROUGH_API = {"cli", "benchmark"}
#: What the store (below the API: ``api.prepare`` reads through it) never imports.
STORE_NEVER = {"api", "agents", "benchmark", "cli", "testing"}
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


def _modules(root: Path = PACKAGE) -> list[tuple[str, str, Path]]:
    """Every module of ``root`` (the package, or the lab) as (dotted name, its subpackage,
    path)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        dotted = ".".join((root.name, *parts)).removesuffix(".__init__")
        found.append((dotted, parts[0], path))
    return found


def _imports(name: str, path: Path, root: str = "resolver") -> set[str]:
    """The ``root`` modules ``path`` imports anywhere in it (``from resolver import api``
    reads as ``resolver.api``; relative imports are resolved)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base == root:
                found.update(f"{root}.{alias.name}" for alias in node.names)
            else:
                found.add(base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m == root or m.startswith(f"{root}.")}


def _forbidden(package: str) -> set[str]:
    """The packages ``package``'s modules may not import."""
    banned = set()
    if package in PIPELINE:
        banned |= (set(PIPELINE) - PIPELINE[package] - {package}) | OUTER
    if package in THROUGH_API:
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


def test_the_package_never_imports_the_lab() -> None:
    """The lab is not in the wheel: a module of ``resolver/`` that imported it would break on
    every installed copy."""
    found = {name: sorted(_imports(name, path, "lab")) for name, _, path in _modules()}
    assert {name: lab for name, lab in found.items() if lab} == {}


def test_the_lab_is_found() -> None:
    """The lab's rules see its modules and their imports (``lab.bench`` is imported as such)."""
    modules = {name: path for name, _, path in _modules(LAB)}
    assert {"lab.bench.harness", "lab.study.run", "lab.evaluation.suite"} <= set(modules)
    assert "lab.bench.generate" in _imports(
        "lab.bench.harness", modules["lab.bench.harness"], "lab"
    )


def test_the_rules_see_the_families_folders() -> None:
    """A module in a family's folder (``verdicts/explanation/``, ``faces/explanation/``) belongs
    to its top package: the flow and the line limit hold for it as for any other."""
    modules = {name: (package, path) for name, package, path in _modules()}
    assert modules["resolver.verdicts.explanation.tree"][0] == "verdicts"
    assert modules["resolver.verdicts.graph.builder"][0] == "verdicts"
    package, path = modules["resolver.faces.explanation.text"]
    assert package == "faces"
    assert "resolver.verdicts.explanation.view" in _imports("resolver.faces.explanation.text", path)
    assert "faces" in _forbidden("verdicts")


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
    for name, _, path in [*_modules(), *_modules(LAB)]:
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= LIMIT, f"{name} has {lines} lines (limit {LIMIT})"
