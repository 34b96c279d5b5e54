"""An independent, deliberately simple (and slow) statement of docs/rules.md sections 2, 4, 5 and 6.

It enumerates combinations from first principles, card by card, without bit tricks or tables,
so that property tests can check the engine against a second reading of the rules. It knows
nothing about the engine beyond the text notation of moves.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations, product

RANKS = "3456789TJQKA2"
SUITS = "CDHS"
TOP, BOTTOM, EIGHT = 12, 0, RANKS.index("8")


def rank_of(card: str) -> int:
    """A natural card's rank, 0 (the 3) to 12 (the 2)."""
    return RANKS.index(card[0])


@dataclass(frozen=True)
class Combo:
    """A combination: a set (naturals of one rank plus bare jokers) or a run (naturals of one
    suit plus jokers, each standing at a named place)."""

    kind: str
    naturals: frozenset[str]
    jokers: int
    places: frozenset[str] = frozenset()

    @property
    def size(self) -> int:
        return len(self.naturals) + self.jokers

    @property
    def rank(self) -> int | None:
        """A set's rank; ``None`` for a set of jokers alone (and for runs)."""
        if self.kind != "set" or not self.naturals:
            return None
        return rank_of(next(iter(self.naturals)))

    @property
    def low(self) -> int:
        return min(rank_of(c) for c in self.naturals | self.places)

    @property
    def high(self) -> int:
        return max(rank_of(c) for c in self.naturals | self.places)

    def text(self) -> str:
        """The move's text with every joker of a run declared."""
        parts = sorted(self.naturals)
        if self.kind == "set":
            parts += ["JK"] * self.jokers
        else:
            parts += [f"JK={p}" for p in sorted(self.places)]
        return " ".join(parts)


def from_text(text: str) -> Combo:
    """Read a canonical move text (runs declare every joker) back into a combination."""
    tokens = text.split()
    naturals = frozenset(t for t in tokens if not t.startswith("JK"))
    places = frozenset(t[3:] for t in tokens if t.startswith("JK="))
    jokers = sum(1 for t in tokens if t.startswith("JK"))
    if len({c[0] for c in naturals}) <= 1:
        return Combo("set", naturals, jokers)
    return Combo("run", naturals, jokers, places)


def combos(hand: list[str], runs: bool) -> set[Combo]:
    """Every combination that can be made from ``hand`` (card names, ``JK`` for a joker)."""
    naturals = [c for c in hand if c != "JK"]
    jokers = hand.count("JK")
    out: set[Combo] = set()
    by_rank: dict[str, list[str]] = defaultdict(list)
    for c in naturals:
        by_rank[c[0]].append(c)
    for cards in by_rank.values():
        for k in range(1, len(cards) + 1):
            for chosen in combinations(cards, k):
                for j in range(jokers + 1):
                    out.add(Combo("set", frozenset(chosen), j))
    for j in range(1, jokers + 1):
        out.add(Combo("set", frozenset(), j))
    if not runs:
        return out
    held = set(naturals)
    for suit in SUITS:
        for low in range(13):
            for high in range(low + 2, 13):
                places = [RANKS[r] + suit for r in range(low, high + 1)]
                if sum(1 for p in places if p not in held) > jokers:
                    continue
                # each place is filled by the natural card (when held) or by a joker
                choices = [(p, None) if p in held else (None,) for p in places]
                for filled in product(*choices):
                    nat = [c for c in filled if c is not None]
                    jk = [p for p, c in zip(places, filled, strict=True) if c is None]
                    # jokers beside naturals of a single rank make a set, never a run
                    if len(jk) <= jokers and len(nat) >= 2:
                        out.add(Combo("run", frozenset(nat), len(jk), frozenset(jk)))
    return out


def suits_of(c: Combo, previous: frozenset[str]) -> frozenset[str]:
    """Section 12's suits of a play for the lock: a run's suit; a set's natural suits plus, per
    joker, a free suit of the previous play, else the lowest free suit in the order C D H S."""
    if c.kind == "run":
        return frozenset(next(iter(c.naturals))[1])
    suits = {card[1] for card in c.naturals}
    for _ in range(c.jokers):
        free = [s for s in SUITS if s in previous and s not in suits] or [
            s for s in SUITS if s not in suits]
        if free:
            suits.add(free[0])
    return frozenset(suits)


