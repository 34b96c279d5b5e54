"""The tournament formats' models: one pydantic model per ``format: {type: ...}``.

Each format's keys, their defaults and descriptions are declared once, here; the config
(:mod:`._models`) holds them as one discriminated union, :data:`Format`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_STRICT = ConfigDict(extra="forbid", strict=True)


class RoundRobinFormat(BaseModel):
    """Every k-subset of the bots meets once, or a balanced design when capped."""

    model_config = _STRICT

    type: Literal["round_robin"]
    max_tables: int | None = Field(
        default=None,
        gt=0,
        description="Cap on tables; above it, whole rotation classes are sampled so every "
        "bot plays equally often in every seat.",
    )


class SwissFormat(BaseModel):
    """Rounds of tables formed from the standings."""

    model_config = _STRICT

    type: Literal["swiss"]
    rounds: int = Field(gt=0, description="Number of rounds.")
    odd: Literal["short_tables", "byes"] = Field(
        default="short_tables",
        description="When the bots do not fill whole tables: tables one seat short, or byes.",
    )


class GauntletFormat(BaseModel):
    """One or more challengers, each against the rest of the field."""

    model_config = _STRICT

    type: Literal["gauntlet"]
    challengers: list[str] = Field(min_length=1, description="Labels of the challengers.")
    max_tables: int | None = Field(
        default=None, gt=0, description="Cap on tables per challenger (balanced design)."
    )


class SprtFormat(BaseModel):
    """An A/B test: a challenger plays duplicate sets until a sequential test decides."""

    model_config = _STRICT

    type: Literal["sprt"]
    challenger: str = Field(description="Label of the bot under test.")
    baseline: str | None = Field(
        default=None,
        description="Label of the bot it is measured against; copies of it fill the seats the "
        "other bots leave free. Without it the challenger is measured against all the other "
        "bots, which must fill the table exactly.",
    )
    elo0: float = Field(default=0.0, description="H0: the challenger is at most this strong (Elo).")
    elo1: float = Field(
        default=20.0, description="H1: the challenger is at least this strong (Elo)."
    )
    alpha: float = Field(
        default=0.05, gt=0, lt=0.5, description="Chance of accepting H1 when H0 holds."
    )
    beta: float = Field(
        default=0.05, gt=0, lt=0.5, description="Chance of accepting H0 when H1 holds."
    )
    max_sets: int = Field(
        default=1000, gt=0, description="Stop without a decision after this many duplicate sets."
    )


class LeagueStop(BaseModel):
    """When a league stops: ``{deals: N}`` (a budget) or ``{confident: p, top: K}``."""

    model_config = _STRICT

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


class LeagueFormat(BaseModel):
    """Rounds of duplicate sets chosen where the ratings are least sure; the field may change
    between rounds (docs/league.md)."""

    model_config = _STRICT

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


Format = Annotated[
    RoundRobinFormat | SwissFormat | GauntletFormat | SprtFormat | LeagueFormat,
    Field(discriminator="type"),
]


FORMAT_MODELS: dict[str, type[BaseModel]] = {
    "round_robin": RoundRobinFormat,
    "swiss": SwissFormat,
    "gauntlet": GauntletFormat,
    "sprt": SprtFormat,
    "league": LeagueFormat,
}
