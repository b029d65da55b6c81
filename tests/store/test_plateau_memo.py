"""Standpoints as lookups: on random histories and random standpoints of both default families,
every face read from the plateau memo is byte-identical to a fresh solve's."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import times
from resolver.agents.brief import brief
from resolver.agents.ready import ready, render_text, to_dict
from resolver.api import check_document
from resolver.engine.atoms import Atoms
from resolver.engine.plateau import Memo, Thresholds, family
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.faces import json_format, markdown, table
from resolver.faces.explanation.text import line, phrase
from resolver.language.model import Project
from resolver.verdicts import kept
from resolver.verdicts.explanation import explain_at
from resolver.verdicts.resolution import read, resolve
from tests.store.histories import DAY, histories, standpoints


def faces(prepared: Prepared, point: Standpoint) -> list[str]:
    """What status (every format and reason mode), check, ready, brief and explain's verdict
    line print at ``point``."""
    out = []
    every = resolve(prepared, point)
    out.append(json_format.render(every, prepared.project, "all"))
    key = resolve(prepared, point, Query(every_reason=False))
    out.append(json_format.render(key, prepared.project, "key"))
    out.append(table.render(key))
    out.append(markdown.render(key))
    out.append(json.dumps(check_document(prepared, point, None, None), sort_keys=True))
    out.append(json.dumps(check_document(prepared, point, "t0", None), sort_keys=True))
    listed = ready(prepared, point)
    out.append(render_text(listed) + json.dumps(to_dict(listed), sort_keys=True))
    out.append(brief(prepared, point).text())
    for ident in ("x0", "x3", "t1"):
        out.append(line(phrase(explain_at(prepared, point, ident), prepared.project)))
    return out


class Backing:
    """An in-memory stand-in for the store's entry: answers and kept verdicts as text only, so
    a fresh memo over it reads them back as a new process reads the SQLite file."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, int, str], tuple[str, int]] = {}
        self.kept: dict[tuple[str, int, str], str] = {}

    def answer(self, key):
        return self.answers.get(key)

    def keep(self, key, text, ground_rules):
        self.answers[key] = (text, ground_rules)
        self.kept.pop(key, None)

    def verdicts(self, key):
        return self.kept.get(key)

    def keep_verdicts(self, key, text):
        if key in self.answers:
            self.kept[key] = text


def pair(project: Project) -> tuple[Prepared, Prepared]:
    """The same history prepared twice: with the memo, and solving every standpoint afresh."""
    memo = Prepared(replace(project, derived={}))
    memo.memo = Memo(size=1024)  # every face's query at every standpoint stays in memory
    fresh = Prepared(replace(project, derived={}))
    fresh.memo = None
    return memo, fresh


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(histories(), st.lists(standpoints(), min_size=2, max_size=5))
def test_every_face_from_the_memo_equals_a_fresh_solve(project: Project, points):
    memo, fresh = pair(project)
    for point in points:  # each face solves its plateau once, then reads it
        faces(memo, point)
    for point in [*points, points[0]]:
        assert faces(memo, point) == faces(fresh, point)
    assert memo.memo is not None and memo.memo.hits > 0


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(histories(), st.lists(standpoints(), min_size=2, max_size=5))
def test_every_face_from_kept_verdicts_equals_a_fresh_solve(project: Project, points):
    """The typed verdicts kept beside an answer (resolver/verdicts/kept.py), decoded by a fresh
    memo as another process would, print every face as a fresh solve does."""
    memo, fresh = pair(project)
    backing = Backing()
    memo.memo = Memo(backing)
    for point in points:
        faces(memo, point)
    assert backing.kept  # every default-family answer read keeps its verdicts
    for point in [*points, points[0]]:
        memo.memo = Memo(backing)  # nothing in memory: verdicts decoded from the kept text
        assert faces(memo, point) == faces(fresh, point)
    for key, text in backing.kept.items():  # and equal, field for field, to the atoms' reading
        flags = (key[2].startswith("1"), "key_reasons_only." in key[2])
        decoded = kept.decode(text, flags, points[0], lambda: Atoms(""))
        again = read(memo, points[0], Atoms(*backing.answers[key]), *flags)
        assert repr(decoded) == repr(again)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(histories(), standpoints(), st.data())
def test_a_plateau_answers_every_standpoint_in_it_with_the_same_atoms(project, point, data):
    """Any two standpoints of one family on one plateau derive the same atoms: the memo's
    soundness, checked on the atoms (every face reads only them)."""
    _, fresh = pair(project)
    bounds = fresh.thresholds
    other = data.draw(st.integers(min_value=point.at - 3 * DAY, max_value=point.at + 3 * DAY))
    second = Standpoint(other, None if point.latest else other)
    if bounds.plateau(times.encode(point.at)) != bounds.plateau(times.encode(other)):
        return
    for query in (Query(), Query(every_reason=False), Query(explain_all=True)):
        a = fresh.solve(point, query).text.split()
        b = fresh.solve(second, query).text.split()
        assert sorted(a) == sorted(b)


def test_plateaus_split_at_on_and_after_each_threshold():
    bounds = Thresholds([10, 20, 20, 5])
    assert bounds.values == [5, 10, 20]
    assert [bounds.plateau(t) for t in (4, 5, 6, 9, 10, 11, 20, 21)] == [0, 1, 2, 2, 3, 4, 5, 6]


def test_only_the_two_default_families_are_memoized():
    assert family(5, 5) == "at"
    assert family(5, None) == "latest"
    assert family(5, 7) is None
