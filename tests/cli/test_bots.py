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
        "stochastic": True, "imported": True, "distribution": None,
    }
    assert {"name": "builtin", "version": arena.__version__, "imported": True} in data["plugins"]
    assert data["errors"] == []


def test_installed_plugins_are_listed_unimported_whether_they_would_load_or_not(
    install: Install,
) -> None:
    install("alpha-bots", "alphas", "alpha_bots_mod", GOOD, version="0.3.1")
    install("broken-bots", "broken", "broken_bots_mod", BROKEN)
    code, out, err = run("--json")
    assert code == 0 and err == ""  # nothing imported, nothing failed
    data = json.loads(out)
    alpha = next(b for b in data["bots"] if b["name"] == "alphas")
    assert (alpha["plugin"], alpha["version"], alpha["distribution"]) == (
        "alphas", "0.3.1", "alpha-bots")
    assert (alpha["imported"], alpha["description"], alpha["stochastic"]) == (False, None, None)
    assert {p["name"]: p["imported"] for p in data["plugins"]} == {
        "alphas": False, "broken": False, "builtin": True}
    code, out, err = run()
    assert code == 0 and err == ""
    (line,) = [line for line in out.splitlines() if line.startswith("alphas ")]
    assert "0.3.1" in line and "?" in line and "not imported" in line


def test_names_select_bots_and_unknown_names_fail_in_one_line(install: Install) -> None:
    code, out, _ = run("greedy", "--json")
    assert code == 0
    assert [b["name"] for b in json.loads(out)["bots"]] == ["greedy"]
    code, out, err = run("nosuch")
    assert code == 2
    assert err.strip().splitlines() == [
        "Error: unknown bot 'nosuch' (installed bots: expert, greedy, guided, highest, learned, "
        "lowest, mc, passer, random)"]


def test_a_name_clash_is_one_warning_naming_both_plugins_and_blaming_neither(
    install: Install,
) -> None:
    # The plugin 'greedy' sorts after 'builtin': the line must not read as its fault.
    install("aaa-bots", "greedy", "aaa_bots_mod", DUPLICATE)
    code, out, err = run()
    # no row of a bot 'greedy' (a description may name it: learned's does)
    assert code == 0 and "greedy" not in [line.split()[0] for line in out.splitlines()
                                          if line.strip()]
    assert err.splitlines() == [
        "warning: bot 'greedy' is registered by more than one plugin: 'builtin' and 'greedy'"]
    result = CliRunner().invoke(main, ["match", "greedy", "random"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "arena match: error: bot 'greedy' is registered by more than one plugin: 'builtin' and "
        "'greedy'")
