"""The A/B test as a config: what ``arena ab`` runs, for a notebook as for the CLI."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.tournament._formats._sprt import SprtFormat

AB_NAME = "ab"
"""The tournament name of an ``arena ab`` run: its match ids are ``ab-s<set>-<r|m><rotation>``."""


def sprt_default(key: str) -> Any:
    """The default of a key of ``format: sprt`` (``elo1``, ``max_sets``...), declared once in
    :class:`SprtFormat`."""
    return SprtFormat.model_fields[key].default


def ab_config(
    seats: Sequence[Mapping[str, Any]],
    *,
    players: int = 4,
    preset: str = "standard",
    seed: int = 0,
    move_ms: int | None = None,
    **test: float | int,
) -> dict[str, Any]:
    """The tournament config (``format: sprt``) that ``arena ab`` runs, as a plain mapping.

    ``seats`` are bot specs (``arena.cli._seats.seat_specs``): the challenger, the baseline, then
    the field; copies of the baseline fill the seats left. ``test`` holds the test's keys
    (``elo0``, ``elo1``, ``alpha``, ``beta``, ``max_sets``; each left out takes the format's
    default), ``move_ms`` the time per decision (None: the referee's default). Validate and
    run it like a YAML config (``arena.tournament.run_tournament``).
    """
    bots = []
    for seat in seats:
        entry: dict[str, Any] = {"label": seat["label"]}
        if seat.get("name") is not None:
            entry["name"] = seat["name"]
            if seat.get("host", "inline") != "inline":
                entry["host"] = seat["host"]
        else:
            entry["command"] = seat["command"]
            if seat.get("protocol") is not None:
                entry["protocol"] = seat["protocol"]
        bots.append(entry)
    keys = ("elo0", "elo1", "alpha", "beta", "max_sets")
    fmt = {key: test.get(key, sprt_default(key)) for key in keys}
    unknown = sorted(set(test) - set(keys))
    if unknown:
        raise TypeError(f"ab_config() got an unexpected keyword argument {unknown[0]!r}")
    config: dict[str, Any] = {
        "name": AB_NAME,
        "seed": seed,
        "rules": {"preset": preset},
        "players": players,
        "format": {"type": "sprt", "challenger": bots[0]["label"],
                   "baseline": bots[1]["label"], **fmt},
        "bots": bots,
    }
    if move_ms is not None:
        config["limits"] = {"move_ms": move_ms}
    return config
