"""`claimed_unverified` at HEAD of a study's history, candidate by candidate, and what other
readings of a claim would flag (``docs/design/accuracy.md``, "`claimed_unverified`").

For every item the flag marks at HEAD, every candidate its line names (the ones below `verify`)
is measured as the text linker sees it: the linking words it shares with the item's title or
opening text, how many texts of the history hold each of them and all of them together, whether
it changes the file a TODO is in, and how many shared words stand on a line that makes a
done-style claim. Hand labels (:mod:`lab.study.labels`) say whether a person reads it
as a claim about the item; precision counts an item by the candidate its line names first.

Each way of reading a claim in :data:`OPTIONS` is a predicate over one measured candidate: an
item stays flagged when one of its candidates passes. Reading fewer candidates can only unflag an
item, so the options are measured on the candidates flagged as the linker now reads them, and
those that would change a verdict (the linker's word rules, a rule of the tiers) are not made to
measure them. Nothing here changes a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from resolver import api
from resolver.errors import Location
from resolver.facts.done_claims import DONE_WORDS, SUBJECT_WORDS, claims_done
from resolver.facts.linker import COMMON_WORD_EVENTS, Vocabulary, words
from resolver.facts.policy_matches import linkable
from resolver.language.model import Event, Expectation

__all__ = [
    "OPTIONS",
    "ClaimRow",
    "Measured",
    "claim_rows",
    "claims_markdown",
    "first_named",
    "precision",
]

_HERE = Location("study", 0)

#: Done-style words other than the ``fix`` family, for the reading that drops it.
_NOT_FIX = (
    frozenset(w for w in DONE_WORDS if not w.startswith("fix")),
    frozenset(w for w in SUBJECT_WORDS if w != "fix"),
)


@dataclass(frozen=True)
class ClaimRow:
    """One candidate below `verify` of one flagged item, as measured."""

    item: str
    title: str
    status: str
    candidate: str
    kind: str
    first_line: str
    #: The item's opening evidence is a TODO comment's note (a policy instance with `$note`).
    note: bool
    #: Linking words (stems) it shares with the title or the opening text, whichever it shares
    #: more of, and that text's content-word count.
    shared: tuple[str, ...]
    total: int
    #: Texts of the history holding each shared word, and all of them together.
    frequency: tuple[int, ...]
    together: int
    #: The candidate changes the file the TODO is in (None: the item names no file).
    touches: bool | None
    #: Shared words on a line of the candidate's text that makes a done-style claim.
    on_claim_line: int
    #: The text names the item's id (a link whatever words it shares).
    names_id: bool = False
    #: The text makes a done-style claim with a word other than ``fix``, ``fixed``, ``fixes``.
    claims_without_fix: bool = False

    @property
    def strong(self) -> bool:
        """Two shared words and more than half of the text's (SPEC §3, tier `semantic`)."""
        return len(self.shared) >= 2 and 2 * len(self.shared) > self.total

    @property
    def semantic(self) -> bool:
        """A strong link that may reach tier `semantic`: a merge's text never does."""
        return self.strong and self.kind != "merge"


@dataclass(frozen=True)
class Measured:
    """The flagged candidates of one history, and its size in texts."""

    rows: tuple[ClaimRow, ...]
    texts: int

    @cached_property
    def items(self) -> dict[str, list[ClaimRow]]:
        """Per flagged item, its candidates in the order the flag's line names them."""
        out: dict[str, list[ClaimRow]] = {}
        for row in sorted(self.rows, key=lambda r: (r.item, r.candidate)):
            out.setdefault(row.item, []).append(row)
        return out


