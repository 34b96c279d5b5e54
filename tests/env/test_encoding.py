"""The encoding of observations and actions: every legal move of random deals, both ways, and
observations that hold what the seat's view holds and nothing else."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.env import Encoding, PlayedCards, decode_action, encode_move, encoding
from arena.game import Match, Move, Rules, View
from tests.game.strategies import any_rules

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
ROOT = Path(__file__).resolve().parents[2]


def walk(rules: Rules, players: int, seed: int,
         limit: int = 300) -> Iterator[tuple[Match, View, list[Move]]]:
    """Play a match with random legal moves; yield ``(match, view, legal moves)`` before
    every move."""
    rng = random.Random(seed)
    match = Match(rules, players, seed)
    for _ in range(limit):
        decision = match.pending
        if decision is None:
            return
        if decision.kind == "exchange":
            match.give(rng.sample(match.deal.hand(decision.seat), decision.count))
            continue
        view = match.view(decision.seat)
        legal = view.legal_moves()
        yield match, view, legal
        match.play(rng.choice(legal))


@SETTINGS
@given(any_rules(), st.integers(2, 8), st.integers(0, 2**63 - 1))
def test_every_legal_move_is_an_action_and_decodes_to_itself(rules: Rules, players: int,
                                                             seed: int) -> None:
    coder = encoding(rules, players)
    for _, _, legal in walk(rules, players, seed):
        mask = coder.action_mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (coder.action_size,)
        actions = [coder.index(move) for move in legal]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions)
        for move, action in zip(legal, actions, strict=True):
            assert coder.move(action) is move
            assert encode_move(rules, move) == action
            assert decode_action(rules, action) is move


@pytest.mark.parametrize("preset", Rules.PRESETS)
def test_the_actions_are_distinct_moves_and_the_pass_comes_first(preset: str) -> None:
    rules = Rules.preset(preset)
    coder = encoding(rules, len(rules.points) if rules.points else 4)
    assert coder.actions[0] is Move.PASS
    assert len({m.key for m in coder.actions}) == coder.action_size
    assert all(rules.why_not(m, None) is None for m in coder.actions if m.kind != "pass")


def test_a_move_the_rules_never_allow_is_no_action() -> None:
    coder = encoding(Rules.preset("standard"), 4)
    with pytest.raises(ValueError, match="not an action under these rules"):
        coder.index("3C 4C 5C")
    with pytest.raises(ValueError, match=r"action 196 is not in 0 \.\. 195"):
        coder.move(196)
    with pytest.raises(ValueError, match="not in 0"):
        coder.move(True)
    with pytest.raises(ValueError, match="not in 0"):
        coder.move(np.int64(196))


def test_a_numpy_integer_is_an_action_as_its_int_is() -> None:
    # What a policy's argmax or a Gymnasium space's sample gives, on either engine.
    coder = encoding(Rules.preset("standard"), 4)
    for kind in (np.int8, np.int64, np.uint16):
        assert coder.move(kind(3)) is coder.actions[3]
    with pytest.raises(ValueError, match="not in 0"):
        coder.move(np.float64(3))


def fresh_count(view: View) -> tuple[list[int], list[int]]:
    masks, jokers = [0] * view.players, [0] * view.players
    for seat, move in view.plays:
        masks[seat] |= move.mask
        jokers[seat] += move.jokers
    return masks, jokers


@SETTINGS
@given(any_rules(), st.integers(2, 8), st.integers(0, 2**63 - 1))
def test_the_observation_reads_back_as_the_view(rules: Rules, players: int, seed: int) -> None:
    coder = encoding(rules, players)
    played = PlayedCards(players)
    kept = PlayedCards(players)
    for match, view, legal in walk(rules, players, seed):
        obs = coder.observe(view, played)
        assert obs.dtype == np.int8 and obs.shape == (coder.observation_size,)
        assert set(np.unique(obs).tolist()) <= {0, 1}
        assert np.array_equal(obs, coder.observe(view))  # the memo changes nothing
        # Nor do the deal's own plays read in place of the view's copy (the tables' path).
        both, mask = coder.observe_with_mask(view, legal, kept, match.deal.moves)
        assert np.array_equal(both, obs)
        assert np.array_equal(mask, coder.action_mask(legal))
        seat, p = view.seat, players
        assert coder.cards(coder.field(obs, "hand")) == view.hand
        masks, jokers = fresh_count(view)
        per_seat = coder.field(obs, "played").reshape(p, -1)
        for k in range(p):
            s = (seat + k) % p
            read = coder.cards(per_seat[k])
            assert sum(1 << c.index for c in read if not c.is_joker) == masks[s]
            assert sum(c.is_joker for c in read) == jokers[s]
        counts = coder.field(obs, "counts").reshape(p, -1)
        assert [int(np.argmax(row)) for row in counts] == [
            min(view.counts[(seat + k) % p], counts.shape[1] - 1) for k in range(p)]
        kind = coder.field(obs, "pile_kind").tolist()
        pile = view.pile
        assert kind == ([0, 0] if pile is None else [pile.kind == "set", pile.kind == "run"])
        pile_cards = coder.field(obs, "pile_cards")
        assert sum(1 << int(i) for i in np.flatnonzero(pile_cards)) == (pile.mask if pile else 0)
        owner = coder.field(obs, "pile_owner").tolist()
        made = [s for s, move in view.trick if move.size]
        assert owner == [pile is not None and bool(made) and made[-1] == (seat + k) % p
                         for k in range(p)]
        assert coder.field(obs, "revolution").tolist() == [view.revolution]
        assert coder.field(obs, "passed").tolist() == [view.passed[(seat + k) % p]
                                                        for k in range(p)]
        lock = coder.field(obs, "lock").tolist()
        assert lock == [letter in view.lock for letter in "CDHS"]
        assert coder.field(obs, "to_move")[0] == 1  # the observer is to move
        assert coder.cards(coder.field(obs, "gave")) == sorted(view.gave)
        assert coder.cards(coder.field(obs, "received")) == sorted(view.received)
        roles = coder.field(obs, "roles").reshape(p, 4)
        assert [bool(row.any()) for row in roles] == [view.roles[(seat + k) % p] is not None
                                                      for k in range(p)]


@SETTINGS
@given(any_rules(rounds=(1, 1)), st.integers(2, 8), st.integers(0, 2**63 - 1),
       st.randoms(use_true_random=False))
def test_the_observation_does_not_depend_on_the_hidden_hands(
        rules: Rules, players: int, seed: int, rng: random.Random) -> None:
    # The encoding sees only a View; two deals that differ in the other seats' cards alone
    # look the same to the observer.
    from arena.game import Deal
    coder = encoding(rules, players)
    for number, (match, view, _) in enumerate(walk(rules, players, seed)):
        if number % 7:
            continue
        unseen = [c for s in range(players) if s != view.seat for c in match.deal.hand(s)]
        rng.shuffle(unseen)
        hands = []
        for s in range(players):
            count = 0 if s == view.seat else view.counts[s]
            hands.append(unseen[:count])
            unseen = unseen[count:]
        other = Deal.from_view(view, hands)
        assert np.array_equal(coder.observe(other.view(view.seat)),
                              coder.observe(Deal.from_view(view, [match.deal.hand(s) for s in
                                                                   range(players)]).view(
                                                                       view.seat)))


def test_the_encoding_needs_only_the_rules() -> None:
    # arena.env's encoding imports arena.game and numpy, nothing else of arena.
    tree = ast.parse((ROOT / "arena" / "env" / "_encoding.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert {name for name in imported if name.startswith("arena")} == {"arena.game"}


def test_an_encoding_is_for_one_table() -> None:
    with pytest.raises(ValueError, match="2 to 8 players"):
        Encoding(Rules(), 9)
    view = Match(Rules(), 4, 1).view(0)
    with pytest.raises(ValueError, match="for 5 players"):
        encoding(Rules(), 5).observe(view)


@pytest.mark.parametrize("seed", range(6))
def test_the_kept_hands_follow_a_forfeit(seed: int) -> None:
    # A forfeit empties a hand without a play: the hands PlayedCards keeps must notice.
    rules = Rules.preset("runs", on_fault="forfeit")
    coder = encoding(rules, 4)
    played = PlayedCards(4)
    rng = random.Random(seed)
    match = Match(rules, 4, seed)
    faulted = False
    for turn in range(200):
        decision = match.pending
        if decision is None:
            break
        if decision.kind == "exchange":
            match.give(match.deal.hand(decision.seat)[: decision.count])
            continue
        for seat in range(4):
            view = match.view(seat)
            assert np.array_equal(coder.observe(view, played), coder.observe(view)), turn
        if not faulted and turn >= 6:
            match.fault("timeout")
            faulted = True
            continue
        legal = match.deal.legal_moves()
        match.play(legal[rng.randrange(len(legal))])
    assert faulted


def test_the_kept_plays_are_read_once() -> None:
    # PlayedCards reads only the plays appended since its last update: an entry already read
    # is never read again (on the compiled engine, a (seat, move) tuple once failed its
    # identity check, and every step read the whole deal again). Here an entry already read
    # is replaced by a play of other cards: a second reading would count them.
    match = Match(Rules.preset("runs"), 4, 3)
    while match.pending is not None and match.pending.kind == "exchange":
        decision = match.pending
        match.give(match.deal.hand(decision.seat)[: decision.count])
    for _ in range(3):
        match.play(next(m for m in match.deal.legal_moves() if m.size))
    plays = list(match.deal.moves)
    played = PlayedCards(4)
    played.update(plays)
    first_seat = plays[0][0]
    before = list(played.masks)
    other = next(m for m in Rules.preset("runs").moves(
        ((1 << 52) - 1) & ~sum(move.mask for _, move in plays), 0, 0, None, False) if m.size)
    plays[0] = (first_seat, other)
    seat = match.deal.to_move
    move = next(m for m in match.deal.legal_moves() if m.size)
    plays.append((seat, move))
    played.update(plays)
    expected = list(before)
    expected[seat] |= move.mask
    assert played.masks == expected
