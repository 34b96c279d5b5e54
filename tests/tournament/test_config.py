"""Every bad config gives one precise line: file, line, key path, what is wrong; exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.tournament import ConfigError, load_config, parse_config

CORPUS = Path(__file__).parent / "bad_configs"

# file -> the start of its error line after "FILE:" (tails that list installed bots or
# quote library messages are left out so the test does not break when those change).
EXPECTED = {
    "bad_name.yaml": "1: name: use letters, digits, '_', '.' and '-' only, starting with a "
    "letter or digit (got 'my tournament')",
    "bot_bad_params.yaml": "5: bots[0].params: bot 'greedy' does not accept params ['depth']",
    "bot_name_and_command.yaml": "5: bots[1]: give exactly one of 'name' (a registered bot) "
    "or 'command'",
    "bot_without_name.yaml": "5: bots[1]: give exactly one of 'name' (a registered bot) or "
    "'command'",
    "bots_not_list.yaml": "3: bots: expected a list, got a mapping",
    "command_not_found.yaml": "5: bots[1].command: program 'no-such-program-xyz' not found",
    "command_with_inline_host.yaml": "5: bots[1]: a 'command' bot runs with host 'command', "
    "not 'inline'",
    "duplicate_key.yaml": "3: players: duplicate key",
    "duplicate_label.yaml": "6: bots[2].name: label 'random' is already used by bots[0]",
    "executor_local_count.yaml": "6: executor.address: 'local:N' needs a positive number of "
    "workers, not '0'",
    "executor_unknown.yaml": "4: executor.type: unknown executor 'ray' (expected one of: "
    "local, dask)",
    "format_unknown.yaml": "3: format.type: unknown format 'ladder' (expected one of: "
    "round_robin, swiss, gauntlet, sprt, league, knockout)",
    "gauntlet_small_field.yaml": "3: format.challengers: leaves 1 bot in the field, fewer "
    "than the 2 opponents a table of 3 needs",
    "gauntlet_unknown_challenger.yaml": "5: format.challengers[1]: no bot is labelled "
    "'champion' (labels: greedy, random, lowest)",
    "gauntlet_near_challenger.yaml": "5: format.challengers[0]: no bot is labelled 'gredy' "
    "(did you mean 'greedy'?) (labels: greedy, random, lowest)",
    "league_too_few_active.yaml": "4: bots: 3 active entrants cannot fill a table of 4: a "
    "league needs at least 4",
    "format_near.yaml": "3: format.type: unknown format 'round-robin' (did you mean "
    "'round_robin'?) (expected one of: ",
    "limits_negative.yaml": "5: limits.move_ms: must be a whole number > 0, got -5",
    "limits_unknown_fault.yaml": "5: limits.on_fault: input should be 'forfeit' or 'pass' "
    "(got 'ignore')",
    "max_tables_too_small.yaml": "3: format.max_tables: must be at least the number of bots (3)",
    "missing_players.yaml": "1: players: missing required key",
    "not_mapping.yaml": "1: the config must be a mapping of keys",
    "one_bot.yaml": "3: bots: needs at least 2 entries, got 1",
    "players_range.yaml": "2: players: input should be less than or equal to 8 (got 9)",
    "rules_unknown_option.yaml": "5: rules.jokerz: unknown rules option 'jokerz'",
    "rules_points_table.yaml": "4: rules.points: rules option 'points' lists 3 places, but "
    "the table has 4 players",
    "rules_unknown_preset.yaml": "4: rules.preset: unknown rules preset 'tycoon'",
    "seed_string.yaml": "2: seed: input should be a valid integer (got '42')",
    "sprt_alpha.yaml": "7: format.alpha: input should be less than 0.5 (got 0.7)",
    "sprt_copy_label.yaml": "7: bots[2].label: label 'lowest#2' is kept for the baseline's "
    "copies; choose another",
    "sprt_elo_bounds.yaml": "8: format.elo1: must be above elo0 (10), got 5",
    "sprt_field_short.yaml": "3: format.baseline: without a baseline, the other bot is the "
    "challenger's field and must fill the 3 other seats of a table of 4 exactly; set "
    "players: 2 or name a baseline",
    "sprt_field_too_big.yaml": "4: bots: 2 bots besides the challenger and the baseline do "
    "not fit in the 1 other seat of a table of 3",
    "sprt_max_sets.yaml": "7: format.max_sets: input should be greater than 0 (got 0)",
    "sprt_missing_challenger.yaml": "3: format.challenger: missing required key",
    "sprt_not_duplicate.yaml": "4: duplicate: format sprt always plays duplicate sets",
    "sprt_repeat.yaml": "4: repeat: format sprt plays duplicate sets until the test decides",
    "sprt_same_baseline.yaml": "3: format.baseline: the baseline must be another bot than "
    "the challenger",
    "sprt_unknown_challenger.yaml": "5: format.challenger: no bot is labelled 'champion' "
    "(labels: greedy, lowest)",
    "sprt_unknown_key.yaml": "7: format.elo_0: unknown key 'elo_0' (did you mean 'elo0'?) "
    "(allowed: type, "
    "challenger, baseline, elo0, elo1, alpha, beta, max_sets)",
    "swiss_bad_rounds.yaml": "5: format.rounds: input should be greater than 0 (got 0)",
    "swiss_missing_rounds.yaml": "3: format.rounds: missing required key",
    "swiss_points_short_tables.yaml": "4: format.odd: 6 bots do not fill tables of 4, and "
    "short tables cannot use 'rules.points'",
    "syntax.yaml": "4: YAML syntax error: expected ',' or ']', but got '<scalar>' (while "
    "parsing a flow sequence started on line 3)",
    "too_many_seats.yaml": "2: players: 7 seats per table but only 5 bots, and a bot cannot "
    "sit at a table twice",
    "unknown_bot.yaml": "5: bots[1].name: unknown bot 'gredy' (installed bots: ",
    "unknown_key.yaml": "2: seeed: unknown key 'seeed' (did you mean 'seed'?) (allowed: name, "
    "seed, rules, players, "
    "format, duplicate, repeat, bots, limits, jobs, out, executor, submissions)",
    "wrong_type.yaml": "2: players: input should be a valid integer (got 'four')",
}


def test_the_corpus_and_the_expectations_match() -> None:
    assert sorted(p.name for p in CORPUS.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_config_gives_its_precise_message(name: str) -> None:
    path = CORPUS / name
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{EXPECTED[name]}"), lines[0]


@pytest.mark.parametrize("name", ["unknown_bot.yaml", "syntax.yaml", "wrong_type.yaml"])
def test_validate_prints_the_message_and_exits_2(name: str) -> None:
    path = CORPUS / name
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith(f"{path}:{EXPECTED[name]}")
    assert "Traceback" not in result.output


def test_run_refuses_a_bad_config_without_a_traceback(tmp_path: Path) -> None:
    path = CORPUS / "unknown_bot.yaml"
    proc = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "run", str(path),
         "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{path}:{EXPECTED['unknown_bot.yaml']}")
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


def test_several_problems_are_each_reported_on_their_own_line() -> None:
    text = "name: x\nplayers: 0\nbots: [{name: greedy}, {name: random}]\nlimits: {move_ms: 0}\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="c.yaml")
    assert str(info.value).splitlines() == [
        "c.yaml:2: players: input should be greater than or equal to 2 (got 0)",
        "c.yaml:4: limits.move_ms: must be a whole number > 0, got 0",
    ]


def test_unreadable_file_is_one_line() -> None:
    with pytest.raises(ConfigError) as info:
        load_config(CORPUS / "no-such-file.yaml")
    assert str(info.value).endswith("no-such-file.yaml: cannot read: No such file or directory")


def test_a_character_yaml_refuses_is_one_line_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"name: t\nplayers: 2\nbots:\n  - random\n  - gre\x00dy\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).splitlines() == [
        f"{path}:5: YAML syntax error: special characters are not allowed (character #x0000)"]


def test_every_problem_is_reported_at_once_sorted_by_line() -> None:
    # A schema error (line 2) used to hide the unknown bot and the unknown rules option.
    text = ("name: x\nplayers: two\nbots:\n  - gredy\n  - {name: random, colour: red}\n"
            "rules: {jokerz: 1}\nseeed: 1\n")
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="c.yaml")
    lines = str(info.value).splitlines()
    assert [line.split(": ")[0:2] for line in lines] == [
        ["c.yaml:2", "players"],
        ["c.yaml:4", "bots[0].name"],
        ["c.yaml:5", "bots[1].colour"],
        ["c.yaml:6", "rules.jokerz"],
        ["c.yaml:7", "seeed"],
    ]
    assert "unknown bot 'gredy'" in lines[1]


def test_rules_are_checked_against_the_table_size_when_other_keys_are_wrong() -> None:
    text = "name: x\nplayers: 3\nrules: {points: [1, 0]}\nbots: [greedy, random, lowest]\nx: 1\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="c.yaml")
    assert str(info.value).splitlines() == [
        "c.yaml:3: rules.points: rules option 'points' lists 2 places, but the table has 3 "
        "players",
        "c.yaml:5: x: unknown key 'x' (allowed: name, seed, rules, players, format, duplicate, "
        "repeat, bots, limits, jobs, out, executor, submissions)",
    ]


def test_bots_may_be_given_by_name_alone() -> None:
    short = parse_config("name: x\nplayers: 2\nbots: [greedy, lowest]\n")
    long = parse_config("name: x\nplayers: 2\nbots:\n  - name: greedy\n  - name: lowest\n")
    assert short.identity() == long.identity()
    assert short.labels == ["greedy", "lowest"]
    mixed = parse_config("name: x\nplayers: 2\nbots:\n  - greedy\n  - {name: lowest, "
                         "label: low}\n")
    assert mixed.labels == ["greedy", "low"]


def test_a_duplicate_key_does_not_hide_the_other_problems() -> None:
    text = "name: x\nplayers: 2\nplayers: 3\nbots: [greedy, gredy]\nseeed: 1\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="c.yaml")
    assert [line.split(": ")[0:3] for line in str(info.value).splitlines()] == [
        ["c.yaml:2", "players", "3 seats per table but only 2 bots, and a bot cannot sit at a "
         "table twice (list a bot again under another label to field a copy)"],  # the last won
        ["c.yaml:3", "players", "duplicate key"],
        ["c.yaml:4", "bots[1].name", "unknown bot 'gredy' (installed bots"],
        ["c.yaml:5", "seeed", "unknown key 'seeed' (did you mean 'seed'?) (allowed"],
    ]


def test_an_unknown_key_does_not_hide_clashes_between_the_other_keys() -> None:
    text = ("name: x\nplayers: 2\nbots: [greedy, greedy]\nformat: {type: gauntlet, "
            "challengers: [champ]}\nseeed: 1\n")
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="c.yaml")
    assert [line.split(": ")[0:2] for line in str(info.value).splitlines()] == [
        ["c.yaml:3", "bots[1].name"],  # label 'greedy' used twice
        ["c.yaml:4", "format.challengers[0]"],  # no bot labelled 'champ'
        ["c.yaml:5", "seeed"],
    ]


def test_a_near_bot_name_gets_did_you_mean() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config("name: x\nplayers: 2\nbots: [greedy, lowst]\n", source="c.yaml")
    assert str(info.value).startswith("c.yaml:3: bots[1].name: unknown bot 'lowst' (installed")
    assert str(info.value).endswith("; did you mean 'lowest'?")


def test_an_alias_bomb_is_refused_in_one_line_at_once() -> None:
    # Nine levels of ten aliases each: 10**9 values once expanded, a few hundred bytes.
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    text = "\n".join(["name: bomb", "players: 2", "bots: [greedy, lowest]", *lines]) + "\n"
    with pytest.raises(ConfigError) as info:  # unbounded, the checks would walk 10**9 values
        parse_config(text, source="bomb.yaml")
    message = str(info.value)
    assert len(message.splitlines()) == 1
    assert "expands to more than 100000 values through its aliases" in message
    assert message.startswith("bomb.yaml:")


def test_a_recursive_alias_and_deep_nesting_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match=r"c.yaml:1: a YAML alias refers to a value that "
                       r"contains it"):
        parse_config("a: &a [*a]\n", source="c.yaml")
    with pytest.raises(ConfigError, match=r"^c.yaml: the YAML is nested too deeply$"):
        parse_config("a: " + "[" * 20000 + "]" * 20000 + "\n", source="c.yaml")
