"""The JSON of SPEC §4: the format tools exchange."""

from __future__ import annotations

import json
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

from resolver.faces.table import GAPS_SHOWN
from resolver.faces.words import describe
from resolver.language.model import Project
from resolver.times import format_time
from resolver.verdicts import caps
from resolver.verdicts.resolution import ChannelFootprint, ExpectationVerdict, Finding, Resolution


def _time(value: int | None) -> str | None:
    return None if value is None else _format(value)


@lru_cache(maxsize=1 << 16)
def _format(value: int) -> str:
    """A time as text, once per distinct time: a status of 1,000 items prints a few hundred
    distinct times 7,000 times (every channel's ``through`` once per expectation)."""
    return format_time(value)


def standpoint_dict(resolution: Resolution) -> dict[str, str]:
    """``{"at": ..., "known": ...}`` with ``"latest"`` for ``known latest``."""
    point = resolution.standpoint
    known = "latest" if point.known is None else format_time(point.known)
    return {"at": format_time(point.at), "known": known}


def expectation_dict(
    verdict: ExpectationVerdict,
    project: Project,
    reasons: str = "key",
    shared: dict[int, tuple[ChannelFootprint, dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """One expectation's verdict; ``reasons`` ``"key"`` (the key reasons, capped, with
    ``reasons_omitted``) or ``"all"`` (every reason; see :mod:`resolver.verdicts.caps`).

    ``shared``: footprints already shown, by object: a footprint object shared by several
    verdicts (:func:`resolver.verdicts.resolution.read` shares equal ones) is shown once, as
    one dict every verdict's document holds (for a document only printed, never changed)."""
    channels = {}
    for name, fp in verdict.channels.items():
        found = None if shared is None else shared.get(id(fp))
        if found is None:
            found = (fp, _footprint(fp))
            if shared is not None:
                shared[id(fp)] = found  # (the footprint is held too: its id stays its own)
        channels[name] = found[1]
    declared = project.expectation(verdict.id)
    assert declared is not None
    shown, omitted = caps.reasons_shown(verdict, reasons)
    return {
        "id": verdict.id,
        "title": verdict.title,
        "task": verdict.task,
        "status": verdict.status,
        "confidence": verdict.confidence,
        "flags": list(verdict.flags),
        "closed_by": verdict.closed_by,
        "tier": verdict.tier,
        "closed_at": _time(verdict.closed_at),
        "opened_at": _time(verdict.opened_at),
        "bound": _time(verdict.bound),
        "footprint": {"complete": verdict.footprint_complete, "channels": channels},
        "reasons": [
            {
                "code": r.code,
                "event": r.event,
                "rule": r.detail,
                "detail": describe(r, project, declared),
                **({"channel": r.channel} if r.channel else {}),
            }
            for r in shown
        ],
        "reasons_omitted": omitted,
        **_made_by(verdict),
    }


def _footprint(fp: ChannelFootprint) -> dict[str, Any]:
    return {
        "searched": fp.searched,
        "through": _time(fp.through),
        "candidates": fp.candidates,
        **footprint_gaps(fp),
    }


def footprint_gaps(fp: ChannelFootprint) -> dict[str, Any]:
    """A footprint's gaps, bounded: the channel's first :data:`GAPS_SHOWN` gaps (``gaps``,
    with ``gaps_omitted`` when there are more) and the relevant gaps the rules listed
    (``relevant_gaps``, with ``gaps_after_relevant``: the channel's gaps after that window).
    The whole list is printed once per channel, in the top-level ``channels``."""
    out: dict[str, Any] = {"gaps": [list(g) for g in fp.gaps[:GAPS_SHOWN]]}
    if len(fp.gaps) > GAPS_SHOWN:
        out["gaps_omitted"] = len(fp.gaps) - GAPS_SHOWN
    out["relevant_gaps"] = [list(g) for g in fp.relevant_gaps]
    if fp.gaps_after:
        out["gaps_after_relevant"] = fp.gaps_after
    return out


def channels_dict(resolution: Resolution) -> dict[str, Any]:
    """Every search channel that has gaps, with all of them: the one place they are listed."""
    return {
        name: {"gaps": [list(g) for g in gaps]} for name, gaps in resolution.channel_gaps.items()
    }


def _made_by(verdict: Any) -> dict[str, str]:
    """``"policy"`` and ``"trigger"`` of a policy instance (SPEC 5.2); nothing otherwise."""
    if verdict.policy is None:
        return {}
    return {"policy": verdict.policy, "trigger": verdict.trigger}


def finding_dict(finding: Finding, with_target: bool = True) -> dict[str, Any]:
    """One false completion or false pending."""
    out: dict[str, Any] = {"kind": finding.kind, "event": finding.event, "by": finding.by}
    if with_target:
        out["target"] = finding.target
    out["outstanding"] = list(finding.outstanding)
    return out


def to_dict(resolution: Resolution, project: Project, reasons: str = "key") -> dict[str, Any]:
    """The whole resolution as SPEC §4 JSON (equal footprints shown as one dict)."""
    shared: dict[int, tuple[ChannelFootprint, dict[str, Any]]] = {}
    return {
        "schema_version": 1,
        "kind": "status",
        "standpoint": standpoint_dict(resolution),
        "expectations": [
            expectation_dict(v, project, reasons, shared) for v in resolution.expectations
        ],
        "tasks": [
            {
                "id": t.id,
                "title": t.title,
                "status": t.status,
                "outstanding": list(t.outstanding),
                "findings": [finding_dict(f, with_target=True) for f in t.findings],
                **_made_by(t),
            }
            for t in resolution.tasks
        ],
        "findings": [finding_dict(f) for f in resolution.findings],
        "channels": channels_dict(resolution),
    }


def render(resolution: Resolution, project: Project, reasons: str = "key") -> str:
    """Pretty-printed JSON text."""
    return indented(to_dict(resolution, project, reasons)) + "\n"


class _NotPlain(Exception):
    """A value :func:`indented` leaves to the json module (a float, a key that is no string)."""


def indented(document: Any) -> str:
    """``json.dumps(document, indent=2, ensure_ascii=False)``, byte for byte, in less than half
    its time: with an indent the json module encodes in Python, one generator per container;
    here each container is one loop appending to a list, and strings go through the same C
    escaping. Anything but dicts with string keys, lists, tuples, strings, integers, booleans
    and None is left to the json module (the whole document, so the text is the same)."""
    out: list[str] = []
    append = out.append
    containers = (dict, list, tuple)

    def scalar(value: Any) -> str:
        kind = type(value)
        if kind is str:
            return encode_basestring(value)
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if kind is int:
            return int.__repr__(value)
        raise _NotPlain

    def container(value: Any, indent: str) -> None:
        if not value:
            append("{}" if type(value) is dict else "[]")
            return
        inner = indent + "  "
        separator = ",\n" + inner
        first = True
        if type(value) is dict:
            append("{\n" + inner)
            for key, item in value.items():
                if type(key) is not str:
                    raise _NotPlain
                if first:
                    first = False
                else:
                    append(separator)
                append(encode_basestring(key) + ": ")
                if type(item) in containers:
                    container(item, inner)
                else:
                    append(scalar(item))
            append("\n" + indent + "}")
            return
        append("[\n" + inner)
        for item in value:
            if first:
                first = False
            else:
                append(separator)
            if type(item) in containers:
                container(item, inner)
            else:
                append(scalar(item))
        append("\n" + indent + "]")

    try:
        if type(document) in containers:
            container(document, "")
        else:
            append(scalar(document))
    except (_NotPlain, RecursionError):
        return json.dumps(document, indent=2, ensure_ascii=False)
    return "".join(out)
