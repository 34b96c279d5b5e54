"""The Dask executor: the same records as one machine, a killed worker, a lost scheduler, resume.

One LocalCluster of two worker processes serves the module (starting one costs seconds);
the runs are small tournaments of the built-in bots.
"""

from __future__ import annotations

import functools
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from distributed import LocalCluster

from arena.referee import MatchSpec, run_match
from arena.tournament import (
    DaskExecutor,
    Reporter,
    Schedule,
    SerialExecutor,
    Standings,
    TournamentError,
    dry_run_match,
    load_config,
    run_tournament,
)
from arena.tournament._dask import parse_address, play_batch
from arena.tournament._executor import referee_match
from tests.tournament.helpers import fixed_tables

from .helpers import load_records

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[LocalCluster]:
    """A LocalCluster of two single-threaded worker processes (its scheduler runs here)."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
        silence_logs=50,
    ) as local:
        yield local


@pytest.fixture(scope="module")
def cluster(local_cluster: LocalCluster) -> str:
    """The shared cluster's scheduler address."""
    return str(local_cluster.scheduler_address)


def _serial(config: Path, out: Path) -> list[dict[str, Any]]:
    run_tournament(config, out=out, jobs=1)
    return load_records(out / "records.jsonl")


def kill_worker_once(marker: str, victim: str, spec: MatchSpec) -> dict[str, Any]:
    """Play the match, except that the first worker to reach ``victim`` dies (SIGKILL)."""
    if spec.match_id == victim:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)
    return run_match(spec)


