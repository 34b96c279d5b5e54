"""The league's pure core: what a round plays and when the league stops.

A league plays rounds; each round is a set of tables and each table one duplicate set. The
round is chosen from the Plackett-Luce fit of everything played before it
(:mod:`arena.ratings` ``fit_strengths``, with draws of its posterior), so it is a function of the
league's seed, the field (who is active, who is an anchor) and the records of the rounds
before: never of timing, of ``jobs`` or of where the matches ran.

``table_choice: information`` (docs/league.md, "What the schedule does"):

1. Entrants below ``min_sets`` duplicate sets come first, fewest sets first (a new entrant
   plays at once), then entrants starved below the exploration floor (fewer sets than
   ``floor`` times the active entrants' mean), then the rest by how unsure their rank is: the
   share of posterior draws in which the entrant's rank differs from its point rank, with
   one of the two ranks inside the top ``top`` (the ranks the stopping rule is about; without
   ``confident`` every rank counts).
2. The first ``tables_per_round`` entrants of that order anchor one table each. An anchor's
   table is itself and ``players - 1`` of the ``players - 1 + SPARE`` entrants whose strengths
   are closest to its own: the closest combination not yet chosen in this round (no table is
   repeated within a round while another candidate waits), ties to the one played least. An
   entrant may sit at several tables of a round (as a filler of other anchors' tables).

``table_choice: uniform`` seats, table after table, the active entrants with the fewest sets
so far: every entrant plays as often as every other, at tables drawn at random.

Ties are broken by a generator derived from the league seed and the round number
(``arena.seeds``), and the posterior's draws are seeded the same way, so replaying the same records
chooses the same round.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from arena.ratings import StageCounts, StrengthFit, fit_strengths
from arena.seeds import derive
from arena.seeds import rng as seeded_rng
from arena.tournament._config._formats import STRICT, FormatSettings


class LeagueStop(BaseModel):
    """When a league stops: ``{deals: N}`` (a budget) or ``{confident: p, top: K}``."""

    model_config = STRICT

    deals: int | None = Field(
        default=None, gt=0, description="Stop once this many deals are played (between rounds)."
    )
    confident: float | None = Field(
        default=None, gt=0, lt=1,
        description="Stop once P(order of the top K) reaches this, e.g. 0.95.",
    )
    top: int | None = Field(default=None, gt=0, description="K (default 3), with confident.")

    @model_validator(mode="after")
    def _one_rule(self) -> LeagueStop:
        if (self.deals is None) == (self.confident is None):
            raise ValueError("give exactly one of 'deals' (a budget) or 'confident' (with 'top')")
        if self.top is not None and self.confident is None:
            raise ValueError("'top' goes with 'confident'")
        return self


class LeagueFormat(FormatSettings):
    """Rounds of duplicate sets chosen where the ratings are least sure; the field may change
    between rounds (docs/league.md)."""

    type: Literal["league"]
    table_choice: Literal["information", "uniform"] = Field(
        default="information",
        description="information: the least sure entrants anchor tables of close ratings; "
        "uniform: the entrants with the fewest sets play.",
    )
    tables_per_round: int | None = Field(
        default=None, gt=0,
        description="Tables (duplicate sets) per round (default: active entrants // players).",
    )
    min_sets: int = Field(
        default=4, gt=0, description="Sets every active entrant plays before the league stops."
    )
    floor: float = Field(
        default=0.1, ge=0, lt=1,
        description="No active entrant falls below this share of the mean number of sets.",
    )
    resamples: int = Field(default=200, ge=10, description="Posterior draws per round.")
    stop: LeagueStop | None = Field(
        default=None,
        description="{deals: N}, {confident: p, top: K}, or none: run until stopped.",
    )


TableChoice = Literal["information", "uniform"]
Table = tuple[int, ...]

MAX_LABEL = 64
"""The longest label of a league's entrant, in characters: every record of a league carries
its field's labels (docs/league.md, "Bounds")."""

MAX_FIELD = 256
"""The most entrants a league's field holds, active and retired (an entrant retired before it
ever sat at a table leaves the field; docs/league.md, "Bounds")."""


MAX_ENTRY = 4096
"""The most characters of a league's bot entry as JSON (its name or command, params, version):
each round's line of ``league.jsonl`` keeps every entrant's entry (docs/league.md, "Bounds")."""


def entry_problem(entry: Mapping[str, object]) -> str | None:
    """Why a bot entry (as JSON data) is too large for a league's field, in one line, or None."""
    size = len(json.dumps(entry, sort_keys=True))
    if size > MAX_ENTRY:
        return (f"the entry is {size} characters as JSON: a league's entries (name or command, "
                f"params, version) are at most {MAX_ENTRY}")
    return None


