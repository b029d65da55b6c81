"""One module per agent host's hook protocol (SPEC §8), and the installer and doctor.

Each host module has ``NAME``, ``HOST_CAP`` (its own cap on consecutive stop blocks, or None),
``parse(payload) -> Call``, ``render(call, outcome) -> Rendered``, ``config_path()`` and
``install(config, command, ...)``. The judge between ``parse`` and ``render`` is
:mod:`resolver.agents.hook`, the same for every host.
"""

from __future__ import annotations

from types import ModuleType

#: Host names as the command line spells them, to their modules.
HOSTS = ("claude-code", "codex", "cursor", "copilot", "gemini")


def host(name: str) -> ModuleType:
    """The protocol module of one host."""
    from resolver.agents.hosts import claude_code, codex, copilot, cursor, gemini

    modules = {m.NAME: m for m in (claude_code, codex, cursor, copilot, gemini)}
    return modules[name]