class _Index:
    """Content tokens per event text and the texts holding each token, as the linker counts."""

    def __init__(self, events: Iterable[Event], vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.tokens: dict[str, frozenset[str]] = {}
        self.holders: dict[str, set[str]] = {}
        for event in events:
            if event.text:
                found = vocabulary.token_set(event.text)
                self.tokens[event.id] = found
                for token in found:
                    self.holders.setdefault(token, set()).add(event.id)

    def linking(self, tokens: frozenset[str]) -> frozenset[str]:
        """The tokens that count as shared (the linker's common-word cut-off)."""
        return frozenset(t for t in tokens if len(self.holders.get(t, ())) <= COMMON_WORD_EVENTS)


def _source_texts(verdict, events: dict[str, Event]) -> tuple[str, str | None, str | None, bool]:
    """The title and opening text the linker read for an item, the TODO's file, and whether
    the opening text is a note."""
    title = verdict.title or ""
    if verdict.policy and verdict.trigger in events:
        event = events[verdict.trigger]
        key = verdict.id.split("/", 2)[2] if verdict.id.count("/") >= 2 else None
        x, opening = linkable(Expectation(verdict.id, _HERE, title=title), event, key)
        noted = key is not None and event.note(key) is not None
        path = key.removeprefix("todo.").rpartition(":")[0] if key and noted else None
        return x.title or "", opening, path, noted
    return title, None, None, False


def _names(ident: list[str], text: list[str]) -> bool:
    """``text`` holds the words of ``ident`` in a row (as the linker's ``names_id``)."""
    width = len(ident)
    return width > 0 and any(text[i : i + width] == ident for i in range(len(text) - width + 1))


def _claim_line_words(text: str, index: _Index, shared: frozenset[str]) -> int:
    claimed: set[str] = set()
    for line in text.splitlines():
        if claims_done(line):
            claimed |= index.vocabulary.token_set(line) & shared
    return len(claimed)


def claim_rows(prepared: api.Prepared, at: int | None = None) -> Measured:
    """Every candidate below `verify` of every item flagged `claimed_unverified` at ``at``."""
    project = prepared.project
    events = {e.id: e for e in project.events}
    index = _Index(project.events, Vocabulary.from_aliases(project.aliases))
    resolution = api.status(prepared, at=at, known=at)
    rows: list[ClaimRow] = []
    for verdict in resolution.expectations:
        if "claimed_unverified" not in verdict.flags:
            continue
        title, opening, path, noted = _source_texts(verdict, events)
        sources = [index.vocabulary.token_set(t) for t in (title, opening) if t]
        for ident in sorted({r.event for r in verdict.reasons if r.code == "below_verify"}):
            event = events[ident]
            text = event.text or ""
            mine = index.tokens.get(ident, frozenset())
            shared, total = max(
                ((index.linking(source & mine), len(source)) for source in sources),
                key=lambda pair: len(pair[0]),
                default=(frozenset(), 0),
            )
            holders = [index.holders[t] for t in sorted(shared)]
            rows.append(
                ClaimRow(
                    item=verdict.id,
                    title=verdict.title or "",
                    status=verdict.status,
                    candidate=ident,
                    kind=event.kind or "",
                    first_line=text.splitlines()[0] if text else "",
                    note=noted,
                    shared=tuple(sorted(shared)),
                    total=total,
                    frequency=tuple(len(h) for h in holders),
                    together=len(set.intersection(*holders)) if holders else 0,
                    touches=None if path is None else path in event.files,
                    on_claim_line=_claim_line_words(text, index, shared),
                    names_id=_names(words(verdict.id), words(text)),
                    claims_without_fix=claims_done(text, *_NOT_FIX),
                )
            )
    return Measured(tuple(rows), len(index.tokens))


#: A way of reading a claim: does this candidate still flag its item on this history?
Option = Callable[[ClaimRow, Measured], bool]


def _jargon(share: float, large: int = 1000) -> Option:
    """On a history of at least ``large`` texts, a word in more than ``share`` of them is no
    linking word (the project's jargon); a smaller history reads every word as today."""

    def keep(row: ClaimRow, measured: Measured) -> bool:
        if measured.texts < large or row.names_id:
            return True
        cut = share * measured.texts
        return sum(1 for f in row.frequency if f <= cut) >= 2

    return keep


def _term(times: int) -> Option:
    """Two shared words that stand together in at least ``times`` texts are one term of the
    project ("lexer callbacks", "empty rules"): one word, not two."""

    def keep(row: ClaimRow, measured: Measured) -> bool:
        return row.names_id or len(row.shared) > 2 or row.together < times

    return keep


def _note_rule(test: Callable[[ClaimRow], bool]) -> Option:
    """A rule for an item opened by a TODO note: each of its candidates must also pass
    ``test``; every other item is read as today."""

    def keep(row: ClaimRow, measured: Measured) -> bool:
        return not row.note or test(row)

    return keep


def _third(row: ClaimRow) -> bool:
    return 3 * len(row.shared) > row.total


def _touches(row: ClaimRow) -> bool:
    return bool(row.touches)


#: The readings measured in ``docs/design/accuracy.md``; "as now" is the linker as it reads.
OPTIONS: dict[str, Option] = {
    "as now": lambda row, measured: True,
    "(a) jargon: a word in > 1% of texts": _jargon(0.01),
    "(a) jargon: a word in > 2% of texts": _jargon(0.02),
    "(a) a pair in >= 3 texts is one term": _term(3),
    "(b) note: shares > 1/2 of its words": _note_rule(lambda row: row.strong),
    "(b) note: shares > 1/3 of its words": _note_rule(_third),
    "(b) note: touches its file": _note_rule(_touches),
    "(b) note: > 1/3 or touches its file": _note_rule(lambda row: _third(row) or _touches(row)),
    "(b) note: > 1/2 and touches its file": _note_rule(lambda row: row.strong and _touches(row)),
    "(c) two shared words on the claim's line": lambda row, measured: (
        row.semantic or row.on_claim_line >= 2
    ),
    "(c) fix, fixed, fixes claim nothing": lambda row, measured: (
        row.semantic or row.claims_without_fix
    ),
    "(a) > 1% and (c) the claim's line, both": lambda row, measured: (
        _jargon(0.01)(row, measured) and (row.semantic or row.on_claim_line >= 2)
    ),
}


def first_named(measured: Measured, option: Option = OPTIONS["as now"]) -> dict[str, ClaimRow]:
    """Per item still flagged under ``option``: the candidate its line would name first."""
    out = {}
    for item, rows in measured.items.items():
        kept = [row for row in rows if option(row, measured)]
        if kept:
            out[item] = kept[0]
    return out


def precision(
    measured: Measured, labels: dict[tuple[str, str], tuple[bool, str]], option: Option
) -> tuple[int, int, int]:
    """(items flagged, labelled, read as a claim about the item) under ``option``; an item
    whose first-named candidate has no label is counted as flagged but not labelled."""
    named = first_named(measured, option)
    found = [labels.get((row.item, row.candidate)) for row in named.values()]
    labelled = [label for label in found if label is not None]
    return len(named), len(labelled), sum(1 for yes, _ in labelled if yes)


def _cell(text: str, width: int = 70) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def claims_markdown(measured: Measured, sample: Iterable[str]) -> list[str]:
    """The labelled table of the sampled items (each by the candidate its line names first)
    and the precision of every reading in :data:`OPTIONS`, as Markdown lines."""
    from lab.study.labels import LABELS

    chosen = set(sample)
    part = Measured(tuple(r for r in measured.rows if r.item in chosen), measured.texts)
    flagged, labelled, yes = precision(part, LABELS, OPTIONS["as now"])
    share = f"{yes / labelled:.0%}" if labelled else "none labelled"
    out = [
        f"Labelled: {labelled} of the {flagged} sampled items; read as a claim about the item: "
        f"{yes}; precision {share}.",
        "",
        "| # | item | status | candidate | candidate text (first line) | kind | shares "
        "| touches its file | label | why |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for number, row in enumerate(first_named(part).values(), 1):
        label = LABELS.get((row.item, row.candidate))
        said, why = ("yes" if label[0] else "no", label[1]) if label else ("?", "not labelled")
        touches = {None: "", True: "yes", False: "no"}[row.touches]
        out.append(
            f"| {number} | {_cell(row.title, 60)} | {row.status} | {row.candidate[7:]} | "
            f"{_cell(row.first_line)} | {row.kind} | {len(row.shared)}/{row.total} "
            f"({', '.join(row.shared)}) | {touches} | {said} | {_cell(why, 90)} |"
        )
    out += [
        "",
        "| reading | flagged | labelled | a claim | precision |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, option in OPTIONS.items():
        flagged, labelled, yes = precision(part, LABELS, option)
        share = f"{yes / labelled:.0%}" if labelled else "n/a"
        out.append(f"| {name} | {flagged} | {labelled} | {yes} | {share} |")
    return out
