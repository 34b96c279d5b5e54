"""Running a tournament: one run object drives every format's plan.

The run owns the output folder: ``config.yaml`` (a copy of the config) and
``records.jsonl`` (one line per finished match, in schedule order, written as
soon as the match and all matches before it are done), the writer, the
standings and the reporter. The format is a plan (:mod:`._plans`), asked for
batches of specs given the records so far. Running the same config again
resumes: records already present are read back (a line cut off by a kill is
dropped) and handed to the plan, and their matches are skipped when the plan's
batches reach them, so the file ends equal to that of a run never interrupted
(timings aside).

One error policy for every format: a match the referee fails to play is
written as an error record in its place and the run goes on (the plan reads it
as a match without a result); the result lists it and ``arena run`` exits 1. A
match that cannot be played at all (:class:`MatchFailed`: a dead worker, a lost
cluster) stops the run with every record so far kept.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.records import RECORDS, RecordWriter
from arena.referee import MatchSpec
from arena.tournament._config import TournamentConfig, read_config, validate_config
from arena.tournament._dask import ClusterError, DaskExecutor
from arena.tournament._executor import (
    Executor,
    LocalExecutor,
    MatchFailed,
    MatchFn,
    default_jobs,
    referee_match,
)
from arena.tournament._formats import ConfigFile, tournament_format
from arena.tournament._output import (
    SECRET_SEED,
    TournamentError,
    journal_lines,
    keep_config_copy,
    keep_journal_line,
    keep_secret_seed,
    make_run_folder,
    output_dir,
)
from arena.tournament._plans import Batch, Plan
from arena.tournament._recordlog import RecordFileError, resume_records
from arena.tournament._reporter import Reporter
from arena.tournament._result import TournamentResult
from arena.tournament._schedule import Schedule
from arena.tournament._standings import Standings

__all__ = ["SECRET_SEED", "Reporter", "TournamentError", "TournamentResult", "output_dir",
           "run_tournament"]


def coerce_config(config: TournamentConfig | Mapping[str, Any] | str | os.PathLike[str]) -> tuple[
    TournamentConfig, str | None
]:
    """A validated config and its YAML text (when it came from a file, read once)."""
    if isinstance(config, TournamentConfig):
        return config, None
    if isinstance(config, Mapping):
        return validate_config(config), None
    return read_config(config)


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
    tally: Callable[[Mapping[str, Any]], None] | None = None,
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
    propagates as ``KeyboardInterrupt`` once the records are safe. ``tally(record)`` hears
    every record the run counts, once each: those read back on resuming, then each one as
    soon as it is written (``arena run`` counts its standings document so,
    :class:`arena.report.StandingsTally`, rather than reading its records back at the end).
    """
    cfg, text = coerce_config(config)
    folder = output_dir(cfg, out)
    try:
        make_run_folder(folder)
        keep_config_copy(folder, cfg, text)
    except OSError as exc:
        raise TournamentError(f"cannot use {folder} as the output folder: {exc.strerror}") from None
    if sandbox is not None:
        cfg = cfg.model_copy(update={"limits": cfg.limits.model_copy(update={"sandbox": sandbox})})
    secret = cfg.seed is None
    cfg = cfg.model_copy(update={"seed": keep_secret_seed(folder)}) if secret else cfg
    # What no sandboxed bot may see: the records, the seed and the config.
    private = [str(folder.resolve())]
    if isinstance(config, str | os.PathLike):
        private.append(str(Path(config).resolve()))
    workers = jobs or cfg.jobs or default_jobs()
    owned = executor is None
    if executor is None:
        executor = _executor_for(cfg, workers, match_fn or referee_match, dask)
    reporter = reporter or Reporter()
    run = Run(cfg, folder, executor, reporter, tuple(private), tally)
    schedule = Schedule(cfg)
    source = (ConfigFile(os.fspath(config), os.fspath(folder))
              if isinstance(config, str | os.PathLike) else None)
    plan = tournament_format(cfg.format.type).plan(schedule, source)
    try:
        result = run.play(plan, workers)
    finally:
        if owned:
            executor.close()
    result.secret_seed = secret
    return result


