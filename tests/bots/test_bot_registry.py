"""Finding bots: entry points, metadata, broken plugins and clashing names."""

from __future__ import annotations

import sys

import pytest

import arena
from arena import Bot, hookimpl
from arena.plugins import (
    BotConflictError,
    BotParamsError,
    UnknownBotError,
    load_registry,
    registry,
)
from bots import GreedyBot, RandomBot

from .plugin_fixtures import BROKEN, DUPLICATE, GOOD, Install, install

__all__ = ["install"]  # the fixture, imported for pytest

BUILTINS = {"random", "lowest", "highest", "passer", "greedy"}


def test_builtin_bots_come_through_the_entry_point_group() -> None:
    reg = load_registry()
    assert set(reg.names()) >= BUILTINS
    assert reg.plugins["builtin"] == arena.__version__
    for name in BUILTINS:
        entry = reg.get(name)
        assert entry.plugin == "builtin"
        assert entry.version == arena.__version__
        assert entry.description
        assert entry.author
    assert reg.get("random").stochastic is True
    assert reg.get("greedy").stochastic is False
    assert reg.errors == []


def test_without_entry_points_there_are_no_builtin_bots() -> None:
    # The built-ins have no back door: they load through the entry point or not at all.
    assert load_registry(entry_points=False).names() == []


def test_registry_is_loaded_once() -> None:
    assert registry() is registry()


def test_create_gives_a_fresh_bot_with_its_metadata() -> None:
    reg = load_registry()
    one, two = reg.create("greedy"), reg.create("greedy")
    assert isinstance(one, GreedyBot) and one is not two
    assert (one.name, one.version) == ("greedy", arena.__version__)
    assert isinstance(reg.create("random"), RandomBot)


class Chooser(Bot):
    """Plays the n-th legal move."""

    def __init__(self, n: int = 0) -> None:
        self.n = n

    def play(self, view):  # type: ignore[no-untyped-def]
        moves = view.legal_moves()
        return moves[min(self.n, len(moves) - 1)]


class ChooserPlugin:
    __name__ = "chooser-plugin"

    @hookimpl
    def register_bots(self, register):  # type: ignore[no-untyped-def]
        register("chooser", Chooser, version="2.0", author="C. Hooser")
        register("chooser-fn", lambda **params: Chooser(**params), description="by function")


def test_an_in_process_plugin_object_registers_bots() -> None:
    reg = load_registry([ChooserPlugin()])
    entry = reg.get("chooser")
    assert (entry.plugin, entry.version, entry.author) == ("chooser-plugin", "2.0", "C. Hooser")
    assert entry.description == "Plays the n-th legal move."
    assert reg.get("chooser-fn").description == "by function"
    assert set(reg.names()) >= BUILTINS


def test_params_reach_the_factory() -> None:
    reg = load_registry([ChooserPlugin()], entry_points=False)
    bot = reg.create("chooser", n=3)
    assert isinstance(bot, Chooser) and bot.n == 3


def test_params_a_bot_does_not_take_are_a_clear_error() -> None:
    reg = load_registry([ChooserPlugin()], entry_points=False)
    with pytest.raises(BotParamsError, match=r"bot 'chooser' does not accept params \['depth'\]"):
        reg.create("chooser", depth=3)


def test_unknown_bot_names_the_installed_ones() -> None:
    reg = load_registry()
    with pytest.raises(UnknownBotError,
                       match=r"unknown bot 'nosuch' \(installed bots: expert, greedy"):
        reg.get("nosuch")


def test_a_factory_that_does_not_make_a_bot_is_refused_when_used() -> None:
    class Plugin:
        @hookimpl
        def register_bots(self, register):  # type: ignore[no-untyped-def]
            register("notabot", lambda: "hello")

    reg = load_registry([Plugin()], entry_points=False)
    with pytest.raises(TypeError, match=r"factory returned str, not an arena\.Bot"):
        reg.create("notabot")


def test_bad_registrations_are_reported_and_the_rest_kept() -> None:
    class Plugin:
        __name__ = "sloppy"

        @hookimpl
        def register_bots(self, register):  # type: ignore[no-untyped-def]
            register("two words", Chooser)
            register("cmd:x", Chooser)
            register("nofactory", 42)
            register("weird", Chooser, colour="blue")
            register("fine", Chooser)
            register("fine", Chooser)

    reg = load_registry([Plugin()], entry_points=False)
    assert reg.names() == ["fine"]
    messages = [message for plugin, message in reg.errors if plugin == "sloppy"]
    assert len(messages) == 5
    assert any("'two words'" in m for m in messages)
    assert any("'cmd:x'" in m for m in messages)
    assert any("not callable" in m for m in messages)
    assert any("unknown metadata ['colour']" in m for m in messages)
    assert any("registers bot 'fine' twice" in m for m in messages)


def test_a_hook_that_raises_is_reported_by_plugin_name() -> None:
    class Plugin:
        __name__ = "explosive"

        @hookimpl
        def register_bots(self, register):  # type: ignore[no-untyped-def]
            register("early", Chooser)
            raise RuntimeError("kaboom")

    reg = load_registry([Plugin(), ChooserPlugin()])
    assert ("explosive", "register_bots failed: RuntimeError: kaboom") in reg.errors
    assert "early" not in reg.names()
    assert {"chooser", *BUILTINS} <= set(reg.names())


