"""Format league as a plan of the runner: a round per batch, chosen from the records so far.

The field is the config's ``bots`` as it stands when each round is chosen: at every round the
plan asks for the config file as it stands (when the run came from one) and applies its
``bots``, so an organiser adds, retires or updates an entrant by editing the file while the
league runs. What each round was chosen from, and what it chose, is the plan's journal,
``league.jsonl`` beside the records, one line per round that the run writes before the
round's matches are played: the league's config history. A resumed run hands those lines
back (:meth:`LeaguePlan.restore`), replays the rounds they hold (their recorded matches are
skipped as usual) and chooses the next ones from the records, so the records are the same after
``kill -9`` and resume, for any ``jobs`` and on Dask: a round is a function of the league's
seed, the config history and the records of the rounds before it, never of timing.

Entrants are keyed by their label. An entry whose bot changed (name, command, params, host,
protocol or its ``version:`` key) enters as a new entrant ``LABEL@2`` (then ``@3``...) beside
the old one, which is retired; an entry removed from the list retires too. Retired entrants
keep their results, which inform the others' ratings.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from arena.ratings import (
    LeagueEntrant,
    LeagueField,
    Results,
    StageCounts,
    league_counts,
    strength_board,
)
from arena.tournament._config import BotConfig, ConfigError, TournamentConfig
from arena.tournament._config._checks import MAX_CONFIG_BYTES
from arena.tournament._league import (
    MAX_FIELD,
    Assessment,
    LeagueFormat,
    assess,
    choose_round,
    league_rules,
)
from arena.tournament._league_status import LeagueStatus
from arena.tournament._plans import Batch
from arena.tournament._schedule import Schedule, Table

if TYPE_CHECKING:
    from arena.referee import MatchSpec, Seat
    from arena.tournament._formats._base import ConfigFile
    from arena.tournament._reporter import Reporter

LEAGUE_LOG = "league.jsonl"
"""The league's config history in the output folder: one line per round chosen."""

_IDENTITY_EXCLUDE = {"label", "retired", "anchor", "team"}


@dataclass
class Entrant:
    """One entrant of the field: a label (``LABEL`` or ``LABEL@k``) and its bot."""

    label: str
    base: str  # the config's label of the entry
    bot: dict[str, Any]  # the entry, as the config gave it (JSON data)
    active: bool = True
    anchor: bool = False

    @property
    def identity(self) -> str:
        """What makes a version: everything of the entry but its label, team and league
        keys."""
        return bot_identity(self.bot)

    def seat(self) -> Seat:
        """The entrant's seat in a match spec."""
        bot = BotConfig.model_validate({**self.bot, "label": self.label})
        return bot.seat()

    def to_dict(self) -> dict[str, Any]:
        """As kept in ``league.jsonl``."""
        return {"label": self.label, "base": self.base, "bot": self.bot, "active": self.active,
                "anchor": self.anchor}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Entrant:
        """From a line of ``league.jsonl``."""
        return cls(label=str(data["label"]), base=str(data["base"]), bot=dict(data["bot"]),
                   active=bool(data["active"]), anchor=bool(data["anchor"]))


def bot_identity(bot: Mapping[str, Any]) -> str:
    """The entry's version key: its bot, its params and its ``version:``."""
    kept = {k: v for k, v in bot.items() if k not in _IDENTITY_EXCLUDE}
    return json.dumps(kept, sort_keys=True)


def apply_field(entrants: Sequence[Entrant], config: TournamentConfig) -> tuple[list[Entrant],
                                                                                list[str]]:
    """The field after ``config``'s ``bots``, and one line per change (joined, retired,
    returned, new version)."""
    field = [Entrant(e.label, e.base, dict(e.bot), e.active, e.anchor) for e in entrants]
    changes: list[str] = []
    listed: set[str] = set()
    for bot in config.bots:
        base = bot.resolved_label
        listed.add(base)
        data = bot.model_dump(mode="json", exclude_defaults=True)
        data.pop("label", None)
        versions = [e for e in field if e.base == base]
        latest = versions[-1] if versions else None
        if latest is None or latest.identity != bot_identity(data):
            label = base if latest is None else f"{base}@{len(versions) + 1}"
            if latest is not None and latest.active:
                latest.active = False
                changes.append(f"{latest.label} retired: replaced by {label}")
            latest = Entrant(label, base, data, active=False)
            field.append(latest)
            if not bot.retired:
                changes.append(f"{label} joined")
        elif latest.active and bot.retired:
            changes.append(f"{latest.label} retired")
        elif not latest.active and not bot.retired:
            changes.append(f"{latest.label} returned")
        latest.bot = data  # the same version: its team may have changed
        latest.active = not bot.retired
        latest.anchor = bot.anchor
    for entrant in field:
        if entrant.base not in listed and entrant.active:
            entrant.active = False
            changes.append(f"{entrant.label} retired: no longer in the config")
    return field, changes


