"""One deal of President: dealing, leading, following, passing, tricks, going out.

The moves that change a deal; its state and what it shows (the hands, each seat's view, the
record) are :class:`DealState`'s (``_state.py``), which :class:`Deal` extends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from ._cards import JOKER_INDEX, Card, cards_of, parse_hand, suit_major_bit
from ._judge import next_lock
from ._moves import PASS, RUN, SET, Move
from ._rules import Rules, trick_lock
from ._shuffle import deal_seed, shuffled
from ._state import MAX_PLAYERS, MIN_PLAYERS, DealState
from ._view import View


class IllegalMove(ValueError):
    """A move the rules do not allow here; ``str(error)`` is the reason."""


def as_move(move: Move | str) -> Move:
    """``move`` as a :class:`Move`; text that is not a move raises :class:`IllegalMove`."""
    try:
        return Move.parse(move)
    except ValueError as error:
        raise IllegalMove(f"not a move: {error}") from None


def _next_table() -> list[int]:
    table = [-1] * (8 * 256)
    for seat in range(8):
        for seats in range(1, 256):
            for step in range(1, 9):
                other = (seat + step) % 8
                if seats >> other & 1:
                    table[seat << 8 | seats] = other
                    break
    return table


# _NEXT[seat << 8 | seats]: the first seat after `seat` in turn order among the bit set `seats`.
_NEXT: Final = _next_table()
# The deck before the shuffle, by number of jokers, and each natural card's two mask bits.
_DECKS: Final = [list(range(52)) + [JOKER_INDEX] * jokers for jokers in range(3)]
_BITS: Final = [1 << index for index in range(52)]
_SUIT_MAJOR_BITS: Final = [suit_major_bit(index) for index in range(52)]
# Whether this module runs as Python source: as in _state.py, for a blank Deal (copy), and
# defined here, not imported: compiled code reads a module's own Final for nothing.
INTERPRETED: Final = hasattr(_next_table, "__code__")
_new: Final = object.__new__


class Deal(DealState):
    """The state of one deal, played move by move through :meth:`play`.

    Attributes:
        rules: the rules in force.
        players: the table's size.
        number: the deal's number in its match (0-based).
        seed: the shuffle seed the cards were dealt from (``None`` for :meth:`from_hands`).
        to_move: the seat whose turn it is, ``None`` once the deal is over.
        pile: the combination on top of the pile, ``None`` when the pile is empty.
        revolution: whether the rank order is reversed.
        moves: every play and pass so far, as ``(seat, move)``.
        forfeits: ``(seat, number of moves made before it)`` for each seat that forfeited.
        finished: whether the deal is over.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ construction

    def __new__(cls, *args: Any, **kwargs: Any) -> Deal:
        # ``Deal.__new__(Deal)`` makes a deal without its constructor (copy): spelled out,
        # since a compiled class refuses ``object.__new__`` from outside ``__new__``.
        return object.__new__(cls)

    @classmethod
    def new(cls, rules: Rules, players: int, seed: int) -> Deal:
        """The first deal of a match seeded ``seed``: shuffled, dealt, led by the holder of
        the ``opening_card`` (``3C`` unless the rules say otherwise)."""
        deal = cls.dealt(rules, players, seed, 0)
        deal.begin(deal.holder(Card.parse(rules.opening_card)))
        return deal

    @classmethod
    def dealt(cls, rules: Rules, players: int, match_seed: int, number: int) -> Deal:
        """Deal ``number`` of a match, dealt but not begun (exchanges come first)."""
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        seed = deal_seed(match_seed, number)
        deck = shuffled(_DECKS[rules.jokers], seed)
        masks = [0] * players
        smasks = [0] * players
        jokers = [0] * players
        seat = number % players  # card i goes to seat (i + number) % players
        for index in deck:
            if index == JOKER_INDEX:
                jokers[seat] += 1
            else:
                masks[seat] |= _BITS[index]
                smasks[seat] |= _SUIT_MAJOR_BITS[index]
            seat += 1
            if seat == players:
                seat = 0
        return cls(rules, list(zip(masks, smasks, jokers, strict=True)), number, seed)

    @classmethod
    def from_hands(cls, rules: Rules, hands: Sequence[Iterable[Card | str]], leader: int,
                   seed: int | None = None) -> Deal:
        """A deal from given hands (lists of cards or card strings), led by seat ``leader``.

        ``seed`` is the deal's seed as a record gives it; only a ``pass_limit`` draw uses it.
        """
        parsed = [parse_hand(hand) for hand in hands]
        seen = 0
        jokers = 0
        for mask, _, count in parsed:
            if seen & mask:
                raise ValueError(f"card {cards_of(seen & mask)[0]} is in two hands")
            seen |= mask
            jokers += count
        if jokers > rules.jokers:
            raise ValueError(f"the hands hold {jokers} jokers; these rules have {rules.jokers}")
        deal = cls(rules, parsed, 0, seed)
        if not 0 <= leader < deal.players or not deal._counts[leader]:
            raise ValueError(f"the leader must be a seat holding cards, not {leader!r}")
        deal.begin(leader)
        return deal

    @classmethod
    def from_view(cls, view: View, hands: Sequence[Iterable[Card | str]]) -> Deal:
        """A deal in the state ``view`` shows, with ``hands`` as the hidden hands.

        This is how a bot simulates the future: it guesses the other hands (a
        *determinization*) and plays the copy forward. ``hands[view.seat]`` is ignored (the
        view's own hand is used); every other hand must hold as many cards as the view counts.
        """
        parsed = [parse_hand(view.hand) if seat == view.seat else parse_hand(hand)
                  for seat, hand in enumerate(hands)]
        if len(parsed) != view.players:
            raise ValueError(f"give {view.players} hands, not {len(parsed)}")
        for seat, (mask, _, jokers) in enumerate(parsed):
            if bin(mask).count("1") + jokers != view.counts[seat]:
                raise ValueError(f"seat {seat} holds {view.counts[seat]} cards in the view")
        deal = cls(view.rules, parsed, view.number, None)
        deal.to_move = view.to_move
        deal.pile = view.pile
        deal.revolution = view.revolution
        deal.moves = list(view.plays)
        deal._trick = list(view.trick)
        plays = [seat for seat, move in view.trick if move.kind != PASS]
        if plays:
            deal._last = plays[-1]
        elif view.trick:  # a trick of passes alone (lead_pass): its leader passed first
            deal._last = view.trick[0][0]
        else:
            deal._last = -1 if view.to_move is None else view.to_move
        deal._lock, deal._suits = trick_lock(view.rules, view.trick)
        run = 0
        for _, move in reversed(view.plays):
            if move.kind != PASS:
                break
            run += 1
        deal._pass_run = run
        deal._passed = sum(1 << s for s, p in enumerate(view.passed) if p)
        deal._sat_out = sum(1 << s for s, p in enumerate(view.sat_out) if p)
        places = deal._places = list(view.places)
        while deal._best < deal.players and places[deal._best] is not None:
            deal._best += 1
        while deal._worst >= 0 and places[deal._worst] is not None:
            deal._worst -= 1
        deal.finished = view.to_move is None and None not in places
        return deal

    def begin(self, leader: int) -> None:
        """Start play, ``leader`` to lead (after any exchange)."""
        if self.moves or self.to_move is not None:
            raise ValueError("the deal has already begun")
        self.to_move = leader
        self._last = leader
        if self._active & (self._active - 1) == 0:
            self._finish()

    def transfer(self, giver: int, receiver: int, cards: Iterable[Card | str]) -> None:
        """Move cards from one hand to another (the exchange before play)."""
        if self.moves or self.to_move is not None:
            raise ValueError("cards change hands only before the deal begins")
        mask, smask, jokers = parse_hand(cards)
        if mask & ~self._hands[giver] or jokers > self._jokers[giver]:
            held = " ".join(map(str, cards_of(mask, jokers)))
            raise IllegalMove(f"seat {giver} does not hold {held}")
        count = bin(mask).count("1") + jokers
        self._hands[giver] ^= mask
        self._shands[giver] ^= smask
        self._jokers[giver] -= jokers
        self._counts[giver] -= count
        self._hands[receiver] |= mask
        self._shands[receiver] |= smask
        self._jokers[receiver] += jokers
        self._counts[receiver] += count

    def copy(self) -> Deal:
        """An independent copy (for simulation)."""
        if INTERPRETED:
            other: Deal = _new(Deal)  # cheaper than a call of the Python function Deal.__new__
        else:
            other = Deal.__new__(Deal)
        other.rules = self.rules
        other._judge = self._judge
        other.players = self.players
        other.number = self.number
        other.seed = self.seed
        other._hands = self._hands[:]
        other._shands = self._shands[:]
        other._jokers = self._jokers[:]
        other._counts = self._counts[:]
        other._dealt = self._dealt
        other._active = self._active
        other._passed = self._passed
        other._sat_out = self._sat_out
        other._last = self._last
        other._places = self._places[:]
        other._best = self._best
        other._worst = self._worst
        other._trick = self._trick[:]
        other._lock = self._lock
        other._suits = self._suits
        other._pass_run = self._pass_run
        other._ctx = self._ctx
        other.to_move = self.to_move
        other.pile = self.pile
        other.revolution = self.revolution
        other.moves = self.moves[:]
        other.forfeits = self.forfeits[:]
        other.finished = self.finished
        return other

    # ------------------------------------------------------------------ playing

    def play(self, move: Move | str) -> None:
        """Play ``move`` (a Move or its text) for the seat to move.

        Raises :class:`IllegalMove` with the reason, leaving the state unchanged.
        """
        if move.__class__ is not Move:
            move = as_move(move)
        assert isinstance(move, Move)
        seat = self.to_move
        if seat is None:
            raise IllegalMove("the deal is over" if self.finished else "the deal has not begun")
        pile = self.pile
        judge = self._judge
        reason = judge.refusal(seat, self._hands[seat], self._jokers[seat], move, pile,
                               self.revolution, self._lock)
        if reason is not None:
            raise IllegalMove(reason)
        if move.kind == PASS:
            self._pass(seat)
            return
        self._hands[seat] ^= move.mask
        self._shands[seat] ^= move.smask
        self._jokers[seat] -= move.jokers
        left = self._counts[seat] - move.size
        self._counts[seat] = left
        self.moves.append((seat, move))
        self._trick.append((seat, move))
        clears = judge.clears_pile(move, pile, self.revolution)
        if judge.revolution and ((move.size >= 4 and move.kind == SET)
                                 or (move.kind == RUN and 0 < judge.run_revolution <= move.size)):
            self.revolution = not self.revolution
        if judge.suit_lock:
            self._lock, self._suits = next_lock(self._lock, self._suits, move)
        self.pile = move
        self._last = seat
        self._passed = 0
        self._pass_run = 0
        if not left:
            self._active ^= 1 << seat
            self._places[self._best] = seat
            self._best += 1
            if self._active & (self._active - 1) == 0:
                self._finish()
                return
        if clears:
            self._end_trick()
            return
        remaining = self._active & ~(1 << seat) & ~self._sat_out
        if remaining and not (left == 0 and self._all_but_one_out()):
            self.to_move = _NEXT[seat << 8 | remaining]
        else:
            self._end_trick()

    def _all_but_one_out(self) -> bool:
        # trick_end "all-but-one": the players who passed in this trick (sitting out, or
        # passed since the last play) number the players holding cards minus one.
        if not self._judge.all_but_one:
            return False
        active = self._active
        return (bin(active & (self._passed | self._sat_out)).count("1")
                >= bin(active).count("1") - 1)

    def _pass(self, seat: int) -> None:
        bit = 1 << seat
        self._passed |= bit
        if self._judge.pass_is_final:
            self._sat_out |= bit
        self.moves.append((seat, Move.PASS))
        self._trick.append((seat, Move.PASS))
        limit = self._judge.pass_limit
        if limit:
            self._pass_run += 1
            if self._pass_run >= limit:
                self._draw_places()
                return
        remaining = self._active & ~(1 << self._last) & ~self._passed & ~self._sat_out
        if remaining and not self._all_but_one_out():
            self.to_move = _NEXT[seat << 8 | remaining]
        else:
            self._end_trick()

    def _draw_places(self) -> None:
        # pass_limit reached: the players still holding cards take the free places in an
        # order drawn with the engine's shuffle, seeded from the deal's seed and move count.
        holders = [seat for seat in range(self.players) if self._active >> seat & 1]
        order = shuffled(holders, deal_seed(self.seed or 0, len(self.moves)))
        for seat in order[:-1]:
            self._places[self._best] = seat
            self._best += 1
            self._active ^= 1 << seat
        self._finish()

    def forfeit(self, seat: int) -> None:
        """Seat ``seat`` leaves the deal at once (fault policy ``forfeit``).

        Its cards leave play and it takes the worst place still free.
        """
        if self.finished:
            raise ValueError("the deal is over")
        bit = 1 << seat
        if not self._active & bit:
            raise ValueError(f"seat {seat} is not in the deal")
        self.forfeits.append((seat, len(self.moves)))
        self._hands[seat] = self._shands[seat] = self._jokers[seat] = self._counts[seat] = 0
        self._active ^= bit
        self._passed &= ~bit
        self._sat_out &= ~bit
        self._places[self._worst] = seat
        self._worst -= 1
        if self.to_move is None:  # before the deal begins: nothing else to settle
            return
        if self._active & (self._active - 1) == 0:
            self._finish()
            return
        if self.pile is None and not self._trick:
            if self.to_move == seat:
                self.to_move = _NEXT[seat << 8 | self._active]
            return
        remaining = self._active & ~(1 << self._last) & ~self._passed & ~self._sat_out
        if not remaining or self._all_but_one_out():
            self._end_trick()
        elif self.to_move == seat:
            self.to_move = _NEXT[seat << 8 | remaining]

    def _end_trick(self) -> None:
        last = self._last
        self.pile = None
        self._passed = 0
        self._sat_out = 0
        self._trick = []
        self._lock = self._suits = 0
        self.to_move = leader = (last if self._active >> last & 1
                                 else _NEXT[last << 8 | self._active])
        self._last = leader

    def _finish(self) -> None:
        if self._active:
            seat = self._active.bit_length() - 1
            self._places[self._best] = seat
            self._best += 1
        self.finished = True
        self.to_move = None
        self.pile = None
        self._passed = 0
        self._sat_out = 0
        self._trick = []
