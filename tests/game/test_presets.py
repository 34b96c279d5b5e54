"""docs/rules.md section 11 (presets) and the options API that every section's options share."""

from __future__ import annotations

import dataclasses
import json

import pytest

from arena.game import Rules

DEFAULTS = {
    "jokers": 0,
    "runs": False,
    "equal_beats": True,
    "pass_is_final": False,
    "revolution": False,
    "eight_stop": False,
    "exchange": (2, 1),
    "rounds": 5,
    "points": None,
    "on_fault": "forfeit",
}


def _options(r: Rules) -> dict[str, object]:
    out = {k: getattr(r, k) for k in DEFAULTS}
    out["exchange"] = tuple(out["exchange"])  # type: ignore[arg-type]
    return out


def test_standard_is_the_defaults() -> None:
    """Rule: "`standard`: the defaults above."""
    assert _options(Rules.preset("standard")) == DEFAULTS
    assert _options(Rules()) == DEFAULTS
    assert Rules.preset("standard") == Rules()


def test_runs_is_the_seeds_variant_runs_true() -> None:
    """Rule: "`runs`: the Runs variant: `runs: true`."""
    assert _options(Rules.preset("runs")) == {**DEFAULTS, "runs": True}
    assert Rules.preset("runs") == Rules(runs=True)


def test_daifugo_sets_one_joker_runs_revolution_eight_stop_pass_is_final_and_strict_beats() -> None:
    """Rule: "`daifugo`: `jokers: 1`, `runs: true`, `revolution: true`, `eight_stop: true`,
    `pass_is_final: true`, `equal_beats: false`."""
    expected = {
        **DEFAULTS,
        "jokers": 1,
        "runs": True,
        "revolution": True,
        "eight_stop": True,
        "pass_is_final": True,
        "equal_beats": False,
    }
    assert _options(Rules.preset("daifugo")) == expected


@pytest.mark.parametrize("name", ["standard", "runs", "daifugo"])
def test_a_preset_sets_defaults_and_keys_given_beside_it_override_them(name: str) -> None:
    """Rule: "A preset sets defaults; keys given beside it override them."""
    base = _options(Rules.preset(name))
    changed = Rules.preset(name, jokers=2, equal_beats=not base["equal_beats"], rounds=3)
    assert _options(changed) == {
        **base,
        "jokers": 2,
        "equal_beats": not base["equal_beats"],
        "rounds": 3,
    }
    from_yaml = Rules.from_dict(
        {"preset": name, "jokers": 2, "equal_beats": not base["equal_beats"], "rounds": 3}
    )
    assert from_yaml == changed
    assert Rules.from_dict({"preset": name}) == Rules.preset(name)


def test_the_daifugo_preset_with_overrides_from_a_yaml_mapping() -> None:
    """Rule: "keys given beside it override them": `{preset: daifugo, pass_is_final: false}`."""
    r = Rules.from_dict({"preset": "daifugo", "pass_is_final": False, "exchange": []})
    assert r.pass_is_final is False and tuple(r.exchange) == ()
    assert r.jokers == 1 and r.runs and r.revolution and r.eight_stop and not r.equal_beats


def test_an_unknown_preset_is_a_value_error_naming_it() -> None:
    """Presets are `standard`, `runs`, `daifugo`; any other name is refused, named."""
    with pytest.raises(ValueError, match="tournament-special"):
        Rules.preset("tournament-special")
    with pytest.raises(ValueError, match="tournament-special"):
        Rules.from_dict({"preset": "tournament-special"})


def test_an_unknown_key_is_a_value_error_naming_it() -> None:
    """`Rules.from_dict`: "an unknown key raises `ValueError` naming it"."""
    with pytest.raises(ValueError, match="jokerz"):
        Rules.from_dict({"jokerz": 1})
    with pytest.raises(ValueError, match="colour"):
        Rules.from_dict({"preset": "runs", "colour": "red"})
    with pytest.raises((ValueError, TypeError)):
        Rules(jokerz=1)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "bad",
    [
        {"jokers": "two"},
        {"runs": "yes"},
        {"equal_beats": 1.5},
        {"exchange": [2, -1]},
        {"rounds": "five"},
        {"on_fault": "retry"},
        {"points": "many"},
    ],
)
def test_a_bad_option_value_is_a_value_error_naming_the_option(bad: dict[str, object]) -> None:
    """Each option has the values docs/rules.md gives; another is refused, naming the option."""
    (key,) = bad
    with pytest.raises(ValueError, match=key):
        Rules.from_dict(bad)


def test_points_must_match_the_table_size() -> None:
    """Rule (section 8): `points` is a "list by finishing place": one entry per place."""
    r = Rules(points=[3, 1, 0])
    assert tuple(r.points_for(3)) == (3, 1, 0)
    with pytest.raises(ValueError):
        r.points_for(4)


@pytest.mark.parametrize("name", ["standard", "runs", "daifugo"])
def test_to_dict_is_json_ready_holds_every_option_and_round_trips(name: str) -> None:
    """Options are YAML config keys: `rules.to_dict()` gives them all, `from_dict` reads them."""
    for r in (Rules.preset(name), Rules.preset(name, exchange=[3, 2, 1], points=[4, 3, 2, 1, 0])):
        d = r.to_dict()
        assert set(d) == set(DEFAULTS)
        assert json.loads(json.dumps(d)) == d
        assert Rules.from_dict(d) == r
        assert Rules.from_dict(json.loads(json.dumps(d))) == r


def test_rules_are_immutable_and_hashable() -> None:
    """A rules object is a value: equal options, equal and hash-equal rules; no mutation."""
    a, b = Rules(runs=True, exchange=[2, 1]), Rules(runs=True, exchange=(2, 1))
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Rules()}) == 2
    with pytest.raises((AttributeError, TypeError, dataclasses.FrozenInstanceError)):
        a.runs = False  # type: ignore[misc]
