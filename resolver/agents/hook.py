"""The judge behind every agent host's hook: refuse a false "done" inside the loop (SPEC §8).

A host module (``resolver.agents.hosts``) turns its payload into a :class:`Call` and renders an
:class:`Outcome` in its own protocol; everything between is here and is the same for every host:

- **A completion claim** (``TaskCompleted``; a stop whose last message claims completion,
  :mod:`resolver.agents.stop_claims`): the history is prepared with the ``--as`` identity
  declared an agent (:mod:`resolver.agents.identity`), the task is judged at (now, known
  latest), the claim (``claims_complete TASK``, channel ``agent``, ``by`` the identity, ``at``
  now, and the ``evidence`` it cites, if any) is appended through the one write path, and an
  incomplete task is refused with what is outstanding and, for each cited event, what it
  supports (:mod:`resolver.agents.evidence`). The verdict, the findings and the key reasons are
  the rules' atoms; this module only decides how to answer.
- **A stop that does not claim** (a question, a report of what remains): allowed, nothing read,
  nothing recorded.
- **A tool call** (``PreToolUse`` and its equivalents): the guard (:mod:`resolver.agents.guard`).

When to stop refusing: with ``stop_hook_active`` (the host already continues because a stop
hook blocked), and after ``max_refusals`` consecutive refusals of the identity's claims on the
task (counted from the recorded claims and the rules' ``FALSE_COMPLETION`` findings, so no state
lives outside the log). Every claim stays recorded as the false completion it is.

Failure: bad input (a payload that is not JSON, an unreadable, torn or ambiguous history, an
unknown ``--task``) refuses the claim naming the error, because a history the agent can break
must not open the gate. Only an internal error (a bug) fails open, and visibly (``warning`` goes
to the user through the host's ``systemMessage`` or equivalent); ``strict`` refuses then too.
``observe`` judges and records but never blocks: what it would have done becomes the warning.

The agent's own words are never written into the event: a claim must never become its own
evidence through the text linker.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from resolver import api
from resolver.agents.identity import DEFAULT_IDENTITY, check_identity, prepare_as
from resolver.agents.stop_claims import claims_completion
from resolver.api import Prepared, Resolution
from resolver.errors import InputError
from resolver.ingest import kept_scan
from resolver.ingest.record import append_event
from resolver.language.loader import collect_files
from resolver.times import format_time, now

if TYPE_CHECKING:
    from resolver.store.keys import Stamp

#: The channel the agent's claims are recorded on.
CLAIM_CHANNEL = "agent"
#: Default cap on consecutive refusals: below Claude Code's eight consecutive stop blocks and
#: Cursor's default ``loop_limit`` of 5 (installed as ``max_refusals + 1``).
DEFAULT_MAX_REFUSALS = 4
#: Obligations listed in a refusal before "and N more".
LISTED = 8


@dataclass(frozen=True)
class Call:
    """One hook call, host-neutral.

    ``kind`` is ``claim`` (always a completion claim), ``stop`` (a claim only when ``message``
    claims completion), ``tool`` (a tool call for the guard), ``start`` (a session's start:
    nothing to judge, the first claim is warmed) or ``other`` (nothing to judge).
    """

    kind: str
    event: str
    session: str | None = None
    stop_active: bool = False
    message: str | None = None
    tool: str | None = None
    tool_input: Any = None
    cwd: str | None = None
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Options:
    """The command line: what is judged, as whom, and how to fail."""

    task: str
    paths: Sequence[str | Path]
    log: str | Path | None = None
    identity: str = DEFAULT_IDENTITY
    max_refusals: int = DEFAULT_MAX_REFUSALS
    observe: bool = False
    strict: bool = False
    use_cache: bool = True
    at: int | None = None


@dataclass
class Outcome:
    """What to tell the host: ``allow``, ``refuse`` (a claim) or ``deny`` (a tool call)."""

    action: str = "allow"
    reason: str = ""
    warning: str | None = None
    claim: str | None = None
    status: str | None = None
    recorded: bool = False

    @property
    def blocks(self) -> bool:
        return self.action in ("refuse", "deny")


def answer(call: Call, options: Options) -> Outcome:
    """Judge one call; never raises (errors become refusals or visible warnings)."""
    try:
        check_identity(options.identity)
        if call.kind == "tool":
            outcome = _guard(call, options)
        elif call.kind == "start" or (call.kind == "stop" and not claims_completion(call.message)):
            # A session's start, or a question or a report of what remains: not a claim. The
            # claim to come is warmed in the background, so it is a lookup.
            outcome = Outcome()
            if options.use_cache:
                warm_ahead(options)
        elif call.kind in ("claim", "stop"):
            outcome = judge(call, options)
        else:
            outcome = Outcome(warning=f"openloop hook: {call.event} is not a hook it judges")
    except InputError as exc:
        outcome = _bad_input(call, exc)
    except Exception as exc:  # a bug: fail open, visibly, unless strict
        text = f"openloop hook: internal error ({type(exc).__name__}: {exc})"
        if options.strict:
            outcome = Outcome("deny" if call.kind == "tool" else "refuse", f"{text}; refusing")
        else:
            outcome = Outcome(warning=f"{text}; allowing (the claim was not judged)")
    if options.observe and outcome.blocks:
        what = "deny this tool call" if outcome.action == "deny" else "refuse this claim"
        outcome = Outcome(
            warning=f"openloop (observe): would {what}:\n{outcome.reason}",
            claim=outcome.claim,
            status=outcome.status,
            recorded=outcome.recorded,
        )
    return outcome


def _bad_input(call: Call, exc: InputError) -> Outcome:
    if call.kind == "tool":
        return Outcome("deny", f"openloop guard: {exc}")
    return Outcome(
        "refuse",
        f"openloop: cannot judge the claim: {exc}\nA claim openloop cannot judge is refused "
        "(a history that cannot be read cannot show the work is done) until this is repaired.",
    )


def _guard(call: Call, options: Options) -> Outcome:
    from resolver import resources
    from resolver.agents.guard import Guard, roots_of

    extra: list[str | Path] = [resources.cache_dir()]
    if options.log is not None:
        extra.append(options.log)
    guard = Guard(
        roots_of(options.paths, extra),
        options.identity,
        lambda: authoritative_channels(options.paths),
    )
    verdict = guard.tool(call.tool or "", call.tool_input, call.cwd)
    if verdict.deny:
        return Outcome("deny", f"openloop guard: {verdict.reason}")
    return Outcome()


def authoritative_channels(paths: Sequence[str | Path]) -> frozenset[str]:
    """The channels the ``.ol`` files among PATHs declare ``authoritative``."""
    from resolver.language.loader import load

    declarations = [f for f in collect_files(paths) if f.endswith(".ol")]
    project = load(declarations)
    return frozenset(c.name for c in project.channels if c.authoritative)


def default_log(paths: Sequence[str | Path], log: str | Path | None) -> Path:
    """``--log FILE``, or the single ``.jsonl`` file among PATHs (folders searched)."""
    if log is not None:
        return Path(log)
    found: list[Path] = []
    for entry in map(Path, paths):
        if entry.is_dir():
            found.extend(sorted(entry.rglob("*.jsonl")))
        elif entry.suffix == ".jsonl":
            found.append(entry)
    unique = list(dict.fromkeys(p.resolve() for p in found))
    if len(unique) != 1:
        what = "no .jsonl file" if not unique else f"{len(unique)} .jsonl files"
        listed = "" if not unique else " (" + ", ".join(map(str, unique[:4])) + ")"
        raise InputError(
            f"--log: {what} among the paths{listed}; name the log to append to with --log"
        )
    return unique[0]


def _load_paths(paths: Sequence[str | Path], log: Path) -> list[str | Path]:
    """PATHs, plus the log when none of them holds it (the claim must be seen)."""
    target = log.resolve()
    if log.exists() and any(Path(name).resolve() == target for name in collect_files(paths)):
        return list(paths)
    return [*paths, log]


def judge(call: Call, options: Options, load: Callable[..., Prepared] = prepare_as) -> Outcome:
    """Judge the task at (now, known latest), record the claim, decide what to answer.

    The verdict is read from the history as it stands before the claim is appended: the claim
    is no evidence for anything, so the statuses are the same with it, and the rules judge it a
    false completion exactly when the task is not complete at (its at, latest).
    """
    task, identity = options.task, options.identity
    log_path = default_log(options.paths, options.log)
    before = _load_paths(options.paths, log_path) if log_path.exists() else list(options.paths)
    read: list[Stamp] = []
    # The claim changes the log: its entry is stored by the warm-up after the append, not here.
    prepared = load(before, identity, options.use_cache, task, False, read.append)
    if not prepared.from_store:  # its one question is kept by no store: no plateau to draw
        prepared.memo = None
    declared = prepared.project.task(task)
    if declared is None:  # before writing: a claim about nothing is not recorded
        raise InputError(f"--task: no task named '{task}'")
    moment = now() if options.at is None else options.at
    resolution = api.explained(prepared, api.standpoint(moment, "latest"), declared.obligations)
    verdict = resolution.task(task)
    assert verdict is not None
    event: dict[str, Any] = {
        "channel": CLAIM_CHANNEL,
        "by": identity,
        "kind": "claim",
        "at": format_time(moment),
        "claims_complete": [task],
    }
    cited = call.evidence or latest_cited(log_path, identity, task)
    if read and (not prepared.from_store or not kept_scan.exists(str(log_path))):
        # The log was just loaded (from its bytes, or as the columns the store kept of exactly
        # these bytes) and no append kept its scan: the scan is read off the loaded events
        # instead of decoding every line again (0.24 s at 10k events).
        from resolver.agents.log_scan import keep_scan

        keep_scan(prepared.project.events, read[0], log_path)
    if cited:
        event["evidence"] = list(cited)
    claim = append_event(log_path, event)["id"]
    outcome = Outcome(claim=claim, status=verdict.status, recorded=True)
    if verdict.status != "COMPLETE":
        refusals = consecutive_refusals(prepared, resolution, task, identity) + 1
        if call.stop_active:
            outcome.warning = (
                "openloop: stop_hook_active: not blocking again; "
                f"the false completion {claim} stays recorded"
            )
        elif refusals > options.max_refusals:
            outcome.warning = (
                f"openloop: {refusals - 1} consecutive refusals (cap {options.max_refusals}): "
                f"allowing; the false completion {claim} stays recorded"
            )
        else:
            outcome.action = "refuse"
            outcome.reason = refusal_text(prepared, resolution, task, cited)
    if options.use_cache:
        from resolver.agents.warm import ask_ahead, warm_in_background

        prepare = partial(prepare_as, _load_paths(options.paths, log_path), identity, True, task)
        warm_in_background([], task, then=ask_ahead(task, moment), prepare=prepare)
    return outcome


def warm_ahead(options: Options) -> None:
    """After a session's start or a stop that claims nothing: have a detached child prepare the
    task's group as the files are now, ask the claim's question on its plateau, and keep the
    log's scan, so that the session's first claim, if nothing is written before it, is a lookup
    and an append that reads no line, instead of two solves. The call's own answer waits for
    none of it; a history that cannot be read is left for the claim to report."""
    from resolver.agents.warm import ask_ahead, warm_in_background
    from resolver.ingest.record import locked_log

    try:
        log = default_log(options.paths, options.log)
        before = _load_paths(options.paths, log) if log.exists() else list(options.paths)
    except (InputError, OSError):
        return
    ask = ask_ahead(options.task)

    def prepare() -> Prepared:
        return prepare_as(before, options.identity, True, scope=options.task)

    def then(ready: Prepared) -> None:
        ask(ready)
        if log.exists():  # never create a log: the scan is kept as an append would keep it
            with locked_log(log):
                pass

    warm_in_background([], options.task, then=then, prepare=prepare)


def latest_cited(log: Path, identity: str, task: str) -> tuple[str, ...]:
    """The evidence the identity's latest claim on ``task`` cites (``record --evidence``, the
    MCP ``record``), read from the log's lines (the model keeps no ``evidence``): the hook's
    claim rests on the same events, and its refusal says what each supports."""
    try:
        data = Path(log).read_bytes()
    except OSError:
        return ()
    if b'"evidence"' not in data:  # most logs cite nothing: no line need be decoded
        return ()
    text = data.decode("utf-8", errors="replace")
    lines = [line for line in text.split("\n") if '"evidence"' in line and identity in line]
    for line in reversed(lines):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        marked = event.get("claims_complete")
        marked = [marked] if isinstance(marked, str) else marked or []
        if event.get("by") == identity and task in marked:
            cited = event.get("evidence")
            cited = [cited] if isinstance(cited, str) else cited
            return tuple(c for c in cited or [] if isinstance(c, str))
    return ()


def consecutive_refusals(prepared: Prepared, resolution: Resolution, task: str, by: str) -> int:
    """How many of ``by``'s latest claims on ``task`` in a row are false completions."""
    claims = [
        e
        for e in prepared.project.marked_events()  # a claim carries a marker
        if e.channel == CLAIM_CHANNEL
        and e.by == by
        and any(m.kind == "claims_complete" and m.target == task for m in e.markers)
    ]
    claims.sort(key=lambda e: (e.seq if e.seq is not None else -1, e.at, e.id))
    false = {
        f.event for f in resolution.findings if f.kind == "FALSE_COMPLETION" and f.target == task
    }
    count = 0
    for event in reversed(claims):
        if event.id not in false:
            break
        count += 1
    return count


