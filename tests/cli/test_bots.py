"""``arena bots``: the listing people and scripts read."""

from __future__ import annotations

import json

from click.testing import CliRunner

import arena
from arena.cli import main
from tests.bots.plugin_fixtures import BROKEN, DUPLICATE, GOOD, Install, install

__all__ = ["install"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["bots", *args])
    return result.exit_code, result.stdout, result.stderr


def test_lists_every_builtin_bot_with_plugin_version_and_description(install: Install) -> None:
    code, out, err = run()
    assert code == 0 and err == ""
    lines = {line.split()[0]: line for line in out.splitlines()[1:] if line.strip()}
    for name in ("random", "lowest", "highest", "passer", "greedy"):
        assert "builtin" in lines[name] and arena.__version__ in lines[name]
    assert "keeping 2s and jokers" in lines["greedy"]


def test_json_is_machine_readable(install: Install) -> None:
    code, out, _ = run("--json")
    assert code == 0
    data = json.loads(out)
    bots = {b["name"]: b for b in data["bots"]}
    assert bots["random"] == {
        "name": "random", "plugin": "builtin", "version": arena.__version__,
        "description": bots["random"]["description"], "author": "arena developers",
        "stochastic": True,
    }
    assert {"name": "builtin", "version": arena.__version__} in data["plugins"]
    assert data["errors"] == []


def test_installed_plugin_is_listed_and_broken_one_warned_about(install: Install) -> None:
    install("alpha-bots", "alphas", "alpha_bots_mod", GOOD, version="0.3.1")
    install("broken-bots", "broken", "broken_bots_mod", BROKEN)
    code, out, err = run("--json")
    assert code == 0
    data = json.loads(out)
    alpha = next(b for b in data["bots"] if b["name"] == "alpha")
    assert (alpha["plugin"], alpha["version"]) == ("alphas", "0.3.1")
    assert [e["plugin"] for e in data["errors"]] == ["broken"]
    warnings = err.strip().splitlines()
    assert len(warnings) == 1
    assert warnings[0].startswith("warning: plugin 'broken': cannot import 'broken_bots_mod'")
    code, out, err = run()
    assert code == 0 and "alpha" in out and "0.3.1" in out and "broken" in err


def test_names_select_bots_and_unknown_names_fail_in_one_line(install: Install) -> None:
    code, out, _ = run("greedy", "--json")
    assert code == 0
    assert [b["name"] for b in json.loads(out)["bots"]] == ["greedy"]
    code, out, err = run("nosuch")
    assert code == 2
    assert err.strip().splitlines() == [
        "Error: unknown bot 'nosuch' (installed bots: expert, greedy, highest, lowest, mc, "
        "passer, random)"]


def test_a_name_clash_is_one_warning_naming_both_plugins_and_blaming_neither(
    install: Install,
) -> None:
    # 'aaa' sorts before 'builtin': the line must not read as builtin's fault.
    install("aaa-bots", "aaa", "aaa_bots_mod", DUPLICATE)
    code, out, err = run()
    assert code == 0 and "greedy" not in out.split()
    assert err.splitlines() == [
        "warning: bot 'greedy' is registered by more than one plugin: 'aaa' and 'builtin'"]
    result = CliRunner().invoke(main, ["match", "greedy", "random"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "arena match: error: bot 'greedy' is registered by more than one plugin: 'aaa' and "
        "'builtin'")
