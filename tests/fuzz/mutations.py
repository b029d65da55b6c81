"""A deterministic mutation generator over the fixture histories, for the crash fuzzer.

Input number ``i`` of seed ``s`` is a pure function of ``(s, i)`` (its own ``random.Random``), so
any failure the fuzzer reports can be replayed alone. Each input is one fixture history (the
histories are taken in turn, so every fixture is mutated) with one to three mutations applied to
one of its files: byte flips, token deletions and duplications, interesting tokens (huge and
boundary integers, bad times, control characters, keywords, brackets), JSON retyping, deep
nesting, huge literals, invalid UTF-8, truncation and line shuffles.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SUFFIXES = (".ol", ".jsonl", ".json")

_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w.:/@+-]*|-?[0-9][\w:.+-]*|\s+|.', re.S)

#: Tokens that have broken readers before, or sit on a boundary of the language.
INTERESTING: tuple[bytes, ...] = (
    b"{",
    b"}",
    b'"',
    b"\\",
    b"#",
    b",",
    b"=",
    b"\n",
    b"\x00",
    b"\x1b[2K",
    b"\x07",
    b"\xff",
    b"\xed\xa0\x80",  # a surrogate, encoded: not UTF-8
    b"\xc3",  # a truncated sequence
    "\u202e".encode(),
    "٢٠٢٤-01-01".encode(),
    "٣".encode(),
    b" 2024-01-01 ",
    b"0",
    b"-1",
    b"2147483646",
    b"2147483647",
    b"2147483648",
    b"-2147483649",
    b"9" * 5000,
    b"1969-12-31",
    b"2101-01-01",
    b"2100-12-31T23:59:59Z",
    b"2024-02-30",
    b"2024-01-01T10:00+25:00",
    b"2024-01-01T10:00:00.5Z",
    b"1w",
    b"931d",
    b"932d",
    b"9" * 5000 + b"d",
    b"expect",
    b"task",
    b"event",
    b"expectation",
    b"obligation",
    b"test",
    b"known latest",
    b"has nonsense_flag",
    b"requires",
    b"part_of",
    b"opened_by",
    b"want",
    b"seq",
    b"true",
    b'"\\ud800"',
    b'"\\u001b[1A"',
    b"null",
    b"[]",
    b"{}",
    b"[[[[[[[[",
    "tas\u212a".encode(),  # the Kelvin sign: not a keyword (keywords fold ASCII case only)
    "\u017fet".encode(),
    "t\u0130tle".encode(),
)

#: Values a JSON field may be retyped to (text, so that huge integers need no ``int``).
JSON_VALUES: tuple[str, ...] = (
    "null",
    "true",
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "1e400",
    "1.5",
    "9" * 5000,
    '""',
    '"x"',
    '"x y\\nz"',
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"e\\u001b[2K"',
    '"٢٠٢٤-01-01"',
    '" 2024-01-01 "',
    '"2024-01-01T10:00+25:00"',
    "[]",
    '["a", 1]',
    "[[]]",
    '{"k": []}',
    '{"": 1}',
    '{"k": {"a": 1}}',
    "[" * 100_000 + "]" * 100_000,
)


@dataclass(frozen=True)
class History:
    """One fixture history: its folder and the bytes of each file, by relative name."""

    folder: Path
    files: dict[str, bytes]


@dataclass(frozen=True)
class Mutant:
    """One fuzz input: the history's files after mutation, and what was done."""

    source: History
    files: dict[str, bytes]
    steps: tuple[str, ...]


def histories() -> list[History]:
    """Every folder under ``fixtures/`` holding ``.ol`` or ``.jsonl`` files, sorted."""
    found = []
    folders = sorted({p.parent for p in FIXTURES.rglob("*") if p.suffix in (".ol", ".jsonl")})
    for folder in folders:
        files = {
            p.name: p.read_bytes()
            for p in sorted(folder.iterdir())
            if p.is_file() and p.suffix in SUFFIXES
        }
        found.append(History(folder, files))
    return found


def mutant(pool: list[History], seed: int, index: int) -> Mutant:
    """Input ``index`` of ``seed``: a fixture (in turn) with one to three mutations."""
    rng = random.Random(f"{seed}:{index}")
    history = pool[index % len(pool)]
    files = dict(history.files)
    name = rng.choice(sorted(files))
    files[name], steps = mutate(rng, name, files[name])
    return Mutant(history, files, steps)


