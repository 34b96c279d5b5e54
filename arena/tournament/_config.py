"""The tournament config: a pydantic model, a YAML loader and one-line errors.

Organisers write YAML by hand, so every mistake, from a stray tab to a bot
name that no plugin registers, is reported as ``FILE:LINE: key.path: what is
wrong`` and never as a traceback. The model is also the source of the JSON
Schema published in ``docs/config.schema.json`` for editors.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from arena.seeds import SEED_LIMIT
from arena.tournament._yamlpos import node_line

if TYPE_CHECKING:
    from arena.referee import HostKind, Limits, Seat

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
    host: Literal["inline", "process", "command"] | None = Field(
        default=None,
        description="Where the bot runs (default: inline for name, command for command).",
    )
    protocol: Literal["arena", "uecda"] | None = Field(
        default=None,
        description="What a 'command' speaks: the arena protocol (default) or UECda 20070, "
        "arena being its server ('{host}' and '{port}' in the command are filled in).",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> BotConfig:
        if (self.name is None) == (self.command is None):
            raise ValueError("give exactly one of 'name' (a registered bot) or 'command'")
        if self.command is not None:
            if not self.command.strip():
                raise ValueError("'command' is empty")
            if self.host not in (None, "command"):
                raise ValueError(f"a 'command' bot runs with host 'command', not {self.host!r}")
            if self.params:
                raise ValueError("'params' are for registered bots; pass options in 'command'")
        elif self.protocol == "uecda":
            raise ValueError("protocol 'uecda' needs a 'command' (a UECda client program)")
        elif self.host == "command":
            raise ValueError("host 'command' needs a 'command', not a bot 'name'")
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
    def resolved_host(self) -> HostKind:
        """The host the referee uses for this entrant."""
        if self.protocol == "uecda":
            return "uecda"
        if self.host is not None:
            return self.host
        return "command" if self.command is not None else "inline"

    def seat(self) -> Seat:
        """The entrant's seat in a match spec."""
        from arena.referee import Seat

        return Seat(label=self.resolved_label, name=self.name, command=self.command,
                    params=dict(self.params), host=self.resolved_host)


def _limit(description: str) -> Any:
    """A limit's field: its default and its check are the referee's (``arena.referee.Limits``)."""
    return Field(default=None, description=description)


class LimitsConfig(BaseModel):
    """What each seat is allowed; a key left out takes ``arena.referee.Limits``'s default."""

    model_config = _STRICT

    move_ms: int | None = _limit("Time for one decision (ms).")
    bank_ms: int | None = _limit("Extra time a seat may draw on over a match (ms); null: none.")
    start_ms: int | None = _limit("Time for a bot to start (ms).")
    memory_mb: int | None = _limit("Memory cap of process and command bots (MB); null: none.")
    grace_ms: int | None = _limit("Slack after a decision's time for pipes and scheduling; a "
                                  "later answer is a timeout (ms).")
    cpu_s: int | None = _limit("CPU time cap of a bot process over its life (s).")
    tmp_mb: int | None = _limit("Size of a sandboxed bot's private /tmp and /dev/shm, each "
                                "(MB); null: memory_mb's.")
    lag_ms: int | None = _limit("Most time past move time plus grace a decision may take when "
                                "the delay was the machine's, not the bot's (fair clocks, "
                                "docs/tournaments.md); 0 turns them off (ms).")
    on_fault: Literal["forfeit", "pass"] | None = Field(
        default=None, description="What a fault costs (default: the rules' on_fault)."
    )
    sandbox: bool | None = Field(
        default=None,
        description="Run process and command bots in their own namespaces (docs/security.md); "
        "default: wherever this machine can.",
    )

    @field_validator("move_ms", "bank_ms", "start_ms", "memory_mb", "grace_ms", "cpu_s", "lag_ms",
                     "tmp_mb")
    @classmethod
    def _check(cls, value: int | None, info: ValidationInfo) -> int | None:
        from arena.referee import Limits

        if value is not None:
            one: dict[str, Any] = {str(info.field_name): value}
            try:
                Limits(**one)
            except ValueError as exc:  # the key is named by the config's own error line
                raise ValueError(str(exc).removeprefix(f"limit {info.field_name!r} ")) from None
        return value

    def limits(self) -> Limits:
        """The match's :class:`arena.referee.Limits` (``on_fault`` goes into the rules)."""
        from arena.referee import Limits

        nullable = ("bank_ms", "memory_mb")  # null means none; for the others, the default
        given: dict[str, Any] = {
            name: getattr(self, name) for name in self.model_fields_set
            if name in Limits.names() and name != "sandbox"
            and (getattr(self, name) is not None or name in nullable)
        }
        return Limits(**given, sandbox=self.sandboxed())

    def sandboxed(self) -> bool:
        """Whether bot processes run sandboxed: as set, else wherever the machine can."""
        if self.sandbox is not None:
            return self.sandbox
        from arena.referee import sandbox_mechanism

        return sandbox_mechanism() is not None


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


