"""One module per agent host's hook protocol (SPEC §8), and the installer and doctor.

Each host module has ``NAME``, ``HOST_CAP`` (its own cap on consecutive stop blocks, or None),
``parse(payload) -> Call``, ``render(call, outcome) -> Rendered``, ``config_path()`` and
``install(config, command, ...)``. The judge between ``parse`` and ``render`` is
:mod:`resolver.agents.hook`, the same for every host.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Host names as the command line spells them, to their modules.
HOSTS = ("claude-code", "codex", "cursor", "copilot", "gemini")


def host(name: str) -> ModuleType:
    """The protocol module of one host (only that one is imported: a hook call pays for its
    own host's protocol, not the four others')."""
    if name not in HOSTS:
        raise KeyError(name)
    module = importlib.import_module(f"resolver.agents.hosts.{name.replace('-', '_')}")
    assert name == module.NAME
    return module