def refusal_text(
    prepared: Prepared, resolution: Resolution, task: str, evidence: Sequence[str] = ()
) -> str:
    """The refusal: the task's status, each outstanding obligation with its key reason, and
    what each cited event supports.

    The key reasons are read from ``resolution`` when it explained the obligations (as
    :func:`judge` asks); :func:`resolver.api.key_reason` solves again only for one it did not.
    """
    verdict = resolution.task(task)
    assert verdict is not None
    title = f' "{verdict.title}"' if verdict.title else ""
    at = format_time(resolution.standpoint.at)
    lines = [f"openloop: task {task}{title} is {verdict.status} at {at}, so it is not done."]
    lines.append("Outstanding:")
    listed = list(verdict.outstanding[:LISTED])
    for ident in listed:
        x = resolution.expectation(ident)
        assert x is not None
        head = f"- {ident}"
        if x.title:
            head += f' "{x.title}"'
        head += f" {x.status}"
        if x.bound is not None:
            head += f", bound {format_time(x.bound)}"
        lines.append(f"{head}: {api.key_reason(prepared, resolution, ident)}")
    rest = len(verdict.outstanding) - LISTED
    if rest > 0:
        lines.append(f"... and {rest} more")
    if evidence:
        from resolver.agents.evidence import evidence_lines

        lines.extend(evidence_lines(prepared, resolution, task, evidence))
    lines.append(
        "Do the outstanding work, or have its evidence recorded, before claiming completion."
    )
    return "\n".join(lines)