def _short_bot(value: Any) -> Any:
    """``- greedy`` in ``bots`` is short for ``- name: greedy``."""
    return {"name": value} if isinstance(value, str) else value


def _bots_schema(schema: dict[str, Any]) -> None:
    """The short form in the JSON Schema: a list item is a bot name or a bot mapping."""
    items = schema.get("items")
    if items is not None:
        name = {"type": "string", "description": "A bot registered by a plugin (short form)."}
        schema["items"] = {"anyOf": [name, items]}


Format = Annotated[
    RoundRobinFormat | SwissFormat | GauntletFormat | SprtFormat, Field(discriminator="type")
]


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
        default_factory=lambda: RoundRobinFormat(type="round_robin"),
        description="round_robin, swiss, gauntlet or sprt, with their settings.",
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
    bots: list[Annotated[BotConfig, BeforeValidator(_short_bot)]] = Field(
        min_length=2,
        description="The entrants: bot names, or mappings with a name or a command.",
        json_schema_extra=_bots_schema,
    )
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    jobs: int | None = Field(
        default=None, gt=0, description="Worker processes (default: the number of cores)."
    )
    out: str | None = Field(
        default=None, description="Output folder (default: runs/<name>), relative to the cwd."
    )
    executor: ExecutorSettings | None = Field(
        default=None,
        description="Where matches run: {type: local} (default) or {type: dask, address: ...}.",
    )

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
        """What decides the matches and their results (everything but jobs, out, executor)."""
        return self.model_dump(mode="json", exclude={"jobs", "out", "executor"})


def config_schema() -> dict[str, Any]:
    """The JSON Schema of the config, as published in ``docs/config.schema.json``."""
    return TournamentConfig.model_json_schema()


@dataclass(frozen=True)
class ConfigIssue:
    """One thing wrong with a config: where (key path, line) and what."""

    path: str
    line: int | None
    message: str


class ConfigError(ValueError):
    """A config that cannot run; ``str()`` is one ``FILE:LINE: path: message`` per issue."""

    def __init__(self, source: str, issues: Sequence[ConfigIssue]) -> None:
        self.source = source
        self.issues = list(issues)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        lines = []
        for issue in self.issues:
            where = self.source if issue.line is None else f"{self.source}:{issue.line}"
            what = f"{issue.path}: {issue.message}" if issue.path else issue.message
            lines.append(f"{where}: {what}")
        return "\n".join(lines)


