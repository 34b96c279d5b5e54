"""``arena match``: readable and JSON results, records, reproducibility, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.records import read_records
from tests.recordtools import without_timings

PERL_BOT = Path(__file__).resolve().parents[2] / "examples" / "perl-bot" / "bot.pl"


def arena(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_json_output_has_ranking_scores_faults_decisions_and_wall_time() -> None:
    code, out, _ = arena("match", "random", "greedy", "lowest", "--seed", "3", "--rounds", "2",
                         "--json")
    assert code == 0
    summary = json.loads(out)
    assert {"ranking", "scores", "faults", "decisions", "wall_s"} <= set(summary)
    assert sorted(summary["ranking"]) == [0, 1, 2]
    assert summary["seats"] == ["random", "greedy", "lowest"]
    assert summary["faults"] == [] and summary["decisions"] > 20


def test_readable_output_lists_every_bot_by_place() -> None:
    code, out, _ = arena("match", "random", "random", "passer", "--seed", "8", "--rounds", "1")
    assert code == 0
    for label in ("random", "random-2", "passer"):
        assert f" {label} " in out
    assert "decisions" in out


def test_same_seed_same_result_with_either_host(tmp_path: Path) -> None:
    results = []
    for host in ("inline", "process"):
        path = tmp_path / f"{host}.jsonl"
        code, _out, err = arena("match", "random", "greedy", "random", "--seed", "77", "--rounds",
                               "2", "--host", host, "--records", str(path), "--json")
        assert code == 0, err
        (record,) = read_records(path, strict=True)
        assert [s["host"] for s in record["seats"]] == [host] * 3
        results.append((without_timings(record)["deals"], record["scores"], record["ranking"]))
    assert results[0] == results[1]


def test_records_are_appended_one_line_per_match(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    for seed in ("1", "2"):
        assert arena("match", "random", "lowest", "--seed", seed, "--rounds", "1",
                     "--records", str(path))[0] == 0
    records = list(read_records(path, strict=True))
    assert [r["seed"] for r in records] == [1, 2]
    assert path.read_text().count("\n") == 2


def test_rules_options_and_presets_reach_the_match(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    code, _, err = arena("match", "random", "random", "random", "--preset", "daifugo", "--rules",
                         "jokers=2", "--rules", "on_fault=pass", "--rounds", "1", "--seed", "4",
                         "--records", str(path))
    assert code == 0, err
    (record,) = read_records(path)
    assert record["rules"]["jokers"] == 2 and record["rules"]["runs"] is True
    assert record["rules"]["on_fault"] == "pass"


def test_a_command_bot_plays_through_cmd_prefix() -> None:
    code, out, err = arena("match", f"cmd:perl {PERL_BOT}", "random", "--seed", "5", "--rounds",
                           "1", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["faults"] == [] and summary["seats"][0] == f"perl {PERL_BOT}"


@pytest.mark.parametrize(
    "args, message",
    [(["random"], "2 to 8 bots"),
     (["random", "nosuch"], "unknown bot 'nosuch'"),
     (["random", "grredy"], "unknown bot 'grredy' (installed bots: expert, greedy, guided, "
      "highest, learned, lowest, mc, passer, random); did you mean 'greedy'?"),
     (["random", "random", "--rules", "bogus=1"], "bogus"),
     (["random", "random", "--rules", "novalue"], "KEY=VALUE"),
     (["random", "random", "--preset", "chess"], "chess"),
     (["random", "cmd:"], "empty command after 'cmd:'"),
     (["random", "random", "--records", "/proc/no/such/dir/r.jsonl"], "cannot open records")],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    code, _out, err = arena("match", *args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_module_class_bot_is_found_from_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cli_local_bot.py").write_text(
        "from arena import Bot\n"
        "class Last(Bot):\n"
        "    version = '0.3'\n"
        "    def play(self, view):\n"
        "        return view.legal_moves()[-1]\n"
    )
    tmp_path.chmod(0o755)  # open to a sandboxed bot's uid (pytest makes it 0700)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the command adds the directory
    records = tmp_path / "r.jsonl"
    for host in ("inline", "process"):
        # What is tested is finding the bot: a generous clock, for a loaded machine.
        code, _out, err = arena("match", "cli_local_bot:Last", "random", "--seed", "6",
                                "--rounds", "1", "--host", host, "--records", str(records),
                                "--move-ms", "10000")
        assert code == 0, err
    first, second = read_records(records, strict=True)
    assert first["seats"][0]["version"] == "0.3" and first["seats"][0]["plugin"] == "cli_local_bot"
    assert without_timings(first)["deals"] == without_timings(second)["deals"]
