"""The output folder's files are the run's own: no symbolic link is followed, the secret
seed is its owner's to read."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from arena.tournament import SECRET_SEED, SerialExecutor, TournamentError, dry_run_match
from arena.tournament import run_tournament as run


def _config(**extra: Any) -> dict[str, Any]:
    return {"name": "o", "players": 2, "bots": ["greedy", "lowest", "random"], **extra}


def _run(config: dict[str, Any], out: Path) -> Any:
    return run(config, out=out, executor=SerialExecutor(dry_run_match))


def test_a_symlinked_empty_records_file_is_not_written_through(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.jsonl"
    target.write_text("")
    out = tmp_path / "out"
    out.mkdir()
    (out / "records.jsonl").symlink_to(target)
    with pytest.raises(TournamentError, match=r"records.jsonl is a symbolic link"):
        _run(_config(seed=1), out)
    assert target.read_text() == ""
    assert not (out / "config.yaml").exists()  # refused before anything is written


def test_a_secret_seed_symlink_does_not_create_its_target(tmp_path: Path) -> None:
    target = tmp_path / "planted"
    out = tmp_path / "out"
    out.mkdir()
    (out / SECRET_SEED).symlink_to(target)
    with pytest.raises(TournamentError, match=r"secret-seed is a symbolic link"):
        _run(_config(), out)
    assert not target.exists()


def test_a_config_copy_symlink_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "planted.yaml"
    out = tmp_path / "out"
    out.mkdir()
    (out / "config.yaml").symlink_to(target)
    with pytest.raises(TournamentError, match=r"config.yaml is a symbolic link"):
        _run(_config(seed=1), out)
    assert not target.exists()


def test_the_secret_seed_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = _run(_config(), out)
    assert result.secret_seed and result.complete
    mode = stat.S_IMODE((out / SECRET_SEED).stat().st_mode)
    assert mode == 0o600
    assert int((out / SECRET_SEED).read_text()) == result.seed
    again = _run(_config(), out)  # resumes with the kept seed
    assert again.seed == result.seed and again.played == 0
