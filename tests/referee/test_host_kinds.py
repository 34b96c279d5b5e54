"""One table of host kinds (``arena.referee.HOST_KINDS``): a seat's ``host``, a config's
``host:`` values, the record's ``seats[].host`` and ``make_host`` all come from it."""

from __future__ import annotations

import importlib
import inspect
import re
import sys

import pytest
import trio

from arena.referee import HOST_KINDS, Host, Limits, MatchSpec, MatchSpecError, Seat, make_host
from arena.referee import play_match as play
from arena.referee.testing import MemoryHost
from arena.tournament import TournamentConfig

# Every module that defines a Host outside the referee (a person's seat, the terminal's
# player, the watched host of ``arena match --verbose``), and the referee's own that its
# makers import when first used (docs/architecture.md, "Start-up").
HOST_MODULES = ("arena.web._person_host", "arena.cli._play", "arena.cli._watch",
                "arena.referee.hosts._process", "arena.referee.uecda._host")


def subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *subclasses(sub)]
    return found


def test_every_host_class_names_a_kind_of_the_table() -> None:
    for name in HOST_MODULES:
        importlib.import_module(name)
    named = {cls.__qualname__: vars(cls)["kind"] for cls in subclasses(Host)
             if "kind" in vars(cls) and cls.__module__.startswith("arena.")}
    assert {"InlineHost", "ProcessHost", "CommandHost", "UecdaHost", "MemoryHost",
            "PersonHost", "HumanHost"} <= set(named)
    assert {kind for kind in named.values() if kind not in HOST_KINDS} == set()
    # a host class that names no kind is abstract, or takes its kind from the host it wraps
    unnamed = [cls.__qualname__ for cls in subclasses(Host) if cls.__module__.startswith(
        "arena.") and cls.kind == Host.kind and not inspect.isabstract(cls)]
    assert unnamed == ["WatchedHost"]


@pytest.mark.parametrize("kind", [name for name, kind in HOST_KINDS.items() if kind.make])
def test_the_host_a_kind_makes_is_of_that_kind(kind: str) -> None:
    if HOST_KINDS[kind].gives == "command":
        seat = Seat("s", command=f"{sys.executable} -c pass", host=kind)
    else:
        seat = Seat("s", name="random", host=kind)
    assert make_host(seat, Limits()).kind == kind


@pytest.mark.parametrize("kind", [name for name, kind in HOST_KINDS.items() if not kind.make])
def test_a_kind_its_caller_hands_in_is_not_made(kind: str) -> None:
    with pytest.raises(MatchSpecError, match=rf"makes no '{kind}' host .*its caller hands it in"):
        make_host(Seat("s", name="person", host=kind), Limits())


def test_a_seat_played_by_a_host_of_another_kind_is_refused() -> None:
    seats = tuple(Seat(f"s{i}", name="random") for i in range(3))  # inline seats
    spec = MatchSpec(match_id="m", seed=1, seats=seats)
    hosts = [MemoryHost(lambda request: None), *(make_host(s, spec.limits) for s in seats[1:])]
    with pytest.raises(MatchSpecError, match="seat 's0' is a 'inline' seat, played by a "
                                             "'memory' host"):
        trio.run(lambda: play(spec, hosts=hosts))


def test_an_unknown_kind_is_named_with_the_known_ones() -> None:
    with pytest.raises(MatchSpecError, match=re.escape(
            "unknown host 'cloud' (expected one of inline, process, command, uecda, web, "
            "human, memory)")):
        Seat("s", name="random", host="cloud")


def test_a_config_may_name_the_kinds_the_table_lets_it() -> None:
    schema = TournamentConfig.model_json_schema()
    host = schema["$defs"]["BotConfig"]["properties"]["host"]
    enum = next(option["enum"] for option in host["anyOf"] if "enum" in option)
    assert enum == [name for name, kind in HOST_KINDS.items() if kind.config]
    assert enum == ["inline", "process", "command"]


def test_a_kind_picked_by_a_protocol_reads_and_writes_it() -> None:
    seat = Seat.from_dict({"label": "u", "command": "client", "protocol": "uecda"})
    assert seat.host == "uecda" and seat.to_dict()["protocol"] == "uecda"
    with pytest.raises(MatchSpecError, match=re.escape(
            "unknown protocol 'x' (expected 'arena' or 'uecda')")):
        Seat.from_dict({"label": "u", "command": "client", "protocol": "x"})