def load_config(path: str | os.PathLike[str], *, check_bots: bool = True) -> TournamentConfig:
    """Read and validate a YAML config file; raises :class:`ConfigError`."""
    source = os.fspath(path)
    try:
        text = Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(source, [ConfigIssue("", None, f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise ConfigError(source, [ConfigIssue("", None, "not a UTF-8 text file")]) from None
    return parse_config(text, source=source, check_bots=check_bots)


def parse_config(
    text: str, *, source: str = "<config>", check_bots: bool = True
) -> TournamentConfig:
    """Validate YAML text as a config; raises :class:`ConfigError` naming path and line."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(source, [_yaml_issue(exc, text)]) from None
    duplicates = [
        ConfigIssue(_dotted(p), line, "duplicate key") for p, line in _duplicate_keys(root, ())
    ]
    if not isinstance(data, Mapping):
        line = root.start_mark.line + 1 if root is not None else None
        raise ConfigError(
            source, [ConfigIssue("", line, "the config must be a mapping of keys (name: ...)")]
        )
    try:
        config = validate_config(data, source=source, root=root, check_bots=check_bots)
    except ConfigError as exc:
        if not duplicates:
            raise
        issues = sorted(duplicates + exc.issues, key=lambda i: (i.line is None, i.line or 0))
        raise ConfigError(source, issues) from None
    if duplicates:  # YAML kept the last value of a key given twice: still a mistake
        raise ConfigError(source, duplicates)
    return config


def _yaml_issue(exc: yaml.YAMLError, text: str) -> ConfigIssue:
    """A YAML parser error as one line with its line number."""
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML does not allow
        line = text.count("\n", 0, exc.position) + 1
        problem = f"{exc.reason} (character #x{exc.character:04x})" if isinstance(
            exc.character, int) else str(exc.reason)
    else:
        problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        problem = f"{problem} ({context} started on line {context_mark.line + 1})"
    if line is None:
        problem = problem.split("\n in ")[0]
    problem = " ".join(str(problem).split())
    return ConfigIssue("", line, f"YAML syntax error: {problem}")


def validate_config(
    data: Mapping[str, Any],
    *,
    source: str = "<config>",
    root: yaml.Node | None = None,
    check_bots: bool = True,
) -> TournamentConfig:
    """Validate a mapping as a config (``root`` gives line numbers when it came from YAML).

    Every problem found is reported at once, sorted by line: the rules and the bots are
    checked even when other keys break the schema.
    """
    found: list[ConfigIssue] = []
    config: TournamentConfig | None = None
    checked: TournamentConfig | None = None
    try:
        config = checked = TournamentConfig.model_validate(dict(data))
    except ValidationError as exc:
        found = [_pydantic_issue(error, root) for error in exc.errors()]
        checked = _without_broken_keys(data, exc)
    if checked is not None:
        problems = _semantic_issues(checked, check_bots=check_bots)
    else:
        problems = _raw_issues(data, check_bots=check_bots)
    found.extend(
        ConfigIssue(_dotted(path), node_line(root, path), message) for path, message in problems
    )
    if found:
        unique = list(dict.fromkeys(found))
        unique.sort(key=lambda issue: (issue.line is None, issue.line or 0))
        raise ConfigError(source, unique)
    return config  # type: ignore[return-value]  # found is empty only when config is set


def _without_broken_keys(
    data: Mapping[str, Any], exc: ValidationError
) -> TournamentConfig | None:
    """The config without the top-level keys the schema refused, if that leaves one (the
    refused keys have defaults); its other problems can then be checked as usual."""
    broken = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
    if not broken or broken & {"name", "players", "bots", "format"}:
        return None  # the checks that are left depend on these
    try:
        return TournamentConfig.model_validate({k: v for k, v in data.items() if k not in broken})
    except ValidationError:
        return None


def _raw_issues(
    data: Mapping[str, Any], *, check_bots: bool
) -> list[tuple[tuple[str | int, ...], str]]:
    """The rules and bot checks, on a mapping that failed the schema elsewhere."""
    issues: list[tuple[tuple[str | int, ...], str]] = []
    rules = data.get("rules", {})
    players = data.get("players")
    if isinstance(rules, Mapping):
        table = players if isinstance(players, int) and 2 <= players <= 8 else None
        issues.extend(_rules_issues(rules, table))
    bots = data.get("bots")
    if check_bots and isinstance(bots, list):
        entries: list[tuple[int, str | None, str | None, Mapping[str, Any]]] = []
        for i, raw in enumerate(bots):
            raw = _short_bot(raw)
            if not isinstance(raw, Mapping):
                continue
            name, command, params = raw.get("name"), raw.get("command"), raw.get("params", {})
            if isinstance(name, str) and command is None and isinstance(params, dict):
                entries.append((i, name, None, params))
            elif isinstance(command, str) and command.strip() and name is None:
                entries.append((i, None, command, {}))
        issues.extend(_bot_issues(entries))
    return issues


def _semantic_issues(
    config: TournamentConfig, *, check_bots: bool
) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems the schema cannot see: clashes between keys, unknown bots, bad rules."""
    issues: list[tuple[tuple[str | int, ...], str]] = []
    labels = config.labels
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        key = "label" if config.bots[i].label is not None else (
            "name" if config.bots[i].name is not None else "command"
        )
        if label in seen:
            issues.append(
                (
                    ("bots", i, key),
                    f"label {label!r} is already used by bots[{seen[label]}]; give each "
                    "entrant a unique 'label'",
                )
            )
        else:
            seen[label] = i
    n, k = len(config.bots), config.players
    for i, bot in enumerate(config.bots):
        if bot.protocol == "uecda" and k != 5:
            issues.append((("bots", i, "protocol"),
                           f"a UECda client plays at a table of 5, but 'players' is {k}"))
    fmt = config.format
    if isinstance(fmt, SprtFormat):
        issues.extend(_sprt_issues(config, fmt, seen))
    elif k > n:
        issues.append(
            (
                ("players",),
                f"{k} seats per table but only {n} bots, and a bot cannot sit at a table "
                "twice (list a bot again under another label to field a copy)",
            )
        )
    if isinstance(fmt, RoundRobinFormat) and fmt.max_tables is not None and fmt.max_tables < n:
        issues.append(
            (
                ("format", "max_tables"),
                f"must be at least the number of bots ({n}) so every bot plays equally often",
            )
        )
    if isinstance(fmt, GauntletFormat):
        for j, challenger in enumerate(fmt.challengers):
            if challenger not in seen:
                issues.append(
                    (
                        ("format", "challengers", j),
                        f"no bot is labelled {challenger!r} (labels: {', '.join(labels)})",
                    )
                )
        if len(set(fmt.challengers)) != len(fmt.challengers):
            issues.append((("format", "challengers"), "a challenger is listed twice"))
        field = n - len(set(fmt.challengers) & set(labels))
        if field < k - 1:
            issues.append(
                (
                    ("format", "challengers"),
                    f"leaves {field} bot{'s' if field != 1 else ''} in the field, fewer "
                    f"than the {k - 1} opponents a table of {k} needs",
                )
            )
    if check_bots and config.limits.sandbox:
        from arena.referee import sandbox_unavailable_reason

        why = sandbox_unavailable_reason()
        if why is not None:
            issues.append((("limits", "sandbox"), "this machine cannot sandbox bots ("
                           f"{why.removeprefix('no sandbox on this machine: ')}): install "
                           "bubblewrap (apt-get install bubblewrap), or set sandbox: false"))
    if isinstance(fmt, SwissFormat) and config.rules.get("points") is not None:
        from arena.tournament._swiss import table_sizes

        sizes, _ = table_sizes(n, k, fmt.odd)
        if any(size != k for size in sizes):
            issues.append(
                (
                    ("format", "odd"),
                    f"{n} bots do not fill tables of {k}, and short tables cannot use "
                    "'rules.points' (a list per place); use odd: byes",
                )
            )
    swiss_short = any(path == ("format", "odd") for path, _ in issues)
    issues.extend(
        _rules_issues(config.rules_mapping(), None if swiss_short else config.players)
    )
    if check_bots:
        issues.extend(
            _bot_issues([(i, b.name, b.command, b.params) for i, b in enumerate(config.bots)])
        )
    return issues


def _sprt_issues(
    config: TournamentConfig, fmt: SprtFormat, seen: Mapping[str, int]
) -> list[tuple[tuple[str | int, ...], str]]:
    """What an A/B test needs: known labels, a table its bots fill, sensible bounds."""
    issues: list[tuple[tuple[str | int, ...], str]] = []
    labels = config.labels
    n, k = len(labels), config.players
    known = True
    for key in ("challenger", "baseline"):
        label = getattr(fmt, key)
        if label is not None and label not in seen:
            known = False
            issues.append(
                (("format", key), f"no bot is labelled {label!r} (labels: {', '.join(labels)})")
            )
    if fmt.baseline is not None and fmt.baseline == fmt.challenger:
        known = False
        issues.append((("format", "baseline"), "the baseline must be another bot than the "
                       "challenger"))
    if not fmt.elo0 < fmt.elo1:
        issues.append((("format", "elo1"), f"must be above elo0 ({fmt.elo0:g}), got {fmt.elo1:g}"))
    if "duplicate" in config.model_fields_set and not config.duplicate:
        issues.append((("duplicate",), "format sprt always plays duplicate sets; leave "
                       "'duplicate' out"))
    if config.repeat != 1:
        issues.append((("repeat",), "format sprt plays duplicate sets until the test decides "
                       "(bounded by format.max_sets); 'repeat' does not apply"))
    if not known:
        return issues
    if fmt.baseline is not None:
        field = n - 2
        if field > k - 2:
            issues.append(
                (
                    ("bots",),
                    f"{field} bot{'s' if field != 1 else ''} besides the challenger and the "
                    f"baseline do not fit in the {k - 2} other seat{'s' if k != 3 else ''} of "
                    f"a table of {k}",
                )
            )
        copy = re.compile(re.escape(fmt.baseline) + r"#\d+")
        for i, label in enumerate(labels):
            if copy.fullmatch(label):
                issues.append(
                    (
                        ("bots", i, "label"),
                        f"label {label!r} is kept for the baseline's copies; choose another",
                    )
                )
    elif n - 1 != k - 1:
        others = "the other bot is" if n == 2 else f"the {n - 1} other bots are"
        seats = "seat" if k == 2 else "seats"
        issues.append(
            (
                ("format", "baseline"),
                f"without a baseline, {others} the challenger's field and must fill the "
                f"{k - 1} other {seats} of a table of {k} exactly; set players: {n} or name a "
                "baseline (its copies fill free seats)",
            )
        )
    return issues


def _rules_issues(
    rules: Mapping[str, Any], players: int | None
) -> list[tuple[tuple[str | int, ...], str]]:
    """What is wrong with the rules, alone and (given ``players``) at tables of that size."""
    from arena.game import Rules

    try:
        parsed = Rules.from_dict(rules)
        if players is not None:
            parsed.check_table(players)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        # Point at the option the message names: quoted first ('jokerz'), then bare.
        for pattern in ("'{}'", r"\b{}\b"):
            for key in rules:
                if re.search(pattern.format(re.escape(str(key))), message):
                    return [(("rules", key), message)]
        return [(("rules",), message)]
    return []


def _bot_issues(
    bots: Sequence[tuple[int, str | None, str | None, Mapping[str, Any]]],
) -> list[tuple[tuple[str | int, ...], str]]:
    """Unknown bot names, params a bot refuses, programs not found: ``(index, name, command,
    params)`` per entrant."""
    issues: list[tuple[tuple[str | int, ...], str]] = []
    for i, name, command, params in bots:
        problem = bot_problem(name, command, params)
        if problem is not None:
            issues.append((("bots", i, problem[0]), problem[1]))
    return issues


def bot_problem(
    name: str | None, command: str | None, params: Mapping[str, Any]
) -> tuple[str, str] | None:
    """Why this machine cannot start a bot, as (key, message), or None when it can.

    A registered bot (``name``) must be installed and accept its params; a command's
    program must be on PATH or a file (relative to the working directory).
    """
    from arena.plugins import BotParamsError, registry

    if name is not None:
        reg = registry()
        try:
            reg.get(name)
        except LookupError as exc:
            return "name", str(exc)
        try:
            reg.create(name, **params)
        except BotParamsError as exc:
            return "params", str(exc)
        except Exception as exc:
            return "name", f"bot {name!r} fails to start: {exc}"
    elif command is not None:
        try:
            words = shlex.split(command)
        except ValueError as exc:
            return "command", f"cannot parse the command: {exc}"
        program = words[0]
        if shutil.which(program) is None and not Path(program).is_file():
            return "command", f"program {program!r} not found (not on PATH)"
    return None


def _duplicate_keys(
    node: yaml.Node | None, path: tuple[str | int, ...]
) -> list[tuple[tuple[str | int, ...], int]]:
    found: list[tuple[tuple[str | int, ...], int]] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                found.append(((*path, key), key_node.start_mark.line + 1))
            seen.add(key)
            found.extend(_duplicate_keys(value_node, (*path, key)))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            found.extend(_duplicate_keys(item, (*path, i)))
    return found


def _dotted(path: Sequence[str | int]) -> str:
    text = ""
    for element in path:
        if isinstance(element, int):
            text += f"[{element}]"
        else:
            text += f".{element}" if text else str(element)
    return text


_FORMAT_MODELS: dict[str, type[BaseModel]] = {
    "round_robin": RoundRobinFormat,
    "swiss": SwissFormat,
    "gauntlet": GauntletFormat,
    "sprt": SprtFormat,
}
_EXECUTOR_MODELS: dict[str, type[BaseModel]] = {
    "local": LocalExecutorConfig,
    "dask": DaskExecutorConfig,
}


def _tagged(loc: Sequence[str | int]) -> tuple[str, dict[str, type[BaseModel]]]:
    """What a ``type`` key at ``loc`` chooses, and its choices."""
    if loc and loc[0] == "executor":
        return "executor", _EXECUTOR_MODELS
    return "format", _FORMAT_MODELS


def _model_at(loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The model whose fields the mapping at ``loc`` may hold."""
    if not loc:
        return TournamentConfig
    if loc[0] == "bots" and len(loc) == 2:
        return BotConfig
    if loc[0] == "limits" and len(loc) == 1:
        return LimitsConfig
    if loc[0] == "format" and len(loc) == 2:
        return _FORMAT_MODELS.get(str(loc[1]))
    if loc[0] == "executor" and len(loc) == 2:
        return _EXECUTOR_MODELS.get(str(loc[1]))
    return None


def _pydantic_issue(error: Any, root: yaml.Node | None) -> ConfigIssue:
    loc: tuple[str | int, ...] = tuple(error["loc"])
    kind = error["type"]
    # Pydantic puts a tagged union's tag into the path (format.swiss.rounds); users never wrote it.
    shown = tuple(
        e for i, e in enumerate(loc)
        if not (i == 1 and loc[0] in ("format", "executor") and e in _tagged(loc)[1])
    )
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if kind == "missing":
        message = "missing required key"
    elif kind == "extra_forbidden":
        model = _model_at(loc[:-1])
        allowed = f" (allowed: {', '.join(model.model_fields)})" if model else ""
        message = f"unknown key {str(loc[-1])!r}{allowed}"
    elif kind == "union_tag_invalid":
        shown = (*shown, "type")
        tag = error.get("ctx", {}).get("tag")
        what, tags = _tagged(loc)
        message = f"unknown {what} {tag!r} (expected one of: {', '.join(tags)})"
    elif kind == "union_tag_not_found":
        shown = (*shown, "type")
        message = f"missing required key (one of: {', '.join(_tagged(loc)[1])})"
    elif kind in ("model_type", "dict_type"):
        message = f"expected a mapping, got {_describe(error.get('input'))}"
    elif kind == "too_short":
        ctx = error.get("ctx", {})
        message = (
            f"needs at least {ctx.get('min_length')} entries, got {ctx.get('actual_length')}"
        )
    elif kind == "string_pattern_mismatch" and loc == ("name",):
        message = (
            "use letters, digits, '_', '.' and '-' only, starting with a letter or digit "
            f"(got {_describe(error.get('input'))})"
        )
    elif kind == "list_type":
        message = f"expected a list, got {_describe(error.get('input'))}"
    else:
        message = message[:1].lower() + message[1:]
        if "input" in error and kind not in ("value_error", "assertion_error"):
            message += f" (got {_describe(error['input'])})"
    return ConfigIssue(_dotted(shown), node_line(root, loc), message)


def _describe(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