def test_a_hook_with_a_wrong_signature_is_reported() -> None:
    class Plugin:
        __name__ = "misspelt"

        @hookimpl
        def register_bots(self, register, extra):  # type: ignore[no-untyped-def]
            pass

    reg = load_registry([Plugin()], entry_points=False)
    assert [plugin for plugin, _ in reg.errors] == ["misspelt"]


def test_installed_package_is_found_with_its_version(install: Install) -> None:
    install("alpha-bots", "alphas", "alpha_bots_mod", GOOD, version="1.2.3")
    reg = load_registry(trust=["alphas"])
    alpha = reg.get("alpha")
    assert (alpha.plugin, alpha.version, alpha.author) == ("alphas", "1.2.3", "A. Writer")
    assert alpha.description == "Always leads, never thinks."
    assert alpha.stochastic is True
    strict = reg.get("alpha-strict")
    assert (strict.description, strict.stochastic) == ("Alpha, described here", False)
    assert reg.plugins["alphas"] == "1.2.3"


def test_a_third_party_plugin_is_listed_by_its_metadata_and_never_imported(
    install: Install,
) -> None:
    install("alpha-bots", "alphas", "alpha_bots_mod", GOOD, version="1.2.3")
    reg = load_registry()
    assert "alpha_bots_mod" not in sys.modules
    assert "alphas" in reg.names() and "alpha" not in reg.names()
    listed = reg.get("alphas")
    assert (listed.plugin, listed.version, listed.distribution) == ("alphas", "1.2.3",
                                                                     "alpha-bots")
    assert not listed.imported and listed.factory is None
    assert reg.get("alphas/alpha-strict").name == "alpha-strict"
    assert "alpha_bots_mod" not in sys.modules
    assert reg.listed["alphas"].value == "alpha_bots_mod"


def test_loading_imports_the_one_plugin_and_finds_its_bot(install: Install) -> None:
    install("alpha-bots", "alphas", "alpha_bots_mod", GOOD)
    install("beta-bots", "beta", "beta_bots_mod", GOOD.replace('"alpha', '"beta'))
    reg = load_registry()
    strict = reg.load("alphas/alpha-strict")
    assert "alpha_bots_mod" in sys.modules and "beta_bots_mod" not in sys.modules
    assert (strict.description, strict.stochastic, strict.imported) == (
        "Alpha, described here", False, True)
    bot = reg.create("alphas/alpha")
    assert (bot.name, type(bot).__name__) == ("alpha", "Alpha")
    with pytest.raises(UnknownBotError, match=r"plugin 'alphas' registers no bot 'alphas' "
                                              r"\(it registers: alpha, alpha-strict; name one"):
        reg.load("alphas")
    assert reg.create("beta").name == "beta"  # its bot of the plugin's name


def test_a_plugin_of_one_bot_is_named_by_its_entry_point(install: Install) -> None:
    install("dup-bots", "solo", "solo_bots_mod", DUPLICATE)
    bot = load_registry().create("solo")
    assert (bot.name, type(bot).__name__) == ("solo", "Greedy")


def test_a_plugin_that_fails_to_import_is_reported_and_others_load(install: Install) -> None:
    install("broken-bots", "broken", "broken_bots_mod", BROKEN)
    install("alpha-bots", "alphas", "alpha_bots_mod", GOOD)
    reg = load_registry(trust=["broken", "alphas"])
    assert [plugin for plugin, _ in reg.errors] == ["broken"]
    (message,) = [m for p, m in reg.errors if p == "broken"]
    assert "cannot import 'broken_bots_mod'" in message
    assert "this_module_does_not_exist_anywhere" in message
    assert {"alpha", *BUILTINS} <= set(reg.names())
    listed = load_registry()  # listed, it is known; its import fails where its bot is made
    assert listed.errors == [] and "broken" in listed.names()
    with pytest.raises(UnknownBotError, match="plugin 'broken' failed to load: cannot import "
                                              "'broken_bots_mod'"):
        listed.create("broken")


def test_a_plugin_that_exits_on_import_is_contained(install: Install) -> None:
    install("exit-bots", "quitter", "exit_bots_mod", "import sys\nsys.exit(3)\n")
    reg = load_registry(trust=["quitter"])
    assert [p for p, _ in reg.errors] == ["quitter"]
    assert set(reg.names()) >= BUILTINS
    with pytest.raises(UnknownBotError, match="SystemExit"):
        load_registry().load("quitter")


def test_two_bots_with_one_name_are_an_error_naming_both_plugins(install: Install) -> None:
    install("dup-bots", "dupes", "dup_bots_mod", DUPLICATE)
    reg = load_registry(trust=["dupes"])
    assert "greedy" not in reg.names()
    assert {"random", "lowest"} <= set(reg.names())
    with pytest.raises(BotConflictError) as caught:
        reg.get("greedy")
    assert "'builtin'" in str(caught.value) and "'dupes'" in str(caught.value)
    assert any("'builtin' and 'dupes'" in m for _, m in reg.errors)
    listed = load_registry()  # not imported: its bots are its own, "dupes/greedy"
    assert listed.get("greedy").plugin == "builtin"
    assert listed.get("dupes/greedy").plugin == "dupes"


def test_a_listed_plugin_named_as_a_builtin_bot_makes_the_name_unusable(
    install: Install,
) -> None:
    install("dup-bots", "greedy", "dup_bots_mod", DUPLICATE)
    reg = load_registry()
    with pytest.raises(BotConflictError, match="'builtin' and 'greedy'"):
        reg.get("greedy")
    assert "greedy" not in reg.names() and reg.get("greedy/greedy").plugin == "greedy"
