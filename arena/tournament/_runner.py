"""Running a tournament: schedule, execute, record, resume.

The runner owns the output folder: ``config.yaml`` (a copy of the config)
and ``records.jsonl`` (one line per finished match, in schedule order,
written as soon as the match and all matches before it are done). Running
the same config again resumes: records already present are read back (a
line cut off by a kill is dropped), their matches skipped, and Swiss rounds
are formed again from the records of earlier rounds, so the file ends equal
to that of a run never interrupted (timings aside).
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from arena.records import RECORDS, RecordWriter
from arena.referee import MatchSpec
from arena.seeds import SEED_LIMIT, secret_seed
from arena.tournament._config import (
    ConfigError,
    TournamentConfig,
    load_config,
    parse_config,
    validate_config,
)
from arena.tournament._dask import ClusterError, DaskExecutor
from arena.tournament._executor import (
    Executor,
    LocalExecutor,
    MatchFailed,
    MatchFn,
    default_jobs,
    referee_match,
)
from arena.tournament._recordlog import RecordFileError, resume_records
from arena.tournament._schedule import Schedule, SwissHistory, Table
from arena.tournament._sprt import SprtFeed
from arena.tournament._standings import Standings

if TYPE_CHECKING:
    from arena.ratings import SprtStatus

CONFIG_COPY = "config.yaml"
SECRET_SEED = "secret-seed"
"""Where a run keeps the seed it drew for a config without one (to resume, and to publish)."""


class TournamentError(RuntimeError):
    """The tournament cannot go on (records of another tournament, a failed match...)."""


class Reporter:
    """Hears about progress; the CLI's live display subclasses it. Does nothing by default."""

    def start(self, total: int, done: int, standings: Standings, jobs: int) -> None:
        """The run begins: ``done`` of ``total`` matches were recorded before."""

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        """One more match is recorded."""

    def sprt(self, status: SprtStatus) -> None:
        """An sprt tournament's test took one more set (also called once at the start)."""

    def stop(self) -> None:
        """The run ends (finished, interrupted or failed)."""


@dataclass
class TournamentResult:
    """What a run produced, as plain data (see :meth:`to_dict`)."""

    name: str
    out: str
    records: str
    total: int
    """Matches in the tournament."""
    played: int
    """Matches played by this run."""
    resumed: int
    """Matches found already recorded and skipped."""
    elapsed_s: float
    standings: list[dict[str, Any]] = field(default_factory=list)
    sprt: dict[str, Any] | None = None
    """Format sprt: the test's final status (``SprtStatus.to_dict()``: decision, llr and
    its bounds, sets, elo with elo_low and elo_high)."""
    faults: list[str] = field(default_factory=list)
    """One line per bot that faulted: its most frequent fault, in how many of its matches,
    and the first detail (``FaultLog.lines()``)."""
    silent: list[str] = field(default_factory=list)
    """Labels of bots that played matches without ever making a move of their own."""
    seed: int | None = None
    """The tournament seed the matches were dealt from."""
    secret_seed: bool = False
    """Whether the seed was drawn in secret (the config gave none); it is kept in the output
    folder's ``secret-seed`` file: publish it after the competition so anyone can check."""
    errors: list[dict[str, Any]] = field(default_factory=list)
    """Matches the referee itself failed to play: ``match_id`` and ``error`` of each error
    record (the record holds the traceback). A run with errors is not a clean run."""

    @property
    def complete(self) -> bool:
        """Whether every match of the tournament is recorded."""
        return self.played + self.resumed == self.total

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready result (``arena run --json``)."""
        data = asdict(self)
        data["complete"] = self.complete
        return data


def coerce_config(config: TournamentConfig | Mapping[str, Any] | str | os.PathLike[str]) -> tuple[
    TournamentConfig, str | None
]:
    """A validated config and its YAML text (when it came from a file)."""
    if isinstance(config, TournamentConfig):
        return config, None
    if isinstance(config, Mapping):
        return validate_config(config), None
    text_path = Path(config)
    model = load_config(text_path)
    return model, text_path.read_text(encoding="utf-8")


def output_dir(config: TournamentConfig, out: str | os.PathLike[str] | None = None) -> Path:
    """Where a run writes: ``out``, else the config's ``out``, else ``runs/<name>``."""
    return Path(out if out is not None else config.out or Path("runs") / config.name)


