"""Secrets stay secret: what a bot receives, and the seeds it could try to compute back."""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from arena.records import read_records
from arena.referee import MatchSpec, run_match, sandbox_mechanism
from arena.referee.lowlevel import WRITABLE_ENV
from arena.seeds import bot_seed, derive, match_seed
from arena.tournament import run_tournament
from tests.game.helpers import documented_deal_seed, documented_hands

HERE = Path(__file__).parent
SANDBOX = sandbox_mechanism() is not None
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")

# -- the deal, recomputed from docs/rules.md ("3. A deal") alone ------------------------------


def test_recorded_deals_are_dealt_as_the_rules_document_says() -> None:
    record = run_match(MatchSpec.from_dict(
        {"match_id": "doc", "seed": 987654321, "rules": {"rounds": 3, "jokers": 1},
         "seats": [{"name": "random"}, {"name": "greedy"}, {"name": "lowest"}]}))
    for deal in record["deals"]:
        # the shuffle written again from docs/rules.md alone, in the engine's tests' helpers
        assert deal["seed"] == documented_deal_seed(record["seed"], deal["deal"])
        hands = documented_hands(record["seed"], deal["deal"], 3, 1)
        assert [sorted(h) for h in deal["hands"]] == hands


# -- the derivation --------------------------------------------------------------------------
def test_derived_seeds_are_keyed_separated_and_in_range() -> None:
    seeds = {derive(s, *path) for s in (0, 1, 2**62) for path in
             [("match", "t0"), ("match", "t1"), ("bot", 0), ("bot", 1), ("a", 1), ("a1",)]}
    assert len(seeds) == 18 and all(0 <= s < 2**63 for s in seeds)
    assert derive(7, "x", 1) == derive(7, "x", 1) != derive(7, "x", "1")
    with pytest.raises(ValueError):
        derive(-1, "x")


# -- a spy at the table ----------------------------------------------------------------------
def spy_config(tmp_path: Path, log: Path, tournament_seed: int) -> dict[str, Any]:
    return {
        "name": "spied",
        "seed": tournament_seed,
        "players": 4,
        "rules": {"rounds": 3, "jokers": 1},
        "format": {"type": "round_robin"},
        "duplicate": True,
        "jobs": 1,
        "bots": [
            {"label": "spy", "command": f"{sys.executable} {HERE / 'spy_bot.py'} {log}"},
            {"name": "greedy"}, {"name": "random"}, {"name": "lowest"},
        ],
        # Sandboxed where the machine can; the spy writes its log where ARENA_SANDBOX_WRITABLE says.
        "limits": {"move_ms": 5000, "start_ms": 20000, "sandbox": SANDBOX},
        "out": str(tmp_path / "out"),
    }


def received(log: Path) -> dict[str, list[str]]:
    """The lines the spy received, by match id (every match begins with a ``start``)."""
    by_match: dict[str, list[str]] = defaultdict(list)
    current = None
    for line in log.read_text().splitlines():
        message = json.loads(line)
        if message["type"] == "start":
            current = message["match_id"]
        assert current is not None, "a request before 'start'"
        by_match[current].append(line)
    return by_match


def test_a_spy_bot_learns_no_hidden_card_and_no_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WRITABLE_ENV, str(tmp_path))
    tmp_path.chmod(0o777)  # writable by the bot's uid, 65534 outside too (pytest: 0700)
    log = tmp_path / "spy.log"
    tournament_seed = 4242424242
    result = run_tournament(spy_config(tmp_path, log, tournament_seed))
    assert result.complete and result.played == 4
    lines = received(log)
    records = list(read_records(Path(result.records)))
    assert all(r["limits"]["sandbox"] is SANDBOX for r in records)
    assert sorted(lines) == sorted(r["match_id"] for r in records)
    for record in records:
        seat = [s["label"] for s in record["seats"]].index("spy")
        secrets = {tournament_seed, record["seed"], match_seed(tournament_seed, record["set"])}
        secrets |= {deal["seed"] for deal in record["deals"]}
        allowed: dict[int, set[str]] = {}
        for deal in record["deals"]:
            seen = set(deal["hands"][seat])
            seen |= {card for e in deal["exchanges"] if seat in (e["from"], e["to"])
                     for card in e["cards"]}
            seen |= set(CARD.findall(" ".join(deal["moves"])))
            allowed[deal["deal"]] = seen
        played = 0
        for line in lines[record["match_id"]]:
            for secret in secrets:
                assert str(secret) not in line, f"a seed reached the bot: {line[:200]}"
            message = json.loads(line)
            assert "rng_state" not in message
            if message["type"] == "start":
                assert message["seed"] == bot_seed(record["seed"], seat)
                continue
            if message["type"] == "quit":
                continue
            deal = (message.get("view") or message.get("result"))["deal"]
            hidden = set(CARD.findall(line)) - allowed[deal]
            assert not hidden, f"deal {deal}: the spy saw {sorted(hidden)} in {line[:200]}"
            played += message["type"] == "play"
        assert played > 0
        # Cards it may not see exist (the others' unplayed cards), so the check has teeth.
        assert any({c for h in deal["hands"] for c in h} - allowed[deal["deal"]]
                   for deal in record["deals"])


# -- a secret tournament seed ----------------------------------------------------------------
def test_a_config_without_a_seed_gets_a_secret_one_kept_for_resuming(tmp_path: Path) -> None:
    from arena.tournament import SerialExecutor, dry_run_match

    config = {"name": "hidden", "players": 2, "format": {"type": "round_robin"},
              "bots": [{"name": "greedy"}, {"name": "random"}, {"name": "lowest"}]}

    calls = []

    def two_then_stop(spec: MatchSpec) -> dict[str, Any]:
        calls.append(spec.match_id)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return dry_run_match(spec)

    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, out=out, executor=SerialExecutor(two_then_stop))
    kept = int((out / "secret-seed").read_text())
    result = run_tournament(config, out=out, executor=SerialExecutor(dry_run_match))
    assert result.complete and result.resumed == 2 and result.played == 1
    assert result.secret_seed and result.seed == kept
    records = list(read_records(Path(result.records)))
    assert [r["seed"] for r in records] == [match_seed(kept, r["match_id"]) for r in records]
    other = run_tournament(config, out=tmp_path / "other", executor=SerialExecutor(dry_run_match))
    assert other.seed != kept
    given = run_tournament({**config, "seed": 5}, out=tmp_path / "given",
                           executor=SerialExecutor(dry_run_match))
    assert not given.secret_seed and given.seed == 5
    assert not (tmp_path / "given" / "secret-seed").exists()
