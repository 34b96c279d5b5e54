"""The tournament config's models: what a config holds, as pydantic models.

The JSON Schema published in ``docs/config.schema.json`` for editors is made from them
(:func:`config_schema`). The limits are the referee's (:class:`arena.referee.Limits`):
``LimitsConfig`` takes its keys, types, descriptions and check from that one declaration.
"""

from __future__ import annotations

import shlex
import typing
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)

from arena.referee import HOST_KINDS, Limits
from arena.seeds import SEED_LIMIT
from arena.tournament._config._formats import FORMAT_MODELS, FormatSettings
from arena.tournament._config._paths import command_from, from_folder

if TYPE_CHECKING:
    from arena.referee import Seat

    Format = FormatSettings  # at run time: the tagged union of the formats installed
    ConfigHost = str
else:
    # The kinds a config may name (HOST_KINDS' own), as the Literal its schema lists.
    ConfigHost = Literal[tuple(name for name, kind in HOST_KINDS.items() if kind.config)]

_STRICT = ConfigDict(extra="forbid", strict=True)


class BotConfig(BaseModel):
    """One entrant: a registered bot (``name``) or an external program (``command``)."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"oneOf": [{"required": ["name"]}, {"required": ["command"]}]},
    )

    name: str | None = Field(default=None, description="A bot registered by a plugin.")
    command: str | None = Field(
        default=None,
        description="A program that speaks the arena protocol, e.g. 'node examples/bot.js'.",
    )
    label: str | None = Field(
        default=None,
        description="Unique name of the entrant in records and standings (default: the name).",
    )
    params: dict[str, Any] = Field(
        default_factory=dict, description="Keyword arguments for the bot's factory."
    )
    host: ConfigHost | None = Field(
        default=None,
        description="Where the bot runs (default: command for a command; for a name, inline for "
        "a built-in bot, process for a third-party plugin's, whose code runs inline only when "
        "this says so: a trust decision, docs/security.md).",
    )
    protocol: Literal["arena", "uecda"] | None = Field(
        default=None,
        description="What a 'command' speaks: the arena protocol (default) or UECda 20070, "
        "arena being its server ('{host}' and '{port}' in the command are filled in).",
    )
    team: str | None = Field(
        default=None, min_length=1,
        description="Entrants of one team are never seated at one table (round robin, "
        "gauntlet, Swiss, league; format sprt, which seats every bot at every set, refuses "
        "team-mates).",
    )
    version: str | int | None = Field(
        default=None,
        description="Format league: the entrant's version; a changed version (or command, "
        "name or params) enters as a new entrant LABEL@2 beside the old one, which retires.",
    )
    retired: bool = Field(
        default=False,
        description="Format league: the entrant leaves the matchmaking and keeps its results.",
    )
    anchor: bool = Field(
        default=False,
        description="Format league: the ratings are centred on the anchors (e.g. greedy), so "
        "leagues and seasons that carry them can be compared.",
    )
    _folder: Path | None = PrivateAttr(default=None)
    """The config file's folder, which the command's relative paths are read from."""

    @model_validator(mode="after")
    def _one_kind(self) -> BotConfig:
        if (self.name is None) == (self.command is None):
            raise ValueError("give exactly one of 'name' (a registered bot) or 'command'")
        if self.command is not None:
            if not self.command.strip():
                raise ValueError("'command' is empty")
            if self.host is not None and HOST_KINDS[self.host].gives != "command":
                raise ValueError(f"a 'command' bot runs with host 'command', not {self.host!r}")
            if self.params:
                raise ValueError("'params' are for registered bots; pass options in 'command'")
        elif self.protocol == "uecda":
            raise ValueError("protocol 'uecda' needs a 'command' (a UECda client program)")
        elif self.host is not None and HOST_KINDS[self.host].gives == "command":
            raise ValueError(f"host {self.host!r} needs a 'command', not a bot 'name'")
        return self

    @property
    def resolved_label(self) -> str:
        """The entrant's label: given, else the bot name, else the program's stem."""
        if self.label is not None:
            return self.label
        if self.name is not None:
            return self.name
        words = shlex.split(self.command or "")
        candidates = [w for w in words if not w.startswith("-")] or words
        return Path(candidates[-1]).stem or "command"

    @property
    def run_command(self) -> str | None:
        """The command as it runs: its relative paths taken from the config's folder."""
        return None if self.command is None else command_from(self.command, self._folder)

    @property
    def resolved_host(self) -> str:
        """The host the referee uses for this entrant."""
        if self.protocol == "uecda":
            return "uecda"
        if self.host is not None:
            return self.host
        if self.command is not None:
            return "command"
        from arena.referee.lowlevel import default_host

        return default_host(self.name or "")

    def seat(self) -> Seat:
        """The entrant's seat in a match spec."""
        from arena.referee import Seat

        return Seat(label=self.resolved_label, name=self.name, command=self.run_command,
                    params=dict(self.params), host=self.resolved_host)


