"""A stateful test over deals under every option combination (docs/rules.md sections 3-6, 9, 10):
legal moves are accepted, everything else is rejected and changes nothing, cards are conserved,
views hide other hands, copies are independent, a deal replays from its seed and moves."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from arena.game import Deal, Move, Rules, move_suits

from . import oracle
from .helpers import FULL_DECK, assert_illegal, names, played_cards, snapshot
from .strategies import any_rules, players, seeds
from .test_view import card_tokens


class DealMachine(RuleBasedStateMachine):
    """Drives one deal with legal moves, illegal attempts, forfeits and copies."""

    def __init__(self) -> None:
        super().__init__()
        self.deal: Deal
        self.rules: Rules
        self.players = 0
        self.seed = 0
        self.dealt: Counter[str] = Counter()
        self.forfeited: Counter[str] = Counter()
        self.events: list[tuple[str, object]] = []
        self.ref: oracle.RefDeal

    @initialize(rules=any_rules(), n=players, seed=seeds)
    def start(self, rules: Rules, n: int, seed: int) -> None:
        self.rules, self.players, self.seed = rules, n, seed
        self.deal = Deal.new(rules, n, seed)
        self.dealt = Counter(str(c) for s in range(n) for c in self.deal.hand(s))
        assert sum(self.dealt.values()) == 52 + rules.jokers
        assert self.deal.to_move is not None
        self.ref = oracle.RefDeal(
            [names(self.deal.hand(s)) for s in range(n)],
            self.deal.to_move,
            pass_is_final=rules.pass_is_final,
            revolution_option=rules.revolution,
            eight_stop=rules.eight_stop,
            top_clears=rules.top_clears,
            run_revolution=rules.run_revolution,
            suit_lock=rules.suit_lock,
            spade_three=rules.spade_three,
            trick_end=rules.trick_end,
            pass_limit=rules.pass_limit,
            seed=self.deal.seed or 0,
        )

    # ------------------------------------------------------------------ moves

    @precondition(lambda self: not self.deal.finished)
    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        """Every move from legal_moves() is accepted."""
        legal = self.deal.legal_moves()
        assert legal, "a player to move always has a legal move"
        m = data.draw(st.sampled_from(legal), label="move")
        seat = self.deal.to_move
        held = len(self.deal.hand(seat))
        self.deal.play(m)
        assert self.deal.moves[-1] == (seat, m)
        assert len(self.deal.hand(seat)) == held - len(m)
        self.events.append(("play", str(m)))
        self.ref.play(str(m))

    @precondition(lambda self: not self.deal.finished)
    @rule(data=st.data())
    def play_the_text_of_a_legal_move(self, data: st.DataObject) -> None:
        """A move's canonical text is accepted as the move."""
        m = data.draw(st.sampled_from(self.deal.legal_moves()), label="move")
        self.deal.play(str(m))
        assert self.deal.moves[-1][1] == m
        self.events.append(("play", str(m)))
        self.ref.play(str(m))

    @rule(data=st.data())
    def try_a_random_combination(self, data: st.DataObject) -> None:
        """Every move not in legal_moves() is rejected with a reason and changes nothing."""
        seat = self.deal.to_move
        hand = names(self.deal.hand(seat)) if seat is not None else []
        own = data.draw(st.lists(st.sampled_from(hand), max_size=5), label="own") if hand else []
        foreign = data.draw(
            st.lists(st.sampled_from([*FULL_DECK, "JK"]), max_size=2), label="foreign"
        )
        tokens = []
        for c in own + foreign:
            if c == "JK" and data.draw(st.booleans(), label="declare"):
                c = "JK=" + data.draw(st.sampled_from(FULL_DECK), label="place")
            tokens.append(c)
        text = " ".join(tokens) or "pass"
        try:
            parsed: Move | None = Move.parse(text)
        except ValueError:
            parsed = None
        legal = set(self.deal.legal_moves()) if not self.deal.finished else set()
        if parsed is not None and parsed in legal:
            return
        if parsed is not None and parsed.kind == "set" and parsed.jmask:
            # legal_moves lists a set's joker bare; declared, it is the same play, which must
            # keep to a lock in force with the suit it declares (docs/rules.md sections 2, 12)
            bare = Move.parse(" ".join(str(card) for card in parsed.cards))
            lock = sum(1 << "CDHS".index(suit) for suit in self.deal.lock)
            if bare in legal and (not lock or move_suits(parsed, lock) == lock):
                return
        assert_illegal(self.deal, text, self.players)
        if parsed is not None:
            assert_illegal(self.deal, parsed, self.players)

    @rule(text=st.text(max_size=12))
    def try_a_random_string(self, text: str) -> None:
        """A random string is rejected unless it happens to be a legal move's text."""
        try:
            parsed: Move | None = Move.parse(text)
        except ValueError:
            parsed = None
        if parsed is not None and not self.deal.finished and parsed in self.deal.legal_moves():
            return
        assert_illegal(self.deal, text, self.players)

    @precondition(lambda self: not self.deal.finished)
    @rule(data=st.data())
    def forfeit_a_seat(self, data: st.DataObject) -> None:
        """`Deal.forfeit`: the seat is out at once, its cards leave play, it takes the worst free
        place (checked when the deal ends)."""
        holders = [s for s in range(self.players) if self.deal.hand(s)]
        seat = data.draw(st.sampled_from(holders), label="forfeit")
        self.forfeited.update(str(c) for c in self.deal.hand(seat))
        self.deal.forfeit(seat)
        assert self.deal.hand(seat) == []
        assert self.deal.to_move != seat
        self.events.append(("forfeit", seat))
        self.ref.forfeit(seat)

    @rule(data=st.data())
    def copy_is_independent(self, data: st.DataObject) -> None:
        """`copy()` is independent: playing on the copy leaves the original as it was, and the
        copy behaves as the original would."""
        before = snapshot(self.deal, self.players)
        twin = self.deal.copy()
        assert snapshot(twin, self.players) == before
        if self.deal.finished:
            return
        m = data.draw(st.sampled_from(twin.legal_moves()), label="copy move")
        twin.play(m)
        assert snapshot(self.deal, self.players) == before
        other = self.deal.copy()
        other.play(m)
        assert snapshot(other, self.players) == snapshot(twin, self.players)

    @rule(seed=st.integers(0, 2**32))
    def play_to_the_end(self, seed: int) -> None:
        """Deals terminate with a full finishing order."""
        rng = random.Random(seed)
        steps = 0
        while not self.deal.finished:
            steps += 1
            assert steps < 5000, "the deal does not end"
            m = rng.choice(self.deal.legal_moves())
            self.deal.play(m)
            self.events.append(("play", str(m)))
            self.ref.play(str(m))
        assert sorted(self.deal.finish_order) == list(range(self.players))

    @rule()
    def replay_from_seed_and_moves(self) -> None:
        """A deal replayed from its seed and move list ends in the same state."""
        again = Deal.new(self.rules, self.players, self.seed)
        for kind, arg in self.events:
            if kind == "play":
                again.play(arg)
            else:
                again.forfeit(arg)  # type: ignore[arg-type]
        assert snapshot(again, self.players) == snapshot(self.deal, self.players)

    # ------------------------------------------------------------------ invariants

    @invariant()
    def cards_are_conserved(self) -> None:
        """hands + played + forfeited == the dealt deck."""
        held = Counter(str(c) for s in range(self.players) for c in self.deal.hand(s))
        assert held + played_cards(self.deal) + self.forfeited == self.dealt

    @invariant()
    def turn_and_finish_are_consistent(self) -> None:
        """The seat to move holds cards; a finished deal has a full finishing order."""
        deal = self.deal
        if deal.finished:
            assert deal.to_move is None and deal.legal_moves() == []
            assert sorted(deal.finish_order) == list(range(self.players))
            forfeits = [s for kind, s in self.events if kind == "forfeit"]
            # forfeits took the worst places, later ones the better of those still free
            assert deal.finish_order[len(deal.finish_order) - len(forfeits) :] == forfeits[::-1]
        else:
            seat = deal.to_move
            assert seat is not None and deal.hand(seat)
            assert seat not in deal.finish_order
            assert len(set(deal.finish_order)) == len(deal.finish_order) < self.players - 1
            assert all(not deal.hand(s) for s in deal.finish_order)
            if deal.pile is None and not self.rules.lead_pass:
                assert Move.PASS not in deal.legal_moves()
            else:
                assert Move.PASS in deal.legal_moves()

    @invariant()
    def the_deal_follows_the_reference_model(self) -> None:
        """Turns, passes, tricks, clearing, revolution, going out and places as in oracle.RefDeal,
        and each view's `passed` and `sat_out` flags."""
        deal, ref = self.deal, self.ref
        trace = [f"{k} {a}" for k, a in self.events]
        assert deal.to_move == ref.to_move, trace
        assert deal.finished == ref.finished, trace
        assert deal.revolution == ref.revolution, trace
        expected_pile = None if ref.pile is None else Move.parse(ref.pile.text())
        if not deal.finished:  # a finished deal's pile is not a rule's business
            assert deal.pile == expected_pile, trace
        assert list(deal.finish_order) == ref.finish_order, trace
        if deal.finished:
            return
        assert deal.lock == "".join(s for s in "CDHS" if s in ref.lock), trace
        mover = deal.view(deal.to_move) if deal.to_move is not None else None
        if mover is not None:  # a view derives the lock from the trick: the same legal moves
            assert mover.lock == deal.lock
            assert set(mover.legal_moves()) == set(deal.legal_moves()), trace
        players = deal.view(0).to_dict()["players"]
        assert [p["passed"] for p in players] == [s in ref.passed for s in range(self.players)]
        if self.rules.pass_is_final:
            sat_out = [s in ref.sat_out for s in range(self.players)]
            assert [p["sat_out"] for p in players] == sat_out

    @invariant()
    def legal_moves_agree_with_the_oracle(self) -> None:
        """The deal's legal moves are the rules' legal moves for the hand to move (oracle.py)."""
        deal = self.deal
        if deal.finished:
            return
        pile = None if deal.pile is None else oracle.from_text(str(deal.pile))
        expected = oracle.legal_texts(
            names(deal.hand(deal.to_move)),
            pile,
            deal.revolution,
            self.rules.runs,
            self.rules.equal_beats,
            runs_above=self.rules.runs_above,
            spade_three=self.rules.spade_three,
            lead_pass=self.rules.lead_pass,
            lock=self.ref.lock,
        )
        found = {str(m) for m in deal.legal_moves()}
        assert {Move.parse(t) for t in expected} == {Move.parse(t) for t in found}

    @invariant()
    def views_show_no_other_hand(self) -> None:
        """A view is JSON-ready and never contains another player's cards."""
        # the public plays, with the cards that their jokers were declared to stand for
        public = card_tokens({"plays": [str(m) for _, m in self.deal.moves]})
        for seat in range(self.players):
            d = self.deal.view(seat).to_dict()
            json.dumps(d)
            assert sorted(d["hand"]) == names(self.deal.hand(seat))
            hidden = {str(c) for s in range(self.players) if s != seat for c in self.deal.hand(s)}
            mine = set(d["hand"])
            assert not (card_tokens(d) - mine - public) & hidden


DealMachine.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_deal_machine = DealMachine.TestCase
