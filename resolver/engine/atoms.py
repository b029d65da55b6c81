"""The shown atoms of a solve, as text split by predicate and parsed on demand.

A solve's model is read as text in one call into clingo (instead of one call per symbol and
argument), and kept as that text: the store keeps it compressed, and a reader that needs four
predicates of a prepared history does not parse its 100k other atoms.
"""

from __future__ import annotations

import re


class Atoms:
    """The shown atoms of one solve, grouped by predicate name (arguments as Python values).

    Built from the model's text (one call into clingo, instead of one per symbol and argument):
    every shown atom holds only integers, constants and nested terms of those. The text is
    split by predicate name once, and a name's arguments are parsed only when asked for: a
    reader that needs four names of a prepared history does not parse its 100k other atoms.
    """

    def __init__(self, text: str, ground_rules: int = 0) -> None:
        self.text = text
        #: How many ground rules the solve had: the work it did, measured without a clock.
        self.ground_rules = ground_rules
        self._raw: dict[str, list[str]] | None = None
        self._parsed: dict[str, list[tuple]] = {}
        self._keyed: dict[str, dict[object, list[tuple]]] = {}

    def _by_raw_name(self) -> dict[str, list[str]]:
        if self._raw is None:
            raw: dict[str, list[str]] = {}
            for atom in self.text.split():
                paren = atom.find("(")
                raw.setdefault(atom if paren < 0 else atom[:paren], []).append(atom)
            self._raw = raw
        return self._raw

    @property
    def by_name(self) -> dict[str, list[tuple]]:
        """Argument tuples grouped by predicate name (every name parsed)."""
        return {name: self.get(name) for name in self._by_raw_name()}

    def get(self, name: str) -> list[tuple]:
        """All argument tuples of the shown atoms named ``name``, parsed on first use."""
        found = self._parsed.get(name)
        if found is None:
            raw = self._by_raw_name().get(name, ())
            start = len(name) + 1
            inner = [atom[start:-1] for atom in raw if len(atom) > start]
            if len(inner) == len(raw) and not _NOT_INTEGERS.search("\n".join(inner)):
                # The common case, integers only: one split and int() per argument.
                found = [tuple(map(int, args.split(","))) for args in inner]
            else:
                found = [_parse_atom(atom)[1] for atom in raw]
            self._parsed[name] = found
        return found

    def rows(self, name: str, first) -> list[tuple]:
        """The arguments after the first of the ``name`` atoms whose first argument is
        ``first``: a dict lookup (one index per name, built on first use), so that a face
        asking item by item never scans every atom once per item."""
        index = self._keyed.get(name)
        if index is None:
            index = self._keyed[name] = {}
            for args in self.get(name):
                index.setdefault(args[0], []).append(args[1:])
        return index.get(first, [])

    def facts(self) -> str:
        """The atoms as fact text, to hand to another program."""
        return self.text.replace(" ", ".\n") + ".\n" if self.text else ""


#: A character no all-integer argument list holds (a constant's letter, a nested term's parens).
_NOT_INTEGERS = re.compile(r"[^0-9,\n-]")


#: The first characters of an integer argument.
_NUMBER_START = frozenset("-0123456789")
#: The arguments of an argument list nested at most one deep: a constant or integer, or a
#: term whose own arguments hold no parentheses.
_FLAT_ARGUMENT = re.compile(r"([^,()]+)\(([^()]*)\)|([^,()]+)")


def _term(text: str):
    if text[0] == "-" or text[0].isdigit():
        return int(text)
    return text


def _terms(inner: str) -> list:
    """The arguments of a list without parentheses, integers as ``int`` (inline: this runs
    for every argument of every atom a face reads)."""
    return [int(part) if part[0] in _NUMBER_START else part for part in inner.split(",")]


def _parse_atom(atom: str) -> tuple[str, tuple]:
    """``name(1,x,f(2,3))`` → ``("name", (1, "x", ("f", 2, 3)))``."""
    paren = atom.find("(")
    if paren < 0:
        return atom, ()
    inner = atom[paren + 1 : -1]
    if "(" not in inner:
        return atom[:paren], tuple(_terms(inner))
    return atom[:paren], tuple(_one_deep(inner) or _nested(inner))


def _one_deep(inner: str) -> list | None:
    """The arguments of ``inner`` when no term in it nests another (the usual case: one pass
    of a regular expression), else None."""
    out: list = []
    end = 0
    for found in _FLAT_ARGUMENT.finditer(inner):
        if found.start() != (end + 1 if out else 0) or (out and inner[end] != ","):
            return None  # not separated by exactly one comma
        name, args, plain = found.groups()
        if plain is None:
            out.append((name, *_terms(args)))
        else:
            out.append(int(plain) if plain[0] in _NUMBER_START else plain)
        end = found.end()
    return out if out and end == len(inner) else None


def _nested(inner: str) -> list:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(inner):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(inner[start:index])
            start = index + 1
    parts.append(inner[start:])
    out = []
    for part in parts:
        if "(" in part:
            name, args = _parse_atom(part)
            out.append((name, *args))
        else:
            out.append(_term(part))
    return out
