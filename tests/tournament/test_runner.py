"""Running tournaments: records independent of jobs, resume after a kill, plain results."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.referee import MatchSpec
from arena.tournament import (
    LocalExecutor,
    SerialExecutor,
    TournamentError,
    dry_run_match,
    run_tournament,
)

from .helpers import Interrupt, load_records

BOTS = ["greedy", "random", "lowest", "highest", "passer"]


def _write(tmp: Path, name: str, body: str) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def _dry_config(name: str, n: int, k: int, fmt: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "seed": 9,
        "players": k,
        "format": json.loads(fmt),
        "bots": [{"name": BOTS[i % 5], "label": f"b{i}"} for i in range(n)],
        **extra,
    }


def test_records_are_identical_whatever_jobs(small_config: Path, tmp_path: Path) -> None:
    one = run_tournament(small_config, out=tmp_path / "one", jobs=1)
    two = run_tournament(small_config, out=tmp_path / "two", jobs=2)
    assert one.total == two.total == 12 and one.complete and two.complete
    first = load_records(tmp_path / "one" / "records.jsonl")
    assert first == load_records(tmp_path / "two" / "records.jsonl")
    assert [r["match_id"] for r in first][:3] == ["small-t0-p0", "small-t0-p1", "small-t1-p0"]
    assert one.standings == two.standings


def test_dry_run_swiss_is_identical_with_a_worker_pool(tmp_path: Path) -> None:
    config = _dry_config("sw", 11, 3, '{"type": "swiss", "rounds": 4}', duplicate=True)
    run_tournament(config, out=tmp_path / "a", executor=SerialExecutor(dry_run_match))
    with LocalExecutor(2, dry_run_match, window=3) as pool:
        run_tournament(config, out=tmp_path / "b", executor=pool)
    assert (tmp_path / "a" / "records.jsonl").read_bytes() == (
        tmp_path / "b" / "records.jsonl"
    ).read_bytes()




@pytest.mark.parametrize(
    "fmt", ['{"type": "swiss", "rounds": 5}', '{"type": "round_robin"}'], ids=["swiss", "rr"]
)
def test_interrupted_run_resumes_to_the_same_records(fmt: str, tmp_path: Path) -> None:
    config = _dry_config("int", 10, 3, fmt, duplicate=True)
    whole = run_tournament(config, out=tmp_path / "whole", executor=SerialExecutor(dry_run_match))
    for limit in (7, 13, 14):  # Swiss rounds here are 10 matches: mid, end, mid of a round
        with pytest.raises(KeyboardInterrupt):
            cut = SerialExecutor(Interrupt(limit, dry_run_match))
            run_tournament(config, out=tmp_path / "cut", executor=cut)
    resumed = run_tournament(config, out=tmp_path / "cut", executor=SerialExecutor(dry_run_match))
    assert resumed.resumed == 34 and resumed.played == whole.total - 34
    assert (tmp_path / "cut" / "records.jsonl").read_bytes() == (
        tmp_path / "whole" / "records.jsonl"
    ).read_bytes()
    assert resumed.standings == whole.standings


def test_a_torn_last_line_is_cut_off_on_resume(tmp_path: Path) -> None:
    config = _dry_config("torn", 6, 2, '{"type": "round_robin"}')
    executor = SerialExecutor(dry_run_match)
    run_tournament(config, out=tmp_path / "whole", executor=executor)
    lines = (tmp_path / "whole" / "records.jsonl").read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "config.yaml").write_text(json.dumps(config), encoding="utf-8")
    (cut / "records.jsonl").write_bytes(b"".join(lines[:5]) + lines[5][:40])
    result = run_tournament(config, out=cut, executor=executor)
    assert result.resumed == 5
    assert (cut / "records.jsonl").read_bytes() == b"".join(lines)


def test_a_bad_line_inside_the_records_stops_the_run(tmp_path: Path) -> None:
    config = _dry_config("bad", 4, 2, '{"type": "round_robin"}')
    out = tmp_path / "out"
    run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))
    lines = (out / "records.jsonl").read_text().splitlines(keepends=True)
    (out / "records.jsonl").write_text(lines[0] + "garbage\n" + "".join(lines[1:]))
    with pytest.raises(TournamentError, match=r"records.jsonl:2: not JSON"):
        run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))


def test_resuming_with_a_different_config_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = _dry_config("same", 4, 2, '{"type": "round_robin"}')
    run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))
    changed = {**config, "seed": 10}
    with pytest.raises(TournamentError, match=r"different tournament \(seed changed\)"):
        run_tournament(changed, out=out, executor=SerialExecutor(dry_run_match))
    # jobs and out are not part of the tournament: changing them resumes fine
    again = run_tournament({**config, "jobs": 2}, out=out, executor=SerialExecutor(dry_run_match))
    assert again.played == 0 and again.complete


def _broken(spec: MatchSpec) -> dict[str, Any]:
    if spec.match_id == "f-t3":
        raise RuntimeError("referee bug")
    return dry_run_match(spec)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_match_is_recorded_as_an_error_and_the_tournament_goes_on(
    tmp_path: Path, jobs: int
) -> None:
    out = tmp_path / "out"
    config = _dry_config("f", 4, 2, '{"type": "round_robin"}')
    with LocalExecutor(jobs, _broken) as executor:
        result = run_tournament(config, out=out, executor=executor)
    assert result.complete and result.played == 6
    assert [e["match_id"] for e in result.errors] == ["f-t3"]
    assert result.errors[0]["error"].startswith("RuntimeError: referee bug (")
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    error = records[3]
    assert error["type"] == "error" and error["match_id"] == "f-t3"
    assert 'raise RuntimeError("referee bug")' in error["traceback"]
    assert isinstance(error["seed"], int) and len(error["seats"]) == 2
    assert sum(row["matches"] for row in result.standings) == 5 * 2
    again = run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))
    assert again.played == 0 and [e["match_id"] for e in again.errors] == ["f-t3"]


def _wait_for_records(path: Path, count: int, proc: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.exists():
            lines = path.read_bytes().count(b"\n")
            if lines >= count:
                return lines
        if proc.poll() is not None:
            pytest.fail("the tournament ended before it could be killed")
        time.sleep(0.02)
    pytest.fail("no records appeared")


@pytest.mark.parametrize(
    "fmt, jobs",
    [("{type: round_robin}", "2"), ("{type: swiss, rounds: 6, odd: byes}", "1")],
    ids=["round_robin-jobs2", "swiss-jobs1"],
)
def test_kill_9_then_resume_equals_an_uninterrupted_run(
    fmt: str, jobs: str, tmp_path: Path
) -> None:
    config = _write(
        tmp_path,
        "kill",
        "name: kill\nseed: 4\nrules: {preset: runs, rounds: 3}\nplayers: 3\n"
        f"duplicate: true\nformat: {fmt}\n"
        "bots: [{name: greedy}, {name: random}, {name: lowest}, {name: highest},\n"
        "       {name: passer}, {name: random, label: random-2}]\n",
    )
    out = tmp_path / "killed"
    command = [sys.executable, "-c", "from arena.cli import main; main()", "run", str(config),
               "--out", str(out), "--jobs", jobs, "--quiet"]
    proc = subprocess.Popen(command, start_new_session=True)
    try:
        _wait_for_records(out / "records.jsonl", 12, proc)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    partial = (out / "records.jsonl").read_bytes().count(b"\n")
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    whole = run_tournament(config, out=tmp_path / "whole", jobs=1)
    assert partial < whole.total
    assert load_records(out / "records.jsonl") == load_records(tmp_path / "whole" / "records.jsonl")


def test_cli_json_and_quiet_modes(small_config: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    quiet = runner.invoke(main, ["run", str(small_config), "--out", str(tmp_path / "q"), "-q",
                                 "-j", "1"])
    assert quiet.exit_code == 0 and quiet.output == ""
    shown = runner.invoke(main, ["run", str(small_config), "--out", str(tmp_path / "q"),
                                 "--json"])
    assert shown.exit_code == 0
    data = json.loads(shown.output)
    assert data["complete"] and data["resumed"] == 12 and data["played"] == 0
    assert [row["rank"] for row in data["standings"]] == [1, 2, 3, 4]
    assert (tmp_path / "q" / "config.yaml").read_text() == small_config.read_text()


def test_cli_prints_final_standings(small_config: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(small_config), "--out", str(tmp_path / "o"),
                                       "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "Final standings: small" in result.output
    assert "12 matches played" in result.output


def test_validate_reports_the_match_count(small_config: Path) -> None:
    result = CliRunner().invoke(main, ["validate", str(small_config)])
    assert result.exit_code == 0
    assert result.output.strip().endswith("small, 4 bots, round robin, tables of 2, duplicate, "
                                          "12 matches")


def test_spawned_workers_give_the_same_records(tmp_path: Path) -> None:
    """With another thread running (a notebook, say), workers are spawned, not forked."""
    import threading

    config = _dry_config("sp", 6, 3, '{"type": "round_robin"}', duplicate=True)
    run_tournament(config, out=tmp_path / "a", executor=SerialExecutor(dry_run_match))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with LocalExecutor(2, dry_run_match) as pool:
            run_tournament(config, out=tmp_path / "b", executor=pool)
            assert pool._pool is not None
            assert pool._pool._mp_context.get_start_method() == "spawn"
    finally:
        stop.set()
        other.join()
    assert (tmp_path / "a" / "records.jsonl").read_bytes() == (
        tmp_path / "b" / "records.jsonl"
    ).read_bytes()


def test_an_output_folder_that_is_a_file_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder")
    config = _dry_config("o", 3, 2, '{"type": "round_robin"}')
    with pytest.raises(TournamentError, match=r"cannot use .*taken as the output folder"):
        run_tournament(config, out=blocker, executor=SerialExecutor(dry_run_match))


def test_a_record_for_another_match_is_refused(tmp_path: Path) -> None:
    def confused(spec: MatchSpec) -> dict[str, Any]:
        return dry_run_match(dataclasses.replace(spec, match_id="elsewhere"))

    config = _dry_config("c", 3, 2, '{"type": "round_robin"}')
    with pytest.raises(TournamentError, match=r"match c-t0 failed: the record is of match "
                                               r"'elsewhere'"):
        run_tournament(config, out=tmp_path / "o", executor=SerialExecutor(confused))


def test_resume_refuses_records_that_do_not_fit_the_schedule(tmp_path: Path) -> None:
    config = _dry_config("fit", 5, 2, '{"type": "swiss", "rounds": 3, "odd": "byes"}')
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, out=out, executor=SerialExecutor(Interrupt(5, dry_run_match)))
    path = out / "records.jsonl"
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["seats"] = list(reversed(first["seats"]))  # as if paired or seated differently
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    with pytest.raises(TournamentError, match=r"match fit-r0-t0 was recorded with other seats"):
        run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))

    # of a round the schedule does not have, so it cannot change the pairing of the others
    stranger = {**json.loads(lines[0]), "match_id": "fit-r9-t9", "round": 9}
    path.write_text("\n".join([*lines, json.dumps(stranger)]) + "\n")
    with pytest.raises(TournamentError, match=r"holds 1 record of matches this schedule"):
        run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))
