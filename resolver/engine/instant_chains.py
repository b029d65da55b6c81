"""The sorted chains of instants the standpoint rules walk instead of comparing every pair."""

from __future__ import annotations

from itertools import pairwise

from resolver.engine.atoms import Atoms


def instant_chains(core: Atoms, times_of: dict[int, tuple[int, int]]) -> str:
    """``inext(X, I, I2)``: consecutive instants at which X has a potential transition, and
    ``onext(O1, O2)``: consecutive opening instants.

    The rules walk these sorted chains to find each step's predecessor in linear time (a
    ``#max`` over earlier steps, or a comparison of every pair, grounds quadratically).
    """
    instants: dict[int, set[int]] = {}
    for args in core.get("close"):
        instants.setdefault(args[0], set()).add(times_of[args[1]][0])
    for args in core.get("reopen"):
        instants.setdefault(args[0], set()).add(times_of[args[1]][0])
    lines = []
    for x, found in instants.items():
        ordered = sorted(found)
        lines.extend(f"inext({x},{a},{b})." for a, b in pairwise(ordered))
    # onext(O1, O2): the distinct opening instants of every item in order, which the first
    # relevant gap of each opening is found along (rules/standpoint/absence.lp).
    openings = sorted({args[1] for args in core.get("opening")})
    lines.extend(f"onext({a},{b})." for a, b in pairwise(openings))
    return "\n".join(lines) + "\n" if lines else ""
