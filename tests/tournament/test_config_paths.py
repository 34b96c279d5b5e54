"""A config file's relative paths are its folder's, from whatever directory it is run."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from arena.tournament import ConfigError, load_config, validate_config
from arena.tournament._config._paths import is_path_word

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def _config(folder: Path, bot: str, out: str) -> Path:
    folder.mkdir(parents=True)
    program = folder / "bot"
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    path = folder / "c.yaml"
    path.write_text(f"name: c\nplayers: 2\nbots:\n  - command: {bot}\n  - greedy\n"
                    f"out: {out}\n", encoding="utf-8")
    return path


def test_a_command_and_out_are_read_from_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _config(tmp_path / "conf", "./bot --model=w/x.pt http://h/p {port}", "../runs/c")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    cfg = load_config(os.path.relpath(path))  # './bot' is found beside the config
    seat = cfg.bots[0].seat()
    assert shlex.split(seat.command or "") == [
        str(tmp_path / "conf" / "bot"), "--model=w/x.pt", "http://h/p", "{port}"]
    assert cfg.out == str(tmp_path / "runs" / "c")
    assert cfg.bots[0].command == "./bot --model=w/x.pt http://h/p {port}"  # as written
    assert cfg.identity()["bots"][0]["command"] == cfg.bots[0].command


def test_a_program_missing_beside_the_config_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _config(tmp_path / "conf", "./other", "x")
    (tmp_path / "other").write_text("", encoding="utf-8")  # in the cwd, not beside it
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).count("\n") == 0
    assert f"program '{tmp_path / 'conf' / 'other'}' not found" in str(caught.value)


def test_a_mapping_has_no_folder_its_paths_are_the_cwds(tmp_path: Path) -> None:
    cfg = validate_config({"name": "c", "players": 2, "out": "runs/c",
                           "bots": [{"command": "./bot"}, "greedy"]}, check_bots=False)
    assert cfg.bots[0].seat().command == "./bot"
    assert cfg.out == "runs/c"


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.name)
def test_the_shipped_configs_name_files_that_exist_from_any_directory(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cfg = load_config(path, check_bots=False)
    named = [word for bot in cfg.bots for word in shlex.split(bot.seat().command or "")
             if is_path_word(word)]
    for word in named:
        if ".venv" in Path(word).parts and not (CONFIGS.parent / ".venv").is_dir():
            continue  # the venv `make` builds: an install without it has no arena there
        assert Path(word).is_file(), word
    assert cfg.out is None  # the run's folder is runs/<name> where it is started
