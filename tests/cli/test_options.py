"""The commands agree on how bots, seeds, times and jobs are written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import arena
from arena.cli import main
from arena.cli._seats import bot_spec
from arena.game import engine
from arena.records import read_records

PERL_BOT = Path(__file__).resolve().parents[2] / "examples" / "perl-bot" / "bot.pl"


def arena_cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="arena")
    return result.exit_code, result.stdout, result.stderr


def test_match_takes_labelled_bots_like_ab(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    code, out, err = arena_cli("match", f"perl=cmd:perl {PERL_BOT}", "g=greedy", "random",
                               "random", "--seed", "5", "--rounds", "1", "--json",
                               "--records", str(records))
    assert code == 0, err
    assert json.loads(out)["seats"] == ["perl", "g", "random", "random-2"]
    seats = next(iter(read_records(records)))["seats"]
    assert [(seat["label"], seat["host"]) for seat in seats] == [
        ("perl", "command"), ("g", "inline"), ("random", "inline"), ("random-2", "inline")]
    assert seats[1]["bot"] == "greedy"


def test_an_equals_sign_inside_a_command_is_not_a_label() -> None:
    spec = bot_spec("cmd:python3 bot.py --depth=3")
    assert (spec["label"], spec["command"]) == ("python3 bot.py --depth=3",
                                                "python3 bot.py --depth=3")
    assert bot_spec("x=cmd:python3 bot.py --depth=3")["label"] == "x"
    assert bot_spec("mod:Cls")["name"] == "mod:Cls"


def test_a_label_given_to_two_seats_is_refused() -> None:
    code, _, err = arena_cli("match", "a=random", "a=greedy")
    assert code == 2
    assert err.strip() == "arena match: error: label 'a' is given to more than one seat"


def test_version_and_short_help() -> None:
    code, out, _ = arena_cli("--version")
    assert code == 0 and out.splitlines()[0] == f"arena, version {arena.__version__}"
    assert out.splitlines()[1] == f"engine: {engine()}"  # compiled, or pure and why
    for args in (["-h"], ["match", "-h"], ["run", "-h"], ["ab", "-h"], ["ratings", "-h"]):
        code, out, _ = arena_cli(*args)
        assert code == 0 and out.startswith("Usage: arena"), args


@pytest.mark.parametrize("command", [["match", "random", "random"], ["ab", "random", "greedy"],
                                     ["play", "random"]])
def test_seeds_stop_at_2_63_minus_1(command: list[str]) -> None:
    code, _, err = arena_cli(*command, "--seed", str(2**63))
    assert code == 2 and "0<=x<=9223372036854775807" in err


def test_move_ms_is_whole_milliseconds_everywhere() -> None:
    for command in (["match", "random", "random"], ["ab", "random", "greedy"]):
        code, _, err = arena_cli(*command, "--move-ms", "2.5")
        assert code == 2 and "'2.5' is not a valid integer" in err, err


def test_ab_takes_short_jobs() -> None:
    code, out, err = arena_cli("ab", "random", "greedy", "-j", "1", "--max-sets", "1",
                               "--quiet", "--json")
    assert code == 0, err
    assert json.loads(out)["status"]["sets"] == 1


def test_the_header_names_a_match_id_only_when_one_is_given() -> None:
    code, out, _ = arena_cli("match", "random", "random", "--seed", "1", "--rounds", "1")
    assert code == 0 and out.startswith("match: 2 players")
    code, out, _ = arena_cli("match", "random", "random", "--seed", "1", "--rounds", "1",
                             "--match-id", "final")
    assert code == 0 and out.startswith("match final: 2 players")