class Run:
    """One run of a plan: the folder, the writer, the standings, the reporter, the errors.

    :meth:`play` reads the records back into the plan, then plays the plan's batches,
    skipping what is recorded, and builds the result. Every format goes through it.
    """

    def __init__(
        self,
        cfg: TournamentConfig,
        folder: Path,
        executor: Executor,
        reporter: Reporter,
        private: tuple[str, ...],
        tally: Callable[[Mapping[str, Any]], None] | None = None,
    ) -> None:
        self.cfg = cfg
        self.folder = folder
        self.records = folder / RECORDS
        self.executor = executor
        self.reporter = reporter
        self.private = private
        self.tally = tally
        """Hears each record counted (see :func:`run_tournament`)."""
        self.standings = Standings([])
        self.errors: list[dict[str, Any]] = []
        self.done: dict[str, int] = {}
        """Ids recorded before this run, with their fingerprint (seed and seats)."""
        self.skipped = 0
        """Recorded matches the plan's batches passed over."""
        self.played = 0

    def play(self, plan: Plan, workers: int) -> TournamentResult:
        """Resume, play every batch of ``plan``, and return the result."""
        self._restore(plan)
        self.standings = Standings(plan.labels)
        self._resume(plan)
        started = time.perf_counter()
        try:
            if not plan.finished:
                # before the reporter's threads: local workers can then be forked
                workers = self._start(workers)
            self.reporter.start(plan.total(), len(self.done), self.standings, workers)
            plan.report(self.reporter)
            with RecordWriter(self.records, fsync=False) as writer:
                while (batch := self._next(plan)) is not None:
                    for bye in batch.byes:
                        self.standings.add_bye(bye)
                    self._play_batch(plan, batch.specs, writer)
        finally:
            self.reporter.stop()
        self._check_all_matched()
        return self._result(plan, time.perf_counter() - started)

    def _restore(self, plan: Plan) -> None:
        """Hand the plan its journal back (a league's rounds chosen before)."""
        if plan.journal is None:
            return
        path = self.folder / plan.journal
        for number, line in journal_lines(path):
            try:
                plan.restore(line)
            except ValueError as exc:
                raise TournamentError(f"{path}, line {number}: {exc}; choose another "
                                      "--out") from None

    def _next(self, plan: Plan) -> Batch | None:
        """The plan's next batch, its journal line kept before it is played."""
        batch = plan.next_batch()
        plan.report(self.reporter)
        if batch is not None and batch.journal is not None and plan.journal is not None:
            keep_journal_line(self.folder / plan.journal, batch.journal)
        return batch

    def _resume(self, plan: Plan) -> None:
        try:
            for record in resume_records(self.records):
                _check_record(record, self.cfg, self.records)
                self._take(plan, record, resumed=True)
                self.done[record["match_id"]] = _fingerprint(record)
        except RecordFileError as exc:
            raise TournamentError(str(exc)) from None

    def _take(self, plan: Plan, record: Mapping[str, Any], *, resumed: bool = False) -> None:
        """Count one record in the plan, the standings and the errors."""
        try:
            plan.add(record)
        except ValueError as exc:
            if not resumed:
                raise TournamentError(str(exc)) from None
            raise TournamentError(
                f"{self.records}: {exc} (written by another version of arena?); choose "
                "another --out"
            ) from None
        self.standings.add(record)
        if self.tally is not None:
            self.tally(record)
        if record.get("type") == "error":
            self.errors.append({"match_id": record.get("match_id"), "error": record.get("error")})

    def _play_batch(self, plan: Plan, specs: Iterable[MatchSpec], writer: RecordWriter) -> None:
        todo = self._private(self._todo(specs))
        try:
            # closing(): an exception here (Ctrl-C), or the plan's stopping rule, stops
            # the executor at once and drops the matches in flight unwritten.
            with closing(self.executor.run(todo)) as results:
                for played in results:
                    record = plan.annotate(played)
                    writer.write(record)
                    self.played += 1
                    self._take(plan, record)
                    self.reporter.match(record, self.standings)
                    plan.report(self.reporter)
                    if plan.finished:
                        break
        except (MatchFailed, ClusterError) as exc:
            raise TournamentError(
                f"{exc}; the {len(self.done) + self.played} records so far are kept in "
                f"{self.records}, run again to resume"
            ) from None

    def _todo(self, specs: Iterable[MatchSpec]) -> Iterator[MatchSpec]:
        """Specs not recorded yet; a recorded one must have the seed and seats it has here."""
        for spec in specs:
            recorded = self.done.get(spec.match_id)
            if recorded is None:
                yield spec
                continue
            if recorded != _fingerprint(spec):
                raise TournamentError(
                    f"{self.records}: match {spec.match_id} was recorded with other seats or "
                    "another seed than this schedule gives it (written by another version of "
                    "arena?); choose another --out"
                )
            self.skipped += 1

    def _private(self, specs: Iterable[MatchSpec]) -> Iterator[MatchSpec]:
        """The specs with the paths sandboxed bots must not see."""
        for spec in specs:
            yield replace(spec, private=self.private)

    def _start(self, workers: int) -> int:
        """Start the executor's workers; the number of matches it plays at once."""
        start = getattr(self.executor, "start", None)
        if start is None:
            return workers
        try:
            start()
            return int(getattr(self.executor, "jobs", workers))
        except ClusterError as exc:
            if not self.done:
                raise TournamentError(str(exc)) from None
            raise TournamentError(
                f"{exc}; the {len(self.done)} records so far are kept in {self.records}, run "
                "again to resume"
            ) from None

    def _check_all_matched(self) -> None:
        extra = len(self.done) - self.skipped
        if extra:
            raise TournamentError(
                f"{self.records} holds {extra} record{'s' if extra != 1 else ''} of matches "
                "this schedule does not have (written by another version of arena?); choose "
                "another --out"
            )

    def _result(self, plan: Plan, elapsed: float) -> TournamentResult:
        return TournamentResult(
            name=self.cfg.name,
            out=str(self.folder),
            records=str(self.records),
            total=plan.total(),
            played=self.played,
            resumed=len(self.done),
            elapsed_s=round(elapsed, 3),
            standings=self.standings.to_list(),
            format=self.cfg.format.type,
            outcome=plan.summary(),
            faults=self.standings.faults.lines(),
            silent=self.standings.faults.silent(),
            errors=self.errors,
            seed=self.cfg.seed,
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


def _fingerprint(match: Mapping[str, Any] | MatchSpec) -> int:
    """Seed and seating of a spec or record: a recorded match must be the scheduled one."""
    if isinstance(match, MatchSpec):
        return hash((match.seed, tuple(match.labels)))
    return hash((match["seed"], tuple(seat["label"] for seat in match["seats"])))


def _check_record(record: Mapping[str, Any], cfg: TournamentConfig, path: Path) -> None:
    if record.get("tournament") not in (None, cfg.name):
        raise TournamentError(
            f"{path} holds records of tournament {record.get('tournament')!r}, not "
            f"{cfg.name!r}; choose another --out"
        )