class _LimitsKeys(BaseModel):
    """What each seat is allowed; a key left out takes ``arena.referee.Limits``'s default."""

    model_config = _STRICT

    on_fault: Literal["forfeit", "pass"] | None = Field(
        default=None, description="What a fault costs (default: the rules' on_fault)."
    )
    sandbox: bool | None = Field(
        default=None,
        description="Run process and command bots in their own namespaces (docs/security.md); "
        "default: wherever this machine can.",
    )

    @field_validator("*")
    @classmethod
    def _check(cls, value: Any, info: ValidationInfo) -> Any:
        name = str(info.field_name)
        if value is not None and name in _LIMITS:
            problem = Limits.problem(name, value)
            if problem is not None:  # the key is named by the config's own error line
                raise ValueError(problem)
        return value

    def limits(self) -> Limits:
        """The match's :class:`arena.referee.Limits` (``on_fault`` goes into the rules)."""
        given: dict[str, Any] = {
            name: getattr(self, name) for name in self.model_fields_set
            if name in _LIMITS and (getattr(self, name) is not None or name in Limits.NULLABLE)
        }
        return Limits(**given, sandbox=self.sandboxed())

    def sandboxed(self) -> bool:
        """Whether bot processes run sandboxed: as set, else wherever the machine can."""
        if self.sandbox is not None:
            return self.sandbox
        from arena.referee import sandbox_mechanism

        return sandbox_mechanism() is not None


def _limit_keys() -> dict[str, Any]:
    """One optional key per limit of :class:`arena.referee.Limits` but ``sandbox`` (which the
    config leaves to the machine by default): its type, and its description."""
    hints = typing.get_type_hints(Limits)
    return {
        f.name: (hints[f.name] | None, Field(default=None, description=f.metadata["doc"]))
        for f in fields(Limits) if f.name != "sandbox"
    }


_LIMITS = frozenset(Limits.names()) - {"sandbox"}

if TYPE_CHECKING:
    LimitsConfig = _LimitsKeys
else:
    LimitsConfig = create_model(
        "LimitsConfig", __base__=_LimitsKeys, __module__=__name__, **_limit_keys()
    )
    LimitsConfig.__doc__ = _LimitsKeys.__doc__


def _bots_schema(schema: dict[str, Any]) -> None:
    """The short form in the JSON Schema: a list item is a bot name or a bot mapping."""
    items = schema.get("items")
    if items is not None:
        name = {"type": "string", "description": "A bot registered by a plugin (short form)."}
        schema["items"] = {"anyOf": [name, items]}


class LocalExecutorConfig(BaseModel):
    """Matches run in worker processes on this machine (the default)."""

    model_config = _STRICT

    type: Literal["local"]


class DaskExecutorConfig(BaseModel):
    """Matches run on a Dask cluster; records come back to the machine running the tournament."""

    model_config = _STRICT

    type: Literal["dask"]
    address: str = Field(
        min_length=1,
        description="The scheduler, e.g. 'tcp://host:8786', or 'local[:N]' for a cluster of "
        "N worker processes on this machine.",
    )
    batch: int | None = Field(
        default=None,
        gt=0,
        le=1000,
        description="Matches per Dask task (default: grown until a task plays about 0.2 s).",
    )
    retries: int = Field(
        default=2, ge=0, le=100, description="Retries of a task that raises on a worker."
    )

    @field_validator("address")
    @classmethod
    def _address(cls, address: str) -> str:
        from arena.tournament._dask import parse_address

        parse_address(address)
        return address


ExecutorSettings = Annotated[
    LocalExecutorConfig | DaskExecutorConfig, Field(discriminator="type")
]


SubmissionKind = Literal["python-file", "python-package", "program"]
SUBMISSION_KINDS: tuple[SubmissionKind, ...] = ("python-file", "python-package", "program")
"""What a competition can take (docs/competition.md)."""