def run_tournament(
    config: TournamentConfig | Mapping[str, Any] | str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    executor: Executor | None = None,
    match_fn: MatchFn | None = None,
    reporter: Reporter | None = None,
    dask: str | None = None,
    sandbox: bool | None = None,
) -> TournamentResult:
    """Run (or resume) a tournament and return its standings as plain data.

    ``config`` is a path to a YAML file, a mapping or a :class:`TournamentConfig`.
    ``jobs`` overrides the config's (default: the number of cores);
    ``executor`` replaces the local pool (e.g. a cluster; the caller closes it); ``match_fn``
    replaces the referee (importable by name when jobs > 1); ``dask`` (a scheduler address
    or ``local[:N]``) runs the matches on a Dask cluster, like the config's
    ``executor: {type: dask}``. Raises
    :class:`ConfigError` for a bad config and :class:`TournamentError` when the
    run cannot go on; records written so far are always kept. ``sandbox``
    overrides the config's ``limits.sandbox`` (a run may be resumed either way). Ctrl-C
    propagates as ``KeyboardInterrupt`` once the records are safe.
    """
    cfg, text = coerce_config(config)
    folder = output_dir(cfg, out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _keep_config_copy(folder, cfg, text)
    except OSError as exc:
        raise TournamentError(f"cannot use {folder} as the output folder: {exc.strerror}") from None
    if sandbox is not None:
        cfg = cfg.model_copy(update={"limits": cfg.limits.model_copy(update={"sandbox": sandbox})})
    secret = cfg.seed is None
    cfg = cfg.model_copy(update={"seed": _secret_seed(folder)}) if secret else cfg
    # What no sandboxed bot may see: the records, the seed and the config.
    private = [str(folder.resolve())]
    if isinstance(config, str | os.PathLike):
        private.append(str(Path(config).resolve()))
    schedule = Schedule(cfg)
    workers = jobs or cfg.jobs or default_jobs()
    owned = executor is None
    if executor is None:
        executor = _executor_for(cfg, workers, match_fn or referee_match, dask)
    reporter = reporter or Reporter()
    records_path = folder / RECORDS
    if schedule.is_sprt:
        try:
            result = _run_sprt(cfg, schedule, records_path, executor, reporter, workers, private)
            result.secret_seed = secret
            return result
        finally:
            if owned:
                executor.close()

    standings = Standings(cfg.labels)
    # ids recorded before this run, with their fingerprint (new ones need no lookup)
    done: dict[str, int] = {}
    errors: list[dict[str, Any]] = []
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    try:
        for record in resume_records(records_path):
            _check_record(record, cfg, records_path)
            _note_error(record, errors)
            done[record["match_id"]] = _fingerprint(record)
            standings.add(record)
            if schedule.is_swiss:
                by_round[int(record["round"])].append(record)
    except RecordFileError as exc:
        raise TournamentError(str(exc)) from None

    started = time.perf_counter()
    played = 0
    skipped = [0]
    try:
        # before the reporter's threads: local workers can then be forked
        workers = _start(executor, workers, records_path, len(done))
        reporter.start(schedule.total, len(done), standings, workers)
        with RecordWriter(records_path, fsync=False) as writer:
            history = SwissHistory(cfg.labels, cfg.players) if schedule.is_swiss else None
            for round_ in range(schedule.rounds):
                round_records: list[dict[str, Any]] = list(by_round.pop(round_, []))
                tables: Iterable[Table]
                if history is not None:
                    tables, byes = schedule.swiss_tables(round_, history)
                    for bye in byes:
                        history.byes[bye] += 1
                        standings.add_bye(cfg.labels[bye])
                else:
                    tables = schedule.tables(round_)
                specs = _private(_todo(schedule, tables, done, skipped, records_path), private)
                try:
                    # closing(): an exception here (Ctrl-C) stops the executor at once,
                    # not when the generator happens to be collected.
                    with closing(executor.run(specs)) as results:
                        for record in results:
                            writer.write(record)
                            _note_error(record, errors)
                            played += 1
                            standings.add(record)
                            if history is not None:
                                round_records.append(record)
                            reporter.match(record, standings)
                except (MatchFailed, ClusterError) as exc:
                    raise TournamentError(
                        f"{exc}; the {len(done) + played} records so far are kept in "
                        f"{records_path}, run again to resume"
                    ) from None
                if history is not None:
                    order = _spec_order(schedule, tables)
                    round_records.sort(key=lambda r: order.get(r["match_id"], len(order)))
                    for record in round_records:
                        history.add(record)
    finally:
        reporter.stop()
        if owned:
            executor.close()
    if skipped[0] != len(done):
        extra = len(done) - skipped[0]
        raise TournamentError(
            f"{records_path} holds {extra} record{'s' if extra != 1 else ''} of matches this "
            "schedule does not have (written by another version of arena?); choose another --out"
        )
    return TournamentResult(
        name=cfg.name,
        out=str(folder),
        records=str(records_path),
        total=schedule.total,
        played=played,
        resumed=len(done),
        elapsed_s=round(time.perf_counter() - started, 3),
        standings=standings.to_list(),
        faults=standings.faults.lines(),
        silent=standings.faults.silent(),
        errors=errors,
        seed=schedule.seed,
        secret_seed=secret,
    )


def _secret_seed(folder: Path) -> int:
    """The seed kept in ``folder``, or a new secret one, kept there before any match is played."""
    path = folder / SECRET_SEED
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        if (folder / RECORDS).exists() and (folder / RECORDS).stat().st_size:
            raise TournamentError(
                f"{folder} holds records of a run with a secret seed, but no {SECRET_SEED} file "
                "to resume it with; choose another --out"
            ) from None
        seed = secret_seed()
        try:
            path.write_text(f"{seed}\n", encoding="utf-8")
        except OSError as exc:
            raise TournamentError(
                f"cannot keep the secret seed in {path}: {exc.strerror}"
            ) from None
        return seed
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {exc.strerror}") from None
    if not text.isdigit() or int(text) >= SEED_LIMIT:
        raise TournamentError(f"{path}: not a seed ({text[:40]!r}); choose another --out")
    return int(text)


def _private(specs: Iterable[MatchSpec], paths: list[str]) -> Iterator[MatchSpec]:
    """The specs with the paths sandboxed bots must not see (``private``)."""
    private = tuple(paths)
    for spec in specs:
        yield replace(spec, private=private)


def _note_error(record: Mapping[str, Any], errors: list[dict[str, Any]]) -> None:
    """Keep the id and message of an error record."""
    if record.get("type") == "error":
        errors.append({"match_id": record.get("match_id"), "error": record.get("error")})


def _run_sprt(
    cfg: TournamentConfig,
    schedule: Schedule,
    records_path: Path,
    executor: Executor,
    reporter: Reporter,
    workers: int,
    private: list[str],
) -> TournamentResult:
    """Play duplicate sets until the test decides; resume by replaying the test on the records.

    Specs are pulled lazily, set after set, while the test goes on; records come back in
    spec order and are fed to the test as each set completes. Once it decides, the matches
    still in flight (of later sets) are dropped unwritten: the records are exactly the sets
    the decision rests on, for any ``jobs``.
    """
    plan = schedule.sprt_plan()
    feed = SprtFeed(plan)
    standings = Standings(plan.labels)
    done: set[str] = set()
    try:
        for record in resume_records(records_path):
            _check_record(record, cfg, records_path)
            try:
                feed.add(record)
            except ValueError as exc:
                raise TournamentError(
                    f"{records_path}: {exc} (written by another version of arena?); choose "
                    "another --out"
                ) from None
            done.add(str(record["match_id"]))
            standings.add(record)
    except RecordFileError as exc:
        raise TournamentError(str(exc)) from None

    def specs() -> Iterator[MatchSpec]:
        index = feed.next
        while not feed.finished and index < plan.max_sets:
            for spec in plan.specs(index):
                if spec.match_id not in done:
                    yield spec
            index += 1

    started = time.perf_counter()
    played = 0
    try:
        if not feed.finished:
            workers = _start(executor, workers, records_path, len(done))
        reporter.start(schedule.total, len(done), standings, workers)
        reporter.sprt(feed.status())
        with RecordWriter(records_path, fsync=False) as writer:
            try:
                with closing(executor.run(_private(specs(), private))) as results:
                    for record in results:
                        writer.write(record)
                        if record.get("type") == "error":
                            raise TournamentError(
                                f"match {record.get('match_id')} failed: {record.get('error')}; "
                                f"the error is recorded in {records_path} (delete its line to "
                                "retry the match)"
                            )
                        played += 1
                        standings.add(record)
                        reporter.match(record, standings)
                        try:
                            statuses = feed.add(record)
                        except ValueError as exc:
                            raise TournamentError(str(exc)) from None
                        for status in statuses:
                            reporter.sprt(status)
                        if feed.finished:
                            break  # closing() drops the matches of later sets in flight
            except (MatchFailed, ClusterError) as exc:
                raise TournamentError(
                    f"{exc}; the {len(done) + played} records so far are kept in "
                    f"{records_path}, run again to resume"
                ) from None
    finally:
        reporter.stop()
    status = feed.status()
    if feed.finished and feed.pending:
        raise TournamentError(
            f"{records_path} holds {feed.pending} record(s) of sets after the test's decision "
            "(written by another version of arena?); choose another --out"
        )
    total = status.sets * plan.set_size if status.finished else schedule.total
    return TournamentResult(
        name=cfg.name,
        out=str(records_path.parent),
        records=str(records_path),
        total=total,
        played=played,
        resumed=len(done),
        elapsed_s=round(time.perf_counter() - started, 3),
        standings=standings.to_list(),
        sprt=status.to_dict(),
        seed=schedule.seed,
        faults=standings.faults.lines(),
        silent=standings.faults.silent(),
    )


def _executor_for(
    cfg: TournamentConfig, jobs: int, match_fn: MatchFn, dask: str | None
) -> Executor:
    """The executor a run owns: Dask when asked for (``dask`` or the config), else local."""
    settings = cfg.executor
    if dask is None and (settings is None or settings.type != "dask"):
        return LocalExecutor(jobs, match_fn)
    batch: int | None = None
    retries = 2
    if settings is not None and settings.type == "dask":
        dask = dask or settings.address
        batch, retries = settings.batch, settings.retries
    assert dask is not None
    try:
        executor = DaskExecutor(dask, match_fn=match_fn, batch=batch, retries=retries)
    except ValueError as exc:
        raise TournamentError(f"bad Dask address {dask!r}: {exc}") from None
    if executor.scheduler is None and executor.local_workers is None:
        executor.local_workers = jobs  # plain 'local': as many workers as jobs
    return executor


def _start(executor: Executor, workers: int, records_path: Path, recorded: int) -> int:
    """Start the executor's workers; the number of matches it plays at once."""
    start = getattr(executor, "start", None)
    if start is None:
        return workers
    try:
        start()
        return int(getattr(executor, "jobs", workers))
    except ClusterError as exc:
        if not recorded:
            raise TournamentError(str(exc)) from None
        raise TournamentError(
            f"{exc}; the {recorded} records so far are kept in {records_path}, run again to "
            "resume"
        ) from None


def _fingerprint(match: Mapping[str, Any] | MatchSpec) -> int:
    """Seed and seating of a spec or record: a recorded match must be the scheduled one."""
    if isinstance(match, MatchSpec):
        return hash((match.seed, tuple(match.labels)))
    return hash((match["seed"], tuple(seat["label"] for seat in match["seats"])))


def _todo(
    schedule: Schedule,
    tables: Iterable[Table],
    done: dict[str, int],
    skipped: list[int],
    path: Path,
) -> Iterator[MatchSpec]:
    """Specs not recorded yet; counts in ``skipped[0]`` the recorded ones it passes over."""
    for table in tables:
        for spec in schedule.specs(table):
            recorded = done.get(spec.match_id)
            if recorded is None:
                yield spec
                continue
            if recorded != _fingerprint(spec):
                raise TournamentError(
                    f"{path}: match {spec.match_id} was recorded with other seats or another "
                    "seed than this schedule gives it (written by another version of arena?); "
                    "choose another --out"
                )
            skipped[0] += 1


def _spec_order(schedule: Schedule, tables: Iterable[Table]) -> dict[str, int]:
    """Position of each match id in the schedule (Swiss history is added in this order)."""
    ids = (spec.match_id for table in tables for spec in schedule.specs(table))
    return {match_id: i for i, match_id in enumerate(ids)}


def _check_record(record: Mapping[str, Any], cfg: TournamentConfig, path: Path) -> None:
    if record.get("tournament") not in (None, cfg.name):
        raise TournamentError(
            f"{path} holds records of tournament {record.get('tournament')!r}, not "
            f"{cfg.name!r}; choose another --out"
        )


def _keep_config_copy(folder: Path, cfg: TournamentConfig, text: str | None) -> None:
    """Write config.yaml beside the records, or check a resumed run uses the same config."""
    copy = folder / CONFIG_COPY
    if copy.exists():
        try:
            previous = parse_config(copy.read_text(encoding="utf-8"), source=str(copy),
                                    check_bots=False)
        except ConfigError as exc:
            raise TournamentError(f"cannot resume: {exc}") from None
        old, new = previous.identity(), cfg.identity()
        if old != new:
            changed = sorted(key for key in set(old) | set(new) if old.get(key) != new.get(key))
            raise TournamentError(
                f"{folder} holds a run of a different tournament ({', '.join(changed)} "
                "changed); choose another --out, or delete the folder to start over"
            )
        return
    if (folder / RECORDS).exists() and (folder / RECORDS).stat().st_size:
        raise TournamentError(
            f"{folder} holds records but no {CONFIG_COPY}; choose another --out"
        )
    if text is None:
        text = yaml.safe_dump(
            cfg.model_dump(mode="json", exclude_none=True, exclude_unset=True), sort_keys=False
        )
    copy.write_text(text, encoding="utf-8")