class StopAfter(Reporter):
    """Acts like Ctrl-C once ``count`` records are written."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.seen = 0

    def match(self, record: Mapping[str, Any], standings: Standings) -> None:
        self.seen += 1
        if self.seen == self.count:
            raise KeyboardInterrupt


def test_records_and_standings_are_those_of_one_machine(
    cluster: str, small_config: Path, tmp_path: Path
) -> None:
    serial = run_tournament(small_config, out=tmp_path / "serial", jobs=1)
    expected = load_records(tmp_path / "serial" / "records.jsonl")
    for batch in (1, None):  # None: grown from the matches' duration
        with DaskExecutor(cluster, batch=batch) as executor:
            result = run_tournament(small_config, out=tmp_path / f"b{batch}", executor=executor)
        assert result.played == len(expected)
        assert load_records(tmp_path / f"b{batch}" / "records.jsonl") == expected
        assert result.standings == serial.standings


def test_an_interrupted_dask_run_resumes_to_the_same_records(
    cluster: str, small_config: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dask"
    with DaskExecutor(cluster) as executor:
        with pytest.raises(KeyboardInterrupt):
            run_tournament(small_config, out=out, executor=executor, reporter=StopAfter(4))
        assert len(load_records(out / "records.jsonl")) == 4
        resumed = run_tournament(small_config, out=out, executor=executor)
    assert resumed.resumed == 4
    assert load_records(out / "records.jsonl") == _serial(small_config, tmp_path / "serial")


def test_a_run_begun_locally_resumes_on_the_cluster_the_config_names(
    cluster: str, small_config: Path, tmp_path: Path
) -> None:
    import yaml

    local = yaml.safe_load(small_config.read_text())
    local["executor"] = {"type": "local"}
    on_dask = {**local, "executor": {"type": "dask", "address": cluster, "batch": 2}}
    out = tmp_path / "moved"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(local, out=out, jobs=1, reporter=StopAfter(5))
    result = run_tournament(on_dask, out=out)  # the executor is not part of the tournament
    assert (result.resumed, result.played) == (5, 7)
    assert load_records(out / "records.jsonl") == _serial(small_config, tmp_path / "serial")


def test_a_killed_worker_costs_only_its_match_which_is_played_again(
    cluster: str, small_config: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "killed-worker-pid"
    specs = [s for t in fixed_tables(Schedule(load_config(small_config)))
             for s in Schedule(load_config(small_config)).specs(t)]
    victim = specs[len(specs) // 2].match_id
    play = functools.partial(kill_worker_once, str(marker), victim)
    with DaskExecutor(cluster, match_fn=play) as executor:
        result = run_tournament(small_config, out=tmp_path / "dask", executor=executor)
    assert marker.exists(), "no worker was killed"
    assert result.played == len(specs)
    assert load_records(tmp_path / "dask" / "records.jsonl") == _serial(
        small_config, tmp_path / "serial"
    )


def test_command_and_process_bots_play_on_workers(cluster: str, tmp_path: Path) -> None:
    perl_bot = Path(__file__).resolve().parents[2] / "examples" / "perl-bot" / "bot.pl"
    config = {
        "name": "hosts", "seed": 3, "players": 3, "rules": {"preset": "runs", "rounds": 2},
        "bots": [{"command": f"perl {perl_bot}", "label": "perl"},
                 {"name": "greedy", "host": "process"}, {"name": "lowest"}, {"name": "random"}],
    }
    with DaskExecutor(cluster) as executor:
        result = run_tournament(config, out=tmp_path / "dask", executor=executor)
    run_tournament(config, out=tmp_path / "serial", jobs=1)
    records = load_records(tmp_path / "dask" / "records.jsonl")
    assert result.played == 4
    hosts = {seat["host"] for r in records for seat in r["seats"]}
    assert hosts == {"command", "process", "inline"}
    faults = [f for r in records for deal in r["deals"] for f in deal.get("faults", [])]
    assert faults == []
    assert records == load_records(tmp_path / "serial" / "records.jsonl")


def kill_worker_always(victim: str, spec: MatchSpec) -> dict[str, Any]:
    """Every worker that reaches ``victim`` dies."""
    if spec.match_id == victim:
        os.kill(os.getpid(), signal.SIGKILL)
    return dry_run_match(spec)


def test_a_match_that_kills_every_worker_stops_the_run_with_one_line(
    local_cluster: LocalCluster, cluster: str, small_config: Path, tmp_path: Path
) -> None:
    # Dask's allowed-failures, 0 here: the first death of a worker playing it condemns it.
    scheduler = local_cluster.scheduler
    assert scheduler is not None
    allowed, scheduler.allowed_failures = scheduler.allowed_failures, 0
    play = functools.partial(kill_worker_always, "small-t2-p1")
    try:
        with DaskExecutor(cluster, match_fn=play, batch=1) as executor, \
                pytest.raises(TournamentError) as info:
            run_tournament(small_config, out=tmp_path / "out", executor=executor)
    finally:
        scheduler.allowed_failures = allowed
    message = str(info.value)
    assert "\n" not in message
    # A task waiting on the dying worker is condemned with the victim (allowed-failures 0),
    # and may come first in the schedule: the line names whichever match it stopped at.
    assert re.match(r"match small-t\d-p\d failed: the Dask workers playing it died each time ",
                    message), message
    assert "run again to resume" in message
    assert len(load_records(tmp_path / "out" / "records.jsonl")) <= 5


def test_swiss_rounds_on_dask_are_those_of_one_machine(cluster: str, tmp_path: Path) -> None:
    config = {
        "name": "sw", "seed": 9, "players": 2, "format": {"type": "swiss", "rounds": 4},
        "bots": [{"name": name, "label": f"b{i}"}
                 for i, name in enumerate(["greedy", "random", "lowest", "highest", "passer"])],
    }
    with DaskExecutor(cluster, match_fn=dry_run_match) as executor:
        run_tournament(config, out=tmp_path / "dask", executor=executor)
    run_tournament(config, out=tmp_path / "serial", executor=SerialExecutor(dry_run_match))
    assert load_records(tmp_path / "dask" / "records.jsonl") == load_records(
        tmp_path / "serial" / "records.jsonl"
    )


def test_a_worker_that_cannot_start_a_bot_stops_the_run_with_one_line(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The program exists here (the config check passes) but not in the workers' folder.
    (tmp_path / "only-here-bot").write_text("#!/bin/sh\nexit 1\n")
    (tmp_path / "only-here-bot").chmod(0o755)
    monkeypatch.chdir(tmp_path)
    config = {
        "name": "missing", "players": 2,
        "bots": [{"name": "greedy"}, {"command": "./only-here-bot", "label": "remote"}],
    }
    with DaskExecutor(cluster) as executor, pytest.raises(TournamentError) as info:
        run_tournament(config, out=tmp_path / "out", executor=executor)
    message = str(info.value)
    assert "\n" not in message
    assert "Dask worker tcp://" in message
    assert "cannot start bot 'remote': program './only-here-bot' not found" in message
    assert "run again to resume" in message


def test_a_worker_without_the_file_a_command_names_stops_the_run(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # perl is everywhere, the script only in this folder: a worker would record crashes.
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.pl").write_text("exit 1;\n")
    monkeypatch.chdir(tmp_path)
    config = {
        "name": "script", "players": 2,
        "bots": [{"name": "greedy"}, {"command": "perl bots/mine.pl", "label": "mine"}],
    }
    with DaskExecutor(cluster) as executor, pytest.raises(TournamentError) as info:
        run_tournament(config, out=tmp_path / "out", executor=executor)
    assert "cannot start bot 'mine': file 'bots/mine.pl' not found" in str(info.value)


def test_a_scheduler_that_goes_away_ends_the_run_with_one_line_and_it_resumes(
    cluster: str, small_config: Path, tmp_path: Path
) -> None:
    # A cluster of its own, in this process (quick to start), closed in the middle of the run.
    doomed = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                          dashboard_address=":0", silence_logs=50)

    class CloseCluster(Reporter):
        def __init__(self) -> None:
            self.seen = 0

        def match(self, record: Mapping[str, Any], standings: Standings) -> None:
            self.seen += 1
            if self.seen == 3:
                doomed.close()

    out = tmp_path / "dask"
    try:
        with DaskExecutor(str(doomed.scheduler_address), batch=1, window=2) as executor, \
                pytest.raises(TournamentError) as info:
            run_tournament(small_config, out=out, executor=executor, reporter=CloseCluster())
    finally:
        doomed.close()
    message = str(info.value)
    assert "\n" not in message
    assert "lost the Dask scheduler at tcp://" in message
    assert "run again to resume" in message
    kept = len(load_records(out / "records.jsonl"))
    assert kept >= 3
    with DaskExecutor(cluster) as executor:
        resumed = run_tournament(small_config, out=out, executor=executor)
    assert resumed.resumed == kept
    assert load_records(out / "records.jsonl") == _serial(small_config, tmp_path / "serial")


def test_an_unreachable_scheduler_is_one_line(small_config: Path, tmp_path: Path) -> None:
    executor = DaskExecutor("tcp://127.0.0.1:9", connect_timeout_s=2)
    with pytest.raises(TournamentError) as info:
        run_tournament(small_config, out=tmp_path / "out", executor=executor)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
    assert "records" not in message  # none yet


def test_a_scheduler_without_workers_is_one_line(small_config: Path, tmp_path: Path) -> None:
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0",
                      silence_logs=50) as empty:
        executor = DaskExecutor(str(empty.scheduler_address), connect_timeout_s=0.5)
        with pytest.raises(TournamentError) as info:
            run_tournament(small_config, out=tmp_path / "out", executor=executor)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"no Dask worker joined the scheduler at {empty.scheduler_address}")


def _wait_for(records: Path, count: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not (records.exists() and records.read_bytes().count(b"\n") >= count):
        assert proc.poll() is None, "the run ended before it could be stopped"
        assert time.monotonic() < deadline, "no records appeared"
        time.sleep(0.05)


def _wait_until_gone(group: int) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        if time.monotonic() > deadline:
            os.killpg(group, signal.SIGKILL)
            pytest.fail("the Dask workers outlived the run")
        time.sleep(0.1)


def test_cli_ctrl_c_and_kill_9_then_resume_on_another_worker_count(
    cluster: str, tmp_path: Path
) -> None:
    """``arena run --dask local:1``: Ctrl-C says one line, kill -9 leaves no worker behind;
    resumed on two workers, the records are those of one machine."""
    config = tmp_path / "kill.yaml"
    config.write_text(
        "name: kill\nseed: 4\nrules: {preset: runs, rounds: 3}\nplayers: 3\nduplicate: true\n"
        "repeat: 3\nbots: [{name: greedy}, {name: random}, {name: lowest}, {name: highest},\n"
        "       {name: passer}]\n"
        # a match a task: records come one by one, so each stop lands mid-run, where batches
        # grown from fast matches (up to 64 a task) let the last batch end the run first
        "executor: {type: dask, address: 'local:1', batch: 1}\n",
        encoding="utf-8",
    )
    out = tmp_path / "stopped"
    records = out / "records.jsonl"

    def command(address: str) -> list[str]:
        return [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
                "--out", str(out), "--dask", address, "--quiet"]

    # Ctrl-C in a terminal reaches the whole process group, workers included. A terminal's
    # process starts with SIGINT at its default; one that inherits it ignored keeps ignoring
    # it (Python does), and this test's process may have been left so by a worker
    # initializer run in it: the run starts as from a terminal.
    proc = subprocess.Popen(command("local:1"), start_new_session=True,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for(records, 5, proc)
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    lines = stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), lines
    _wait_until_gone(proc.pid)
    after_ctrl_c = records.read_bytes().count(b"\n")

    proc = subprocess.Popen(command("local:1"), start_new_session=True)
    try:
        _wait_for(records, after_ctrl_c + 5, proc)
        os.kill(proc.pid, signal.SIGKILL)  # the run only: its workers must leave by themselves
    finally:
        proc.wait(timeout=30)
    _wait_until_gone(proc.pid)
    after_kill = records.read_bytes().count(b"\n")

    with DaskExecutor(cluster) as executor:
        resumed = run_tournament(config, out=out, executor=executor)
    assert resumed.resumed == after_kill
    expected = _serial(config, tmp_path / "serial")
    assert after_ctrl_c < after_kill < len(expected)
    assert load_records(records) == expected


def test_a_task_pickles_small(small_config: Path) -> None:
    """A task carries its specs and a reference to the match function, not the schedule."""
    schedule = Schedule(load_config(small_config))
    spec = next(schedule.specs(fixed_tables(schedule)[0]))
    size = len(pickle.dumps((play_batch, referee_match, [spec])))
    assert size < 1024, size


@pytest.mark.parametrize(
    "address, parsed",
    [("local", (None, None)), ("local:3", (None, 3)), (" tcp://h:8786 ", ("tcp://h:8786", None)),
     ("tls://10.0.0.2:8786", ("tls://10.0.0.2:8786", None)),
     ("tcp://[::1]:8786", ("tcp://[::1]:8786", None)),
     ("node-7.lab:8786", ("node-7.lab:8786", None))],
)
def test_addresses(address: str, parsed: tuple[str | None, int | None]) -> None:
    assert parse_address(address) == parsed


@pytest.mark.parametrize("address", ["local:0", "local:two", "local:", "", "nonsense",
                                     "tcp://host", "tls://10.0.0.2", "host:port",
                                     "tcp://[zz:8786", "tcp://[zz]:8786", "tcp://::1:8786",
                                     "tcp://h st:8786", "tcp://:8786", "tcp://h:99999"])
def test_bad_addresses(address: str) -> None:
    with pytest.raises(ValueError):
        parse_address(address)


def test_a_bad_dask_address_is_one_line_and_status_2(small_config: Path, tmp_path: Path) -> None:
    """`arena run --dask 'tcp://[zz:8786'`: one line naming the address, never distributed's
    traceback (nor its 40 s wait to close a client that never connected)."""
    from click.testing import CliRunner

    from arena.cli import main

    result = CliRunner().invoke(main, ["run", str(small_config), "--out", str(tmp_path / "o"),
                                       "--dask", "tcp://[zz:8786", "--quiet"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == ["error: bad Dask address 'tcp://[zz:8786': '[zz' is not an IPv6 address in "
                     "brackets (a scheduler is tcp://HOST:PORT, an IPv6 host in brackets: "
                     "tcp://[::1]:8786)"], result.output


def test_plain_local_has_as_many_workers_as_jobs(small_config: Path, tmp_path: Path) -> None:
    from arena.tournament._runner import _executor_for

    cfg = load_config(small_config)
    plain = _executor_for(cfg, 3, referee_match, "local")
    counted = _executor_for(cfg, 3, referee_match, "local:2")
    assert isinstance(plain, DaskExecutor) and isinstance(counted, DaskExecutor)
    assert (plain.local_workers, counted.local_workers) == (3, 2)
    with pytest.raises(TournamentError, match="bad Dask address 'local:x'"):
        _executor_for(cfg, 3, referee_match, "local:x")