class SubmissionsConfig(BaseModel):
    """A league open to entrants' own submissions (docs/competition.md), and their limits."""

    model_config = _STRICT

    open: bool = Field(description="Whether entrants may register and submit.")
    kinds: list[SubmissionKind] = Field(
        default_factory=lambda: list(SUBMISSION_KINDS), min_length=1,
        description="What is accepted: 'python-file' (one Python file defining an arena.Bot), "
        "'python-package' (a folder or archive of a package with an arena.bots entry point), "
        "'program' (a folder or archive of a program in any language with an arena.toml).")
    max_bytes: int = Field(default=262_144, gt=0, le=64 * 1024 * 1024,
                           description="The largest submission, in bytes.")
    per_day: int = Field(default=5, gt=0, le=1000,
                         description="Submissions per entrant in any 24 hours.")
    build_s: int = Field(default=300, gt=0, le=3600,
                         description="A build's time limit, in seconds (wall clock and CPU).")
    build_mb: int = Field(default=1024, ge=64, le=65_536,
                          description="A build's memory limit, in MiB (and its /tmp's).")
    tables: bool = Field(default=False,
                         description="Whether people may open tables (/tables) against the "
                                     "built-in bots and the entrants' bots.")


class TournamentConfig(BaseModel):
    """A tournament: who plays, under which rules, in which format, with which limits."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        title="arena tournament config",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    name: str = Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$",
        description="Tournament name, used in match ids and the default output folder.",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=SEED_LIMIT,
        description="Seed of every match seed. A published seed reveals every hand: leave it "
        "out and a secret one is drawn, kept in the output folder and shown at the end.",
    )
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": "standard"},
        description="A rules preset and option overrides (Rules.from_dict mapping).",
    )
    players: int = Field(ge=2, le=8, description="Seats per table.")
    format: Format = Field(
        default_factory=lambda: FORMAT_MODELS["round_robin"](type="round_robin"),
        description="The format, by its 'type', with its settings (docs/tournaments.md).",
    )
    duplicate: bool = Field(
        default=False,
        description="Replay each table's deals with the bots rotated through all seats.",
    )
    repeat: int = Field(
        default=1,
        gt=0,
        description="Plays of each table, each with its own seed (and its own duplicate set).",
    )
    bots: list[Annotated[BotConfig, BeforeValidator(short_bot)]] = Field(
        min_length=2,
        description="The entrants: bot names, or mappings with a name or a command.",
        json_schema_extra=_bots_schema,
    )
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    jobs: int | None = Field(
        default=None, gt=0, description="Worker processes (default: the number of cores)."
    )
    out: str | None = Field(
        default=None, description="Output folder (default: runs/<name> in the working "
        "directory), relative to the config file's folder."
    )
    executor: ExecutorSettings | None = Field(
        default=None,
        description="Where matches run: {type: local} (default) or {type: dask, address: ...}.",
    )
    submissions: SubmissionsConfig | None = Field(
        default=None,
        description="A league's entrants submit bots themselves (docs/competition.md).",
    )

    @model_validator(mode="after")
    def _from_folder(self, info: ValidationInfo) -> TournamentConfig:
        """Relative paths are the config file's folder's (``folder`` in the validation
        context, given by :func:`._checks.read_config`)."""
        folder = (info.context or {}).get("folder")
        if folder is not None:
            for bot in self.bots:
                bot._folder = folder
            if self.out is not None:
                self.out = from_folder(self.out, folder)
        return self

    @property
    def labels(self) -> list[str]:
        """Entrant labels in config order (a bot's index is its position here)."""
        return [bot.resolved_label for bot in self.bots]

    def rules_mapping(self) -> dict[str, Any]:
        """The rules as given, with ``limits.on_fault`` folded in when set."""
        rules = dict(self.rules)
        if self.limits.on_fault is not None:
            rules["on_fault"] = self.limits.on_fault
        return rules

    def identity(self) -> dict[str, Any]:
        """What decides the matches and their results (everything but jobs, out, executor
        and the submissions' settings)."""
        return self.model_dump(mode="json", exclude={"jobs", "out", "executor", "submissions"})


def config_schema() -> dict[str, Any]:
    """The JSON Schema of the config, as published in ``docs/config.schema.json``."""
    return TournamentConfig.model_json_schema()


EXECUTOR_MODELS: dict[str, type[BaseModel]] = {
    "local": LocalExecutorConfig,
    "dask": DaskExecutorConfig,
}


def short_bot(value: Any) -> Any:
    """``- greedy`` in ``bots`` is short for ``- name: greedy``."""
    return {"name": value} if isinstance(value, str) else value
