"""The published JSON Schema is the model's, and the shipped configs are valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.tournament import Schedule, config_schema, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_docs_schema_is_generated_from_the_model() -> None:
    published = json.loads((ROOT / "docs" / "config.schema.json").read_text())
    assert published == config_schema(), (
        "docs/config.schema.json is stale: run `arena validate --schema > "
        "docs/config.schema.json`"
    )


def test_schema_knows_every_top_level_key() -> None:
    schema = config_schema()
    assert set(schema["properties"]) == {
        "name", "seed", "rules", "players", "format", "duplicate", "repeat", "bots",
        "limits", "jobs", "out", "executor", "submissions",
    }
    assert set(schema["required"]) == {"name", "players", "bots"}


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_configs_validate(path: Path) -> None:
    config = load_config(path)
    if config.format.type == "league":  # its length depends on its rounds (docs/league.md)
        assert Schedule(config).total == 0 and config.bots
    else:
        assert Schedule(config).total > 0


def test_the_league_to_watch_runs_until_stopped_with_bots_that_think() -> None:
    """configs/league-live.yaml is the league docs/league.md says to watch with --serve: no
    stopping rule (it lasts until Ctrl-C) and searching bots (each match lasts seconds)."""
    config = load_config(ROOT / "configs" / "league-live.yaml")
    assert config.format.type == "league" and config.format.stop is None
    assert {"mc", "expert"} <= {bot.name for bot in config.bots}
    assert "arena run configs/league-live.yaml --serve 8000" in \
        (ROOT / "docs" / "league.md").read_text(encoding="utf-8")
