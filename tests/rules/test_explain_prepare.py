"""rules/prepare/explain_prepare.lp: the authority behind each marker a candidate carries."""

from __future__ import annotations

from tests.rules.harness import prepare

BASE = (
    "channel(1). channel(4). authoritative(4). actor(0). actor(1). actor(2). actor(3). "
    "actor_role(3,agent). expectation(10). opened_time(10,100). "
)


def test_authority_basis_of_endings() -> None:
    a = prepare(
        BASE + "principal(10,1). event(6,1,200,200,1). marker(6,cancels,10). "
        "event(7,1,200,200,2). marker(7,waives,10). event(8,1,200,200,3). marker(8,reopens,10)."
    )
    assert a.shows("explain_authority(10,6,cancels,principal)")
    assert a.shows("explain_authority(10,7,waives,not_principal)")
    assert a.shows("explain_authority(10,8,reopens,agent)")
    free = prepare(BASE + "event(6,1,200,200,2). marker(6,cancels,10).")
    assert free.shows("explain_authority(10,6,cancels,unrestricted)")


def test_authority_basis_of_completes() -> None:
    a = prepare(
        BASE + "event(6,4,200,200,3). marker(6,completes,10). event(7,1,200,200,2). "
        "marker(7,completes,10). event(8,1,200,200,3). marker(8,completes,10)."
    )
    assert a.shows("explain_authority(10,6,completes,authoritative_channel)")
    assert a.shows("explain_authority(10,7,completes,non_agent)")
    assert a.shows("explain_authority(10,8,completes,agent)")
    assert not a.has("marker_on(10,7,completes,2)")