def label_problem(label: str) -> str | None:
    """Why ``label`` cannot name a league's entrant, in one line, or None."""
    if "@" in label:
        return (f"label {label!r}: '@' is kept for a league's versions (LABEL@2); choose "
                "another label")
    if len(label) > MAX_LABEL:
        return (f"label {label[:20]!r}... is {len(label)} characters long: a league's labels "
                f"are at most {MAX_LABEL}")
    return None


SPARE = 2
"""Entrants beyond a full table considered around an anchor (so C(players + 1, players - 1)
candidate tables per anchor)."""


@dataclass(frozen=True)
class LeagueRules:
    """A league's parameters (docs/league.md, "Parameters")."""

    players: int = 4
    table_choice: TableChoice = "information"
    tables_per_round: int | None = None  # None: active entrants // players (at least 1)
    min_sets: int = 4  # sets every active entrant has played before the league may stop
    floor: float = 0.1  # no active entrant falls below this share of the mean sets
    confident: float | None = None  # stop when P(top ordered) reaches this ...
    top: int = 3  # ... for the best ``top`` entrants
    deals: int | None = None  # stop once this many deals are played
    resamples: int = 200  # posterior draws per round

    def __post_init__(self) -> None:
        least = {"players": 2, "tables_per_round": 1, "min_sets": 1, "top": 1, "deals": 1,
                 "resamples": 10}
        for name, bound in least.items():
            value = getattr(self, name)
            if value is not None and value < bound:
                raise ValueError(f"{name} must be at least {bound}, not {value}")
        if not 0.0 <= self.floor < 1.0:
            raise ValueError(f"floor is a share of the mean sets in [0, 1), not {self.floor}")
        if self.confident is not None and not 0.0 < self.confident < 1.0:
            raise ValueError(f"confident must be between 0 and 1, not {self.confident}")

    def tables(self, active: int) -> int:
        """Tables in a round of ``active`` entrants."""
        if self.tables_per_round is not None:
            return self.tables_per_round
        return max(1, active // self.players)


@dataclass(frozen=True)
class Assessment:
    """Where a league stands before a round: the fit and the stopping rule's state."""

    fit: StrengthFit
    active: list[int]  # entrant indices in matchmaking, in field order
    order: list[int]  # active entrants best first
    p_top: float | None  # P(order of the top ``top``) when the rule is ``confident``
    deals: int  # deals played so far (all entrants')
    stop: str | None  # why the league stops now ("deals", "confident"), or None
    unsure: dict[int, float] = field(default_factory=dict)  # per active entrant, see above


def assess(
    data: StageCounts,
    active: Sequence[int],
    rules: LeagueRules,
    *,
    seed: int,
    round_index: int,
    anchors: Sequence[int] = (),
    deals: int | None = None,
) -> Assessment:
    """Fit the records so far and evaluate the stopping rule before round ``round_index``.

    ``data`` holds every deal played (retired entrants' too: their games inform the others'
    strengths); ``active`` the entrants in matchmaking; ``deals`` the deals played (default:
    counted from ``data``).
    """
    fit = fit_strengths(data, resamples=rules.resamples, anchors=anchors,
                        seed=derive(seed, "league", "bootstrap", round_index))
    pool = list(active)
    order = fit.order(pool)
    played = data.total_deals if deals is None else deals
    ranks = fit.ranks(pool)
    point = {entrant: r for r, entrant in enumerate(order)}
    cut = min(rules.top, len(pool)) if rules.confident is not None else len(pool)
    unsure: dict[int, float] = {}
    for column, entrant in enumerate(pool):
        drawn = ranks[:, column]
        own = point[entrant]
        relevant = (drawn < cut) | (own < cut)
        unsure[entrant] = float(np.mean((drawn != own) & relevant)) if len(drawn) else 1.0
    p_top = fit.p_top_ordered(rules.top, pool) if rules.confident is not None else None
    stop: str | None = None
    if rules.deals is not None and played >= rules.deals:
        stop = "deals"
    elif (
        rules.confident is not None
        and p_top is not None
        and len(pool) > rules.top
        and all(int(fit.sets[i]) >= rules.min_sets for i in pool)
        and p_top >= rules.confident
    ):
        stop = "confident"
    return Assessment(fit=fit, active=pool, order=order, p_top=p_top, deals=played, stop=stop,
                      unsure=unsure)


def choose_round(
    assessment: Assessment,
    rules: LeagueRules,
    *,
    seed: int,
    round_index: int,
    played: Mapping[Table, int],
    teams: Mapping[int, str] | None = None,
) -> list[Table]:
    """The tables of round ``round_index``: entrant indices, first seating order.

    ``played`` counts the tables played so far (keys: sorted entrant tuples). ``teams`` maps
    entrants to their team: team-mates never share a table (a table that cannot be filled
    so is left out of the round). An empty list when fewer active entrants than a table's
    seats remain.
    """
    pool = assessment.active
    if len(pool) < rules.players:
        return []
    tie = seeded_rng(seed, "league", "round", round_index)
    jitter = {entrant: tie.random() for entrant in pool}
    sets = {entrant: int(assessment.fit.sets[entrant]) for entrant in pool}
    count = rules.tables(len(pool))
    team = dict(teams or {})
    if rules.table_choice == "uniform":
        tables = _uniform(pool, sets, jitter, count, rules.players, team)
    else:
        tables = _informative(assessment, rules, sets, jitter, count, played, team)
    seatings = []
    for table in tables:
        seating = sorted(table)
        tie.shuffle(seating)
        seatings.append(tuple(seating))
    return seatings


def _apart(members: Sequence[int], team: Mapping[int, str]) -> bool:
    """Whether no two of ``members`` are team-mates."""
    named = [team[e] for e in members if e in team]
    return len(named) == len(set(named))


def _fill(first: Sequence[int], candidates: Sequence[int], players: int,
          team: Mapping[int, str]) -> list[int] | None:
    """``first`` and the earliest candidates that keep team-mates apart, up to a full table."""
    chosen = list(first)
    for entrant in candidates:
        if len(chosen) == players:
            break
        if entrant not in chosen and _apart([*chosen, entrant], team):
            chosen.append(entrant)
    return chosen if len(chosen) == players else None


def _uniform(pool: Sequence[int], sets: Mapping[int, int], jitter: Mapping[int, float],
             count: int, players: int, team: Mapping[int, str]) -> list[Table]:
    seats = dict(sets)
    tables: list[Table] = []
    for _ in range(count):
        chosen = _fill((), sorted(pool, key=lambda e: (seats[e], jitter[e], e)), players, team)
        if chosen is None:
            break
        for entrant in chosen:
            seats[entrant] += 1
        tables.append(tuple(sorted(chosen)))
    return tables


def _informative(assessment: Assessment, rules: LeagueRules, sets: Mapping[int, int],
                 jitter: Mapping[int, float], count: int,
                 played: Mapping[Table, int], team: Mapping[int, str]) -> list[Table]:
    pool = assessment.active
    mean_sets = sum(sets.values()) / len(pool)
    theta = assessment.fit.theta

    def urgency(entrant: int) -> tuple[int, float, int, float, int]:
        if sets[entrant] < rules.min_sets:
            tier = 0
        elif sets[entrant] < rules.floor * mean_sets:
            tier = 1
        else:
            tier = 2
        return (tier, -assessment.unsure[entrant], sets[entrant], jitter[entrant], entrant)

    anchors = sorted(pool, key=urgency)
    plays: dict[Table, int] = {}  # this round's tables: none twice while another candidate waits
    tables: list[Table] = []
    for k in range(count):
        anchor = anchors[k % len(anchors)]
        def closeness(e: int, anchor: int = anchor) -> tuple[float, float, int]:
            return (abs(float(theta[e] - theta[anchor])), jitter[e], e)

        others = [e for e in pool if e != anchor and _apart((anchor, e), team)]
        # only the closest few are scored: a round costs anchors x field, not a sort of it
        near = heapq.nsmallest(rules.players - 1 + SPARE, others, key=closeness)
        best: tuple[tuple[int, float, int], Table] | None = None
        for rest in combinations(near, rules.players - 1):
            if not _apart(rest, team):
                continue
            table = tuple(sorted((anchor, *rest)))
            distance = sum(abs(float(theta[e] - theta[anchor])) for e in rest)
            key = (plays.get(table, 0), distance, played.get(table, 0))
            if best is None or key < best[0]:
                best = (key, table)
        if best is None:  # team-mates among the closest: the closest table that keeps them apart
            filled = _fill((anchor,), sorted(others, key=closeness), rules.players, team)
            if filled is None:
                continue
            best = ((0, 0.0, 0), tuple(sorted(filled)))
        table = best[1]
        plays[table] = plays.get(table, 0) + 1
        tables.append(table)
    return tables


def league_rules(fmt: LeagueFormat, players: int) -> LeagueRules:
    """The core's rules of a config's ``format: {type: league}``."""
    stop = fmt.stop
    return LeagueRules(
        players=players, table_choice=fmt.table_choice, tables_per_round=fmt.tables_per_round,
        min_sets=fmt.min_sets, floor=fmt.floor,
        confident=stop.confident if stop is not None else None,
        top=stop.top or 3 if stop is not None else 3,
        deals=stop.deals if stop is not None else None, resamples=fmt.resamples,
    )
