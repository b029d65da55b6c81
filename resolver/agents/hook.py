"""The Claude Code hook: refuse a false "done" inside the agent's loop (SPEC §8).

``openloop hook claude-code`` reads the hook payload on stdin (``Stop``, ``SubagentStop`` or
``TaskCompleted``), records the agent's claim as a ``claims_complete`` event for the task
(channel ``agent``, ``by`` the session, ``at`` now) through the one write path
(:func:`resolver.ingest.record.append_event`), and judges the task at (now, known latest). The
task's status, what is outstanding, the nearest rejected candidate (the ``key_reason`` atom) and
the ``FALSE_COMPLETION`` finding all come from the rules; this module only decides how to tell
the host, and when to stop telling it:

- ``stop_hook_active`` (the host is already continuing because a stop hook blocked): allow, so a
  hook never holds an agent in a loop; the claim is still recorded and still a finding;
- after ``max_refusals`` consecutive refusals of this session's claims on this task (counted from
  the recorded claims and the rules' findings, so no state lives outside the log), allow with a
  warning; every claim stays recorded as the false completion it is.

The agent's own words (``last_assistant_message``) are not written into the event: a claim must
never become its own evidence through the text linker.

One call is one solve: the history is prepared for the task's group of declarations only
(:func:`resolver.agents.warm.load_prepared` with the task as scope), and the standpoint is solved
once with the task's obligations explained, so the verdict, the findings and each outstanding
obligation's ``key_reason`` come from the same atoms.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from resolver.agents.warm import load_prepared, warm_in_background
from resolver.engine.prepared import Prepared, Standpoint
from resolver.errors import InputError, Location
from resolver.faces import explanation_text
from resolver.ingest.record import append_event
from resolver.language.loader import collect_files
from resolver.times import format_time, now
from resolver.verdicts.explanation import key_reason_of, query_facts
from resolver.verdicts.resolution import Resolution, resolve

#: Hook events this command understands.
EVENTS = ("Stop", "SubagentStop", "TaskCompleted")
#: The channel the agent's claims are recorded on.
CLAIM_CHANNEL = "agent"
#: Default cap on consecutive refusals; Claude Code itself stops a stop-hook loop at about eight.
DEFAULT_MAX_REFUSALS = 5
#: Obligations listed in a refusal before "and N more".
LISTED = 8


@dataclass(frozen=True)
class Payload:
    """The fields of a Claude Code hook payload that the hook reads."""

    event: str
    session_id: str | None
    stop_hook_active: bool
    task_id: str | None = None
    task_subject: str | None = None
    cwd: str | None = None


@dataclass(frozen=True)
class Decision:
    """What to tell the host: allow or refuse, why, and what was recorded."""

    event: str
    refuse: bool
    reason: str
    claim: str
    status: str
    warning: str | None = None


def read_payload(text: str, name: str = "<stdin>") -> Payload:
    """Parse a hook payload; a malformed one is an :class:`InputError` at its line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON hook payload: {exc.msg}", Location(name, exc.lineno)
        ) from None
    if not isinstance(data, dict):
        raise InputError("the hook payload must be a JSON object", Location(name, 1))
    event = data.get("hook_event_name")
    if event not in EVENTS:
        raise InputError(
            f"hook_event_name must be one of {', '.join(EVENTS)}, got {json.dumps(event)}",
            Location(name, 1),
        )
    session = data.get("session_id")
    if session is not None and (not isinstance(session, str) or not session):
        raise InputError("session_id must be a non-empty string", Location(name, 1))
    active = data.get("stop_hook_active", False)
    if not isinstance(active, bool):
        raise InputError("stop_hook_active must be true or false", Location(name, 1))
    return Payload(
        event=event,
        session_id=session,
        stop_hook_active=active,
        task_id=_text(data.get("task_id")),
        task_subject=_text(data.get("task_subject")),
        cwd=_text(data.get("cwd")),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


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
        raise InputError(f"--log: {what} among the paths; name the log to append to with --log")
    return unique[0]


def _load_paths(paths: Sequence[str | Path], log: Path) -> list[str | Path]:
    """PATHs, plus the log when none of them holds it (the claim must be seen)."""
    target = log.resolve()
    if log.exists() and any(Path(name).resolve() == target for name in collect_files(paths)):
        return list(paths)
    return [*paths, log]


def judge(
    payload: Payload,
    task: str,
    paths: Sequence[str | Path],
    log: str | Path | None = None,
    max_refusals: int = DEFAULT_MAX_REFUSALS,
    at: int | None = None,
    use_cache: bool = True,
) -> Decision:
    """Judge the task at (now, known latest), record the claim, decide what to answer.

    The verdict is read from the history as it stands before the claim is appended: the claim
    is no evidence for anything, so the statuses are the same with it, and the rules judge it a
    false completion exactly when the task is not complete at (its at, latest).
    """
    log_path = default_log(paths, log)
    before = _load_paths(paths, log_path) if log_path.exists() else list(paths)
    prepared = load_prepared(before, use_cache, scope=task)
    # Fail before writing when the task is unknown: a claim about nothing is not recorded.
    declared = prepared.project.task(task)
    if declared is None:
        raise InputError(f"--task: no task named '{task}'")
    moment = now() if at is None else at
    by = payload.session_id or "claude-code"
    # Explaining every obligation costs little here (the prepared history is the task's group)
    # and saves a second solve when the claim is refused.
    explained = query_facts(prepared, declared.obligations)
    resolution = resolve(prepared, Standpoint(moment, None), explained)
    verdict = resolution.task(task)
    assert verdict is not None
    claim = append_event(
        log_path,
        {
            "channel": CLAIM_CHANNEL,
            "by": by,
            "kind": "claim",
            "at": format_time(moment),
            "claims_complete": [task],
        },
    )
    if verdict.status == "COMPLETE":
        decision = Decision(payload.event, False, "", claim["id"], verdict.status)
    else:
        decision = _refusal(payload, prepared, resolution, task, by, claim["id"], max_refusals)
    if use_cache:
        warm_in_background(_load_paths(paths, log_path), scope=task)
    return decision


def _refusal(
    payload: Payload,
    prepared: Prepared,
    resolution: Resolution,
    task: str,
    by: str,
    claim: str,
    max_refusals: int,
) -> Decision:
    verdict = resolution.task(task)
    assert verdict is not None
    refusals = consecutive_refusals(prepared, resolution, task, by) + 1  # and this claim
    if payload.stop_hook_active:
        warning = "stop_hook_active: not blocking again; the false completion stays recorded"
        return Decision(payload.event, False, "", claim, verdict.status, warning)
    if refusals > max_refusals:
        warning = (
            f"{refusals - 1} consecutive refusals (cap {max_refusals}): allowing; "
            f"the false completion {claim} stays recorded"
        )
        return Decision(payload.event, False, "", claim, verdict.status, warning)
    reason = refusal_text(prepared, resolution, task)
    return Decision(payload.event, True, reason, claim, verdict.status)


def consecutive_refusals(prepared: Prepared, resolution: Resolution, task: str, by: str) -> int:
    """How many of this session's latest claims on ``task`` in a row are false completions."""
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


def refusal_text(prepared: Prepared, resolution: Resolution, task: str) -> str:
    """The refusal: the task's status, each outstanding obligation with its key reason.

    The key reasons are read from ``resolution`` when it explained the obligations (as
    :func:`judge` asks); :func:`key_reason_of` solves again only for one it did not.
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
        lines.append(f"{head}: {explanation_text.line(key_reason_of(prepared, resolution, ident))}")
    rest = len(verdict.outstanding) - LISTED
    if rest > 0:
        lines.append(f"... and {rest} more")
    lines.append(
        "Do the outstanding work, or have its evidence recorded, before claiming completion."
    )
    return "\n".join(lines)