def beats(new: Combo, pile: Combo | None, revolution: bool, equal_beats: bool, *,
          runs_above: bool = False, spade_three: bool = False,
          lock: frozenset[str] = frozenset()) -> bool:
    """May ``new`` be played on ``pile`` (sections 4 and 12)?"""
    if pile is None:
        return True
    jokers_alone = new.kind == "set" and not new.naturals
    if lock and not jokers_alone and suits_of(new, lock) != lock:
        return False
    if (spade_three and pile.kind == "set" and not pile.naturals and pile.jokers == 1
            and new.kind == "set" and new.naturals == frozenset({"3S"}) and new.jokers == 0):
        return True
    if new.kind != pile.kind or new.size != pile.size:
        return False
    if new.kind == "run" and runs_above:
        return new.high < pile.low if revolution else new.low > pile.high
    if new.kind == "set":
        if pile.rank is None:  # jokers alone: only an equal set of jokers, with equal_beats
            return new.rank is None and equal_beats
        if new.rank is None:
            return True
        stronger, weaker = (pile.rank, new.rank) if revolution else (new.rank, pile.rank)
    elif revolution:
        stronger, weaker = pile.low, new.low
    else:
        stronger, weaker = new.high, pile.high
    return stronger > weaker or (equal_beats and stronger == weaker)


def clears(c: Combo, revolution: bool, eight_stop: bool, top_clears: bool = True) -> bool:
    """Does ``c`` clear the pile (section 6), judged in the order in force when played?"""
    if c.kind == "set":
        if c.rank is None:
            return False
        if top_clears and c.rank == (BOTTOM if revolution else TOP):
            return True
        return eight_stop and c.rank == EIGHT
    return eight_stop and c.low <= EIGHT <= c.high


def starts_revolution(c: Combo, revolution_option: bool, run_revolution: int = 0) -> bool:
    """Does ``c`` reverse the order (sections 5 and 12)?"""
    if not revolution_option:
        return False
    if c.kind == "set":
        return c.size >= 4
    return run_revolution > 0 and c.size >= run_revolution


def legal_texts(
    hand: list[str], pile: Combo | None, revolution: bool, runs: bool, equal_beats: bool, *,
    runs_above: bool = False, spade_three: bool = False, lead_pass: bool = False,
    lock: frozenset[str] = frozenset(),
) -> set[str]:
    """The texts of every legal move: each combination that beats the pile, and a pass on a
    pile (or always, with ``lead_pass``)."""
    out = {c.text() for c in combos(hand, runs)
           if beats(c, pile, revolution, equal_beats, runs_above=runs_above,
                    spade_three=spade_three, lock=lock)}
    if pile is not None or lead_pass:
        out.add("pass")
    return out


