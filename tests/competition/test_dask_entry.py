"""With Dask, a submitted bot plays on a worker that lacks it: the worker fetches its built
artifact by its hash through the scheduler, unpacks it once, and plays the same match as
one machine does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.cli._newbot import write_bot
from arena.competition import BuildLimits, build, judge, trial_spec
from arena.competition._entries import place
from arena.referee import MatchSpec, run_match, sandbox_unavailable_reason

from .test_build import submitted

pytest.importorskip("distributed", reason="the dask extra is not installed (pip install "
                    "-e '.[dask]')")

REASON = sandbox_unavailable_reason()
pytestmark = [pytest.mark.skipif(REASON is not None, reason=str(REASON)),
              pytest.mark.timeout(300)]


def _moves(record: dict[str, object]) -> list[object]:
    deals = record["deals"]
    assert isinstance(deals, list) and deals
    return [(deal["movers"], deal["moves"], deal["finish_order"]) for deal in deals]


def test_a_worker_fetches_a_submitted_package_it_lacks(tmp_path: Path) -> None:
    from arena.tournament import DaskExecutor

    competition, made = submitted(tmp_path, write_bot("daskbot", "python", tmp_path))
    build(competition, made, BuildLimits(120, 1024), [])
    command = place(competition.parent, competition, made)
    from arena.tournament._dask_ship import shipped_folder

    found = shipped_folder(" ".join(command))
    assert found is not None
    folder, artifact = found
    assert Path(folder).is_dir() and artifact.is_file()
    spec = MatchSpec.from_dict(trial_spec(made, command, players=3,
                                          rules={"preset": "runs", "rounds": 1},
                                          private=[str(competition.parent)]))
    here = run_match(spec, reuse_processes=False)
    shutil.rmtree(folder)  # as on a worker of another machine: only the artifact is here
    with DaskExecutor("local:2") as executor:
        [there] = list(executor.run([spec]))
    assert Path(folder).is_dir(), "the worker did not unpack the entry"
    assert judge(there, made.label)[0] == "tried", judge(there, made.label)
    assert _moves(there) == _moves(here)


def test_a_shipped_folder_is_unpacked_only_whole_and_by_its_hash(tmp_path: Path) -> None:
    import hashlib
    import io
    import tarfile

    from arena.tournament._dask_ship import unpack_shipped

    def packed(*members: tarfile.TarInfo) -> bytes:
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as tar:
            for member in members:
                tar.addfile(member, io.BytesIO(b"x" * member.size))
        return out.getvalue()

    plain = tarfile.TarInfo("run.py")
    plain.size = 1
    data = packed(plain)
    folder = tmp_path / "entries" / ("a" * 64)
    assert "another hash" in str(unpack_shipped(str(folder), "0" * 64, data))
    assert unpack_shipped(str(folder), hashlib.sha256(data).hexdigest(), data) is None
    assert (folder / "run.py").read_bytes() == b"x"
    link = tarfile.TarInfo("etc")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc"
    hostile = packed(link)
    other = tmp_path / "entries" / ("b" * 64)
    problem = unpack_shipped(str(other), hashlib.sha256(hostile).hexdigest(), hostile)
    assert problem is not None and "cannot unpack" in problem
    assert not other.exists() and [p.name for p in other.parent.iterdir()] == [folder.name]


def test_a_league_served_on_a_local_cluster_seats_a_submission(tmp_path: Path) -> None:
    """``arena run league.yaml --serve --dask local:2``: a submitted bot plays on the
    workers, without a fault."""
    import time

    pytest.importorskip("starlette", reason="the web extra is not installed")
    from arena.records import FaultLog
    from tests.web.conftest import start_server, stop

    from .test_enter import BOT, arena, forget_entries
    from .test_league_entry import CONFIG, _seated

    config = tmp_path / "cluster.yaml"
    config.write_text(CONFIG.replace("name: running", "name: cluster"), encoding="utf-8")
    out = tmp_path / "out"
    process, url = start_server("run", str(config), "--out", str(out), "--serve", "0",
                                "--dask", "local:2", "-q")
    try:
        token = arena("register", url, "ivy").stdout.strip().splitlines()[-1]
        bot = tmp_path / "bot.py"
        bot.write_bytes(BOT)
        assert arena("submit", url, str(bot), "--token", token, "--label", "ivy"
                     ).exit_code == 0
        record = _seated(out, "ivy", time.monotonic() + 240)
    finally:
        stop(process)
        forget_entries(out)
    log = FaultLog()
    log.add(record)
    assert log.bots["ivy"].moves > 0 and log.bots["ivy"].faults == 0
