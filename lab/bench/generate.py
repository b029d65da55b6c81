"""Deterministic synthetic histories for benchmarks: an ``.ol`` project and a ``.jsonl`` log.

A history is a year of activity on seven channels (commits, reviews, issues, chat sessions as a
mention channel, deploys, authoritative decisions, and an undeclared ``ci`` channel without
sequence numbers). Events carry per-channel sequence numbers with a few gaps, a share of late
records, text, state changes on a few hundred keys, and markers. Expectations (and tasks with
obligations) are opened by session or issue events and use every clause of the language; each
gets a *plan* (closed by state, an explicit marker, a strongly linked text, a weak done-claim,
cancelled, waived, superseded, or left open), carried out by events after its opening, plus
reopenings, contradictions and agents' completion claims here and there. So every rule of the
engine has work to do, in proportions a real project might show.

The plan (skeleton, declarations, the events that act) is :mod:`lab.bench.plan`; this module
writes it out and manages histories on disk. Everything is drawn from one
``random.Random(seed)`` over lists (never sets), so the same arguments write byte-identical
files. The cost is a few microseconds per event: 1M events take
some tens of seconds, most of it ``json.dumps``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from lab.bench import vocabulary as vocab
from lab.bench.plan import (
    AGENTS,
    HUMANS,
    KINDS,
    PRINCIPALS,
    TEXT_MIX,
    Planner,
    stamp,
)

#: Bumped whenever the output for given arguments changes (invalidates cached histories).
GENERATOR_VERSION = 2


@dataclass(frozen=True)
class History:
    """A generated history on disk and what it holds."""

    folder: Path
    ol: Path
    jsonl: Path
    events: int
    expectations: int
    tasks: int
    seed: int
    first_at: int
    last_at: int

    @property
    def paths(self) -> list[Path]:
        """The files to hand to ``openloop`` commands or ``resolver.language.loader.load``."""
        return [self.ol, self.jsonl]


def default_expectations(events: int) -> int:
    """The default number of expectations: one per 100 events, at least 5, at most 1000."""
    return max(5, min(1000, events // 100))


def history_paths(
    folder: str | Path, events: int, expectations: int | None = None, seed: int = 0
) -> list[Path]:
    """The files of the history with these arguments in ``folder``, generated if not there yet."""
    return ensure(folder, events, expectations, seed).paths


def ensure(
    folder: str | Path, events: int, expectations: int | None = None, seed: int = 0
) -> History:
    """Reuse the history in ``folder`` if it was generated with these arguments, else generate."""
    folder = Path(folder)
    wanted = default_expectations(events) if expectations is None else expectations
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        history = _from_manifest(folder, manifest)
        same = (
            manifest.get("generator") == GENERATOR_VERSION,
            history.events == events,
            history.expectations == wanted,
            history.seed == seed,
        )
        if all(same) and history.ol.is_file() and history.jsonl.is_file():
            return history
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return generate(folder, events, wanted, seed)


def generate(
    folder: str | Path, events: int = 10_000, expectations: int | None = None, seed: int = 0
) -> History:
    """Write ``project.ol``, ``events.jsonl`` and ``manifest.json`` into ``folder``.

    ``expectations`` counts expectations and task obligations together (default: see
    :func:`default_expectations`). Files are written atomically, the manifest last, so a folder
    with a manifest always holds a complete history.
    """
    if events < 20:
        raise ValueError("a synthetic history needs at least 20 events")
    count = default_expectations(events) if expectations is None else expectations
    if count < 1:
        raise ValueError("a synthetic history needs at least one expectation")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    builder = _HistoryWriter(events, count, seed)
    builder.plan()
    ol, jsonl = folder / "project.ol", folder / "events.jsonl"
    _atomic_write(ol, builder.declarations())
    _atomic_write(jsonl, builder.log())
    history = History(
        folder, ol, jsonl, events, count, len(builder.tasks), seed, builder.at[0], builder.at[-1]
    )
    manifest = {k: v for k, v in asdict(history).items() if k not in ("folder", "ol", "jsonl")}
    manifest["generator"] = GENERATOR_VERSION
    _atomic_write(folder / "manifest.json", json.dumps(manifest, indent=2) + "\n")
    return history


def _from_manifest(folder: Path, manifest: dict) -> History:
    return History(
        folder,
        folder / "project.ol",
        folder / "events.jsonl",
        int(manifest["events"]),
        int(manifest["expectations"]),
        int(manifest["tasks"]),
        int(manifest["seed"]),
        int(manifest["first_at"]),
        int(manifest["last_at"]),
    )


def _atomic_write(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


class _HistoryWriter(Planner):
    """The plan, written out: the declarations and the event log as text."""

    # -- writing ------------------------------------------------------------------------------

    def declarations(self) -> str:
        """The ``.ol`` file: channels, actors, aliases, tasks with obligations, expectations."""
        out = [
            "# A synthetic history written by lab.bench.generate: "
            f"{self.n} events, {self.count} expectations.",
            "",
            "channel sessions mention",
            "channel commits work",
            "channel reviews work",
            "channel issues work",
            "channel deploys work",
            "channel decisions work authoritative",
            "",
        ]
        out += [f"actor {name} principal" for name in PRINCIPALS]
        out += [f"actor {name} agent" for name in AGENTS]
        out.append("")
        out += [f"alias {' '.join(words)}" for words in vocab.ALIASES]
        out.append("")
        for task in self.tasks:
            out.append(f"task {task.id} {{")
            out += [f"  {clause}" for clause in task.clauses]
            for ob in task.obligations:
                out.append(f"  obligation {ob.id} {{")
                out += [f"    {clause}" for clause in ob.clauses]
                out.append("  }")
            out += ["}", ""]
        for item in self.items:
            out.append(f"expectation {item.id} {{")
            out += [f"  {clause}" for clause in item.clauses]
            out += ["}", ""]
        return "\n".join(out)

    def log(self) -> str:
        """The ``.jsonl`` event log, in order of valid time."""
        rng = self.rng
        chunks: list[str] = []
        for i in range(self.n):
            name = self._name(i)
            event: dict[str, object] = {"id": self.ids[i], "channel": name}
            if self.seq[i] is not None:
                event["seq"] = self.seq[i]
            event["at"] = stamp(self.at[i])
            if rng.random() < 0.04:
                event["recorded"] = stamp(self.at[i] + rng.randrange(900, 3 * 86_400))
            by = self.by.get(i)
            if by is None:
                luck = rng.random()
                by = (
                    None
                    if luck < 0.03
                    else rng.choice(AGENTS)
                    if luck < 0.11
                    else rng.choice(HUMANS)
                )
            if by is not None:
                event["by"] = by
            event["kind"] = self.kind.get(i, KINDS[name])
            text = self.text.get(i)
            if text is None and (name != "ci" or rng.random() < 0.7):
                text = self._background_text(name)
            if text is not None:
                event["text"] = text
            sets = list(self.sets.get(i, ()))
            if name in ("commits", "deploys") and rng.random() < (
                0.1 if name == "commits" else 0.3
            ):
                component, setting = rng.choice(self.keys)
                sets.append((f"{component}.{setting}", rng.choice(vocab.SETTINGS[setting])))
            if sets:
                event["set"] = dict(sets)
            for kind, target in self.markers.get(i, ()):
                event.setdefault(kind, []).append(target)  # type: ignore[union-attr]
            outcome = self.outcome.get(i)
            if outcome is None and name == "deploys":
                luck = rng.random()
                outcome = "failed" if luck < 0.03 else "unknown" if luck < 0.05 else None
            if outcome is not None:
                event["outcome"] = outcome
            chunks.append(json.dumps(event))
        return "\n".join(chunks) + "\n"

    def _background_text(self, channel: str) -> str:
        """Everyday text: filler words, now and then a component, object, verb, value or cue."""
        rng = self.rng
        low, high, comp, obj, verb, value, done = TEXT_MIX[channel]
        words = rng.choices(self.filler, k=rng.randint(low, high))
        for chance, pool in (
            (comp, self.components),
            (obj, vocab.OBJECTS),
            (verb, vocab.VERBS),
            (done, vocab.DONE_WORDS),
        ):
            if rng.random() < chance:
                words.insert(rng.randrange(len(words) + 1), rng.choice(pool))
        if rng.random() < value:
            setting = rng.choice(("backend", "store", "region", "mode"))
            words.append(f"to {rng.choice(vocab.SETTINGS[setting])}")
        words[0] = words[0].capitalize()
        return " ".join(words)