def mutate(rng: random.Random, name: str, data: bytes) -> tuple[bytes, tuple[str, ...]]:
    """One to three mutations of one file's bytes, and what they were."""
    steps = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        operation = rng.choice(_OPERATIONS)
        if operation is _retype and not name.endswith((".jsonl", ".json")):
            operation = _interesting
        data, step = operation(rng, data)
        steps.append(f"{name}: {step}")
    return data, tuple(steps)


def _tokens(data: bytes) -> list[bytes]:
    return _TOKEN.findall(data) or [data]


def _solid(rng: random.Random, tokens: list[bytes]) -> int:
    """A random token that is not whitespace (or any, if all are)."""
    indices = [i for i, t in enumerate(tokens) if not t.isspace()] or list(range(len(tokens)))
    return rng.choice(indices)


def _flip(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    if not data:
        return b"\x00", "flip (empty)"
    at = rng.randrange(len(data))
    bit = 1 << rng.randrange(8)
    return data[:at] + bytes([data[at] ^ bit]) + data[at + 1 :], f"flip byte {at} bit {bit}"


def _delete(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    tokens = _tokens(data)
    at = _solid(rng, tokens)
    gone = tokens.pop(at)
    return b"".join(tokens), f"delete token {at} {gone[:20]!r}"


def _duplicate(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    tokens = _tokens(data)
    at = _solid(rng, tokens)
    tokens.insert(at, tokens[at] + b" ")
    return b"".join(tokens), f"duplicate token {at} {tokens[at][:20]!r}"


def _interesting(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    tokens = _tokens(data)
    at = _solid(rng, tokens)
    token = rng.choice(INTERESTING)
    if rng.random() < 0.5:
        tokens[at] = token
        how = "replace"
    else:
        tokens.insert(at, token + b" ")
        how = "insert"
    return b"".join(tokens), f"{how} token {at} with {token[:20]!r}"


def _retype(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """Give one field of one JSON line another type (or a hostile value)."""
    lines = data.split(b"\n")
    candidates = [i for i, line in enumerate(lines) if line.strip().startswith(b"{")]
    if not candidates:
        return _interesting(rng, data)
    at = rng.choice(candidates)
    try:
        record = json.loads(lines[at])
    except (ValueError, RecursionError):  # an earlier mutation broke or nested the line
        return _interesting(rng, data)
    if not isinstance(record, dict) or not record:
        return _interesting(rng, data)
    key = rng.choice(sorted(record))
    value = rng.choice(JSON_VALUES)
    parts = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in record.items() if k != key]
    parts.append(f"{json.dumps(key)}: {value}")
    rng.shuffle(parts)
    lines[at] = ("{" + ", ".join(parts) + "}").encode()
    return b"\n".join(lines), f"line {at + 1}: {key} = {value[:30]}"


def _nest(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    depth = rng.choice((1_000, 100_000))
    opener, closer = rng.choice(((b"[", b"]"), (b"{", b"}"), (b'{"a":', b"}")))
    deep = opener * depth + closer * depth
    lines = data.split(b"\n")
    at = rng.randrange(len(lines) + 1)
    lines.insert(at, deep)
    return b"\n".join(lines), f"nest {depth} {opener!r} at line {at + 1}"


def _huge(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    tokens = _tokens(data)
    at = _solid(rng, tokens)
    size = rng.choice((5_000, 200_000))
    kind = rng.choice(("string", "digits", "name", "unterminated"))
    literal = {
        "string": b'"' + b"a" * size + b'"',
        "digits": b"9" * size,
        "name": b"n" * size,
        "unterminated": b'"' + b"a" * size,
    }[kind]
    tokens[at] = literal
    return b"".join(tokens), f"huge {kind} of {size} at token {at}"


def _truncate(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    return data[:at], f"truncate at {at}"


def _lines(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    lines = data.split(b"\n")
    at = rng.randrange(len(lines))
    what = rng.choice(("delete", "duplicate", "swap"))
    if what == "delete":
        lines.pop(at)
    elif what == "duplicate":
        lines.insert(at, lines[at])
    else:
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    return b"\n".join(lines), f"{what} line {at + 1}"


_OPERATIONS = (
    _flip,
    _flip,
    _delete,
    _delete,
    _duplicate,
    _interesting,
    _interesting,
    _interesting,
    _retype,
    _retype,
    _retype,
    _nest,
    _huge,
    _truncate,
    _lines,
)