def league_data(results: Results, labels: Sequence[str]) -> StageCounts:
    """Every deal of ``results`` reduced for the fit, bots numbered as in ``labels``."""
    return league_counts(results, labels)


class LeaguePlan:
    """Format league: one batch per round, each chosen from the records of the rounds before.

    It does no I/O: the run hands it its journal back (:meth:`restore`) and writes the line
    each new round carries (:attr:`Batch.journal`); ``source`` reads the config file; what
    it has to tell waits for :meth:`report`."""

    journal = LEAGUE_LOG

    def __init__(self, schedule: Schedule, source: ConfigFile | None = None) -> None:
        self.schedule = schedule
        self.config = schedule.config
        self.source = source
        self.kept: list[dict[str, Any]] = []
        self.field, _ = apply_field([], self.config)
        self.labels = [e.label for e in self.field]
        self.results = Results()
        self.played: dict[tuple[str, ...], int] = {}  # tables played, by sorted labels
        self._file: tuple[str, TournamentConfig | ConfigError] | None = None  # digest, read
        self._by_round: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
        self._round = 0
        self._fields: dict[int, dict[str, Any]] = {}  # per round: the records' ``league``
        self._matches = 0
        self._fmt = self._format(self.config)
        self._rules = league_rules(self._fmt, self.config.players)
        self.status: LeagueStatus | None = None
        self._refused: str | None = None  # the last refusal told, not repeated every round
        self._notes: list[str] = []
        self._statuses: list[LeagueStatus] = []

    @staticmethod
    def _format(config: TournamentConfig) -> LeagueFormat:
        return cast("LeagueFormat", config.format)

    def restore(self, line: Mapping[str, Any]) -> None:
        """Take back the journal's next round (``ValueError`` for a line that is not)."""
        try:
            if not isinstance(line, dict) or line.get("round") != len(self.kept):
                raise ValueError("not the next round")
            for key in ("format", "field", "tables"):
                if key not in line:
                    raise ValueError(f"no {key!r}")
            field = [Entrant.from_dict(e) for e in line["field"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"not a round of this league ({exc})") from None
        self.kept.append(dict(line))
        self.field = field
        self.labels = [e.label for e in self.field]

    def add(self, record: Mapping[str, Any]) -> None:
        """Hold a record until its round is folded into the results."""
        round_ = record.get("round")
        if not isinstance(round_, int) or isinstance(round_, bool):
            raise ValueError(f"match {record.get('match_id')!r} has no round number")
        self._by_round[round_].append(record)

    @property
    def finished(self) -> bool:
        """A round is played whole: the stopping rule is checked between rounds."""
        return False

    def total(self) -> int:
        """The matches chosen so far (a league's length is not known in advance)."""
        return self._matches

    def annotate(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record of this league with its round's field (``league``, docs/records.md): what
        ``arena ratings`` needs to rank as the league does, from the records alone."""
        field = self._fields.get(record.get("round", -1))
        if field is None or record.get("type") != "match":
            return record
        return {**record, "league": field}

    def report(self, reporter: Reporter) -> None:
        """The changes of the field and the league's state, when a round was chosen."""
        for line in self._notes:
            reporter.note(line)
        for status in self._statuses:
            reporter.league(status)
        self._notes.clear()
        self._statuses.clear()

    def summary(self) -> dict[str, Any] | None:
        """Where the league stood after its last round."""
        return self.status.to_dict() if self.status is not None else None

    def next_batch(self) -> Batch | None:
        """The next round: the one kept in ``league.jsonl``, else one chosen now."""
        round_ = self._round
        if round_:
            for record in self._by_round.pop(round_ - 1, []):
                self.results.add(record)
        if round_ < len(self.kept):
            line = self.kept[round_]
            self.field = [Entrant.from_dict(e) for e in line["field"]]
            self._fmt = type(self._fmt).model_validate(line["format"])
            self._rules = league_rules(self._fmt, self.config.players)
            tables = [tuple(t) for t in line["tables"]]
            self._count(tables)
            self._round += 1
            return Batch(self._specs(round_, tables))
        self._reread()
        assessment = self._assess(round_)
        self.status = self._status(round_, assessment)
        self._statuses.append(self.status)
        if assessment.stop is not None:
            return None
        teams = {i: str(e.bot["team"]) for i, e in enumerate(self.field) if e.bot.get("team")}
        tables = choose_round(assessment, self._rules, seed=self.schedule.seed,
                              round_index=round_, played=self._played(), teams=teams)
        if not tables:
            return None
        line = self._keep(round_, tables)
        self._count(tables)
        self._round += 1
        return Batch(self._specs(round_, tables), journal=line)

    def _reread(self) -> None:
        """Apply the config file's ``bots`` and league settings as they stand now."""
        config = self.config
        if self.source is not None:
            path = self.source.path
            try:
                config = self._read()
            except ConfigError as exc:
                first = str(exc).splitlines()[0]
                self._refuse(f"config not applied, the field stays as it was: {first}")
                return
            if config.format.type != self.config.format.type:
                self._refuse(f"config not applied: {path} is no longer a league "
                             f"(format {config.format.type})")
                return
            if config.players != self.config.players or config.seed not in (None,
                                                                             self.config.seed):
                self._refuse(f"config not applied: {path} changed 'players' or "
                             "'seed', which a league keeps")
                return
        config, problem = (config, None) if self.source is None else \
            self.source.with_entries(config)
        if problem is not None:
            self._refuse(problem)
            return
        field, changes = apply_field(self.field, config)
        seated = set(label for key in self.played for label in key)
        field = [e for e in field if e.active or e.label in seated]  # see MAX_FIELD
        if len(field) > MAX_FIELD:
            self._refuse(f"config not applied: the field would hold {len(field)} entrants "
                         f"(retired ones that played count), over a league's {MAX_FIELD}")
            return
        self._refused = None
        self.field = field
        self._fmt = self._format(config)
        self._rules = league_rules(self._fmt, config.players)
        self._notes.extend(changes)
        self.labels = [e.label for e in self.field]

    def _read(self) -> TournamentConfig:
        """The config file as it stands, parsed again only when its bytes changed since the
        last round (a league rereads it every round; a digest, not the file's time, which
        may not change with a quick edit)."""
        assert self.source is not None
        try:
            with open(self.source.path, "rb") as file:
                key = hashlib.sha256(file.read(MAX_CONFIG_BYTES + 1)).hexdigest()
        except OSError:
            return self.source.read()  # its own one-line error
        if self._file is None or self._file[0] != key:
            try:
                self._file = (key, self.source.read())
            except ConfigError as exc:
                self._file = (key, exc)
        read = self._file[1]
        if isinstance(read, ConfigError):
            raise read
        return read

    def _refuse(self, line: str) -> None:
        """Say why the config was not applied, once: the rounds after it that find the file
        as it was say nothing more, so a run of short rounds is not flooded with it."""
        if line != self._refused:
            self._notes.append(line)
        self._refused = line

    def _assess(self, round_: int) -> Assessment:
        data = league_data(self.results, [e.label for e in self.field])
        active = [i for i, e in enumerate(self.field) if e.active]
        anchors = [i for i, e in enumerate(self.field) if e.anchor]
        return assess(data, active, self._rules, seed=self.schedule.seed, round_index=round_,
                      anchors=anchors)

    def _entrants(self) -> list[LeagueEntrant]:
        return [LeagueEntrant(e.label, e.active, e.anchor) for e in self.field]

    def _status(self, round_: int, assessment: Assessment) -> LeagueStatus:
        board = strength_board(assessment.fit, self._entrants(), confidence=0.95,
                               resamples=self._rules.resamples, top=self._rules.top)
        lines = {line.label: line for line in board.lines}
        ratings = []
        for e in self.field:  # field order
            line = lines[e.label]
            ratings.append({"label": e.label, "strength": round(line.strength, 6),
                            "low": round(line.low, 6), "high": round(line.high, 6),
                            "sets": line.sets, "deals": line.deals, "active": e.active,
                            "anchor": e.anchor})
        return LeagueStatus(
            round=round_, deals=assessment.deals, top=self._rules.top,
            confident=self._rules.confident, p_top=assessment.p_top, stop=assessment.stop,
            order=[self.field[i].label for i in assessment.order], ratings=ratings,
        )

    def _keep(self, round_: int, tables: Sequence[tuple[int, ...]]) -> dict[str, Any]:
        """The journal's line of a round chosen now."""
        line = {"round": round_, "format": self._fmt.model_dump(mode="json"),
                "field": [e.to_dict() for e in self.field],
                "tables": [list(t) for t in tables]}
        self.kept.append(line)
        return line

    def _count(self, tables: Sequence[tuple[int, ...]]) -> None:
        self.labels = [e.label for e in self.field]
        self._fields[self._round] = LeagueField(
            self._round, tuple(self._entrants()), self._rules.top, self._rules.confident).to_dict()
        for table in tables:
            key = tuple(sorted(self.labels[i] for i in table))
            self.played[key] = self.played.get(key, 0) + 1
            self._matches += len(table)

    def _played(self) -> dict[tuple[int, ...], int]:
        """The tables played so far as the planner counts them: by entrant index."""
        index = {label: i for i, label in enumerate(self.labels)}
        return {tuple(sorted(index[label] for label in key)): count
                for key, count in self.played.items() if all(label in index for label in key)}

    def _specs(self, round_: int, tables: Sequence[tuple[int, ...]]) -> Iterator[MatchSpec]:
        seats = [e.seat() for e in self.field]
        name = self.schedule.name
        for t, bots in enumerate(tables):
            yield from self.schedule.specs(Table(f"{name}-r{round_}-t{t}", bots, round_), seats)