def _mix(z: int) -> int:
    mask = (1 << 64) - 1
    z &= mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def documented_shuffle(items: list[int], seed: int) -> list[int]:
    """docs/rules.md section 3's shuffle (SplitMix64 driving Fisher-Yates), written again."""
    mask = (1 << 64) - 1
    deck, state = list(items), seed & mask
    for i in range(len(deck) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        j = (_mix(state) * (i + 1)) >> 64
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class RefDeal:
    """A second, plain reading of docs/rules.md section 3 (turns, passing, tricks, clearing, going
    out, last place) plus sections 5, 6 and 9's forfeit: a list-and-set model of one deal."""

    def __init__(
        self,
        hands: list[list[str]],
        leader: int,
        *,
        pass_is_final: bool,
        revolution_option: bool,
        eight_stop: bool,
        top_clears: bool = True,
        run_revolution: int = 0,
        suit_lock: bool = False,
        spade_three: bool = False,
        trick_end: str = "others",
        pass_limit: int = 0,
        seed: int = 0,
    ) -> None:
        self.top_clears = top_clears
        self.run_revolution = run_revolution
        self.suit_lock = suit_lock
        self.spade_three = spade_three
        self.trick_end = trick_end
        self.pass_limit = pass_limit
        self.seed = seed
        self.leader = leader  # who leads the current trick
        self.moves = 0
        self.pass_run = 0
        self.lock: frozenset[str] = frozenset()
        self.top_suits: frozenset[str] = frozenset()
        self.hands = [list(h) for h in hands]
        self.n = len(hands)
        self.pass_is_final = pass_is_final
        self.revolution_option = revolution_option
        self.eight_stop = eight_stop
        self.to_move: int | None = leader
        self.pile: Combo | None = None
        self.last: int | None = None  # who made the last play of the trick
        self.passed: set[int] = set()  # passed since the last play
        self.sat_out: set[int] = set()  # passed earlier in this trick (pass_is_final)
        self.revolution = False
        self.finishers: list[int] = []  # best places first
        self.forfeits: list[int] = []  # in the order they happened
        self.finished = False

    @property
    def finish_order(self) -> list[int]:
        """Places taken so far, best first; forfeits hold the worst places."""
        return self.finishers + self.forfeits[::-1]

    def holds(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def _next_holder(self, seat: int, skip_sat_out: bool) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.holds(s) and not (skip_sat_out and s in self.sat_out):
                return s
        raise AssertionError("nobody holds cards")

    def _deal_over(self) -> bool:
        holders = [s for s in range(self.n) if self.holds(s)]
        if len(holders) > 1:
            return False
        self.finishers += holders  # the last player holding cards takes the last free place
        self.finished = True
        self.to_move = None
        return True

    @property
    def started(self) -> bool:
        """Whether the current trick has had a play or a pass."""
        return self.last is not None or bool(self.passed or self.sat_out)

    def _trick_over(self) -> bool:
        owner = self.last if self.last is not None else self.leader
        holders = [s for s in range(self.n) if self.holds(s)]
        out = [s for s in holders if s in self.passed or s in self.sat_out]
        if self.trick_end == "all-but-one" and len(out) >= len(holders) - 1:
            return True
        return all(s in out for s in holders if s != owner)

    def _end_trick(self) -> None:
        owner = self.last if self.last is not None else self.leader
        leader = owner if self.holds(owner) else self._next_holder(owner, False)
        self.pile, self.last = None, None
        self.passed, self.sat_out = set(), set()
        self.lock, self.top_suits = frozenset(), frozenset()
        self.to_move = self.leader = leader

    def _carry_on(self, seat: int) -> None:
        if self.started and self._trick_over():
            self._end_trick()
        else:
            self.to_move = self._next_holder(seat, skip_sat_out=True)

    def _draw(self) -> None:
        holders = [s for s in range(self.n) if self.holds(s)]
        seed = _mix(self.seed + self.moves * 0xD1B54A32D192ED03)
        self.finishers += documented_shuffle(holders, seed)
        self.finished = True
        self.to_move = None

    def play(self, text: str) -> None:
        """Apply the text of a legal move for the seat to move."""
        seat = self.to_move
        assert seat is not None
        self.moves += 1
        if text == "pass":
            self.passed.add(seat)
            if self.pass_is_final:
                self.sat_out.add(seat)
            self.pass_run += 1
            if self.pass_limit and self.pass_run >= self.pass_limit:
                self._draw()
                return
            self._carry_on(seat)
            return
        self.pass_run = 0
        c = from_text(text)
        for card in c.naturals:
            self.hands[seat].remove(card)
        for _ in range(c.jokers):
            self.hands[seat].remove("JK")
        cleared = clears(c, self.revolution, self.eight_stop, self.top_clears) or (
            self.spade_three and self.pile is not None and self.pile.kind == "set"
            and not self.pile.naturals and self.pile.jokers == 1
            and c.naturals == frozenset({"3S"}) and c.jokers == 0)
        if starts_revolution(c, self.revolution_option, self.run_revolution):
            self.revolution = not self.revolution
        if self.suit_lock:
            if c.kind == "set" and not c.naturals:
                self.lock, self.top_suits = frozenset(), frozenset()
            else:
                mine = suits_of(c, self.top_suits)
                if not self.lock and self.top_suits and mine == self.top_suits:
                    self.lock = mine
                self.top_suits = mine
        self.pile, self.last, self.passed = c, seat, set()
        if not self.holds(seat):
            self.finishers.append(seat)
        if self._deal_over():
            return
        if cleared:
            self._end_trick()
        else:
            self._carry_on(seat)

    def forfeit(self, seat: int) -> None:
        """The seat leaves the deal at once with its cards; it takes the worst free place."""
        self.hands[seat] = []
        self.forfeits.append(seat)
        self.passed.discard(seat)
        self.sat_out.discard(seat)
        if self._deal_over():
            return
        if self.started and self._trick_over():
            self._end_trick()
        elif self.to_move == seat:
            self.to_move = self._next_holder(seat, skip_sat_out=self.started)
