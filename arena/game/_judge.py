"""The judgement of moves (beating, clearing, revolutions, legal moves) on the engine's hot path.

:class:`Judge` holds the options of one :class:`~arena.game.Rules` that play reads at every
move as plain attributes, and judges with them; ``Rules`` keeps the public methods and
delegates here, so there is one judgement. This module is among those compiled with mypyc
where the machine can (docs/architecture.md, "The compiled engine"), which is why it reads
no dataclass at play time.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from ._cards import RANK_EIGHT, RANK_TOP, SUITS, cards_of
from ._moves import PASS, RUN, SET, Move
from ._tables import JOKER_SET_OF_SIZE, JOKER_SETS, SETS, SETS_OF_SIZE, runs, runs_beating

THREE_OF_SPADES: Final = 3  # the card index of 3S (rank 0, suit 3)
_SPADE_THREE_MASK: Final = 1 << THREE_OF_SPADES


def suit_letters(mask: int) -> str:
    """A suit bit mask as letters in the order C D H S."""
    return "".join([SUITS[s] for s in range(4) if mask >> s & 1])


def move_suits(move: Move, previous: int) -> int:
    """The suits ``move`` stands on, for the suit lock.

    A run stands on its suit; a set on its natural cards' suits plus one suit per joker. A
    joker in a set whose suit is declared (``9C JK=9H``) stands on that suit; an undeclared
    one takes a suit of the previous play (``previous``, a mask) that the set's cards leave
    free, else the lowest free suit (C, D, H, S): so it continues a lock whenever it can. A
    set of jokers alone stands on no suit (0).
    """
    if move.kind == RUN:
        assert move.suit is not None
        return 1 << move.suit
    rank = move.rank
    if rank is None:
        return 0
    suits = ((move.mask | move.jmask) >> (rank << 2)) & 15
    for _ in range(move.jokers - bin(move.jmask).count("1")):
        free = previous & ~suits & 15 or ~suits & 15
        if not free:
            break
        suits |= free & -free
    return suits


def follows_lock(move: Move, lock: int) -> bool:
    """Whether ``move`` keeps to the locked suits ``lock`` (a set of jokers alone always does)."""
    if move.kind == SET and move.rank is None:
        return True
    return move_suits(move, lock) == lock


def next_lock(lock: int, suits: int, move: Move) -> tuple[int, int]:
    """The ``(lock, suits)`` of a trick after ``move`` is played on a pile standing on
    ``suits`` (0 for an empty pile) with ``lock`` in force."""
    if move.kind == SET and move.rank is None:
        return 0, 0
    mine = move_suits(move, suits)
    if not lock and suits and mine == suits:
        lock = mine
    return lock, mine


class Options(Protocol):
    """The options of :class:`arena.game.Rules` that a judge reads (``Rules`` has them all,
    and is the only kind of options there is: this names them without importing ``_rules``,
    which imports this module)."""

    @property
    def jokers(self) -> int: ...
    @property
    def runs(self) -> bool: ...
    @property
    def equal_beats(self) -> bool: ...
    @property
    def pass_is_final(self) -> bool: ...
    @property
    def revolution(self) -> bool: ...
    @property
    def eight_stop(self) -> bool: ...
    @property
    def runs_above(self) -> bool: ...
    @property
    def run_revolution(self) -> int: ...
    @property
    def suit_lock(self) -> bool: ...
    @property
    def spade_three(self) -> bool: ...
    @property
    def top_clears(self) -> bool: ...
    @property
    def lead_pass(self) -> bool: ...
    @property
    def trick_end(self) -> str: ...
    @property
    def pass_limit(self) -> int: ...


class Judge:
    """The judgement of moves under one set of rules (see :func:`judge_of`)."""

    __slots__ = ("all_but_one", "eight_stop", "equal_beats", "jokers", "lead_pass",
                 "pass_is_final", "pass_limit", "revolution", "rules", "run_revolution", "runs",
                 "runs_above", "spade_three", "suit_lock", "top_clears")

    rules: Options
    jokers: int
    runs: bool
    equal_beats: bool
    pass_is_final: bool
    revolution: bool
    eight_stop: bool
    runs_above: bool
    run_revolution: int
    suit_lock: bool
    spade_three: bool
    top_clears: bool
    lead_pass: bool
    all_but_one: bool
    pass_limit: int

    def __new__(cls, *args: Any, **kwargs: Any) -> Judge:
        # A blank judge for copies and pickles of a deal (a compiled class's default
        # __new__ runs __init__).
        return object.__new__(cls)

    def __init__(self, rules: Options) -> None:
        self.rules = rules
        self.jokers = rules.jokers
        self.runs = rules.runs
        self.equal_beats = rules.equal_beats
        self.pass_is_final = rules.pass_is_final
        self.revolution = rules.revolution
        self.eight_stop = rules.eight_stop
        self.runs_above = rules.runs_above
        self.run_revolution = rules.run_revolution
        self.suit_lock = rules.suit_lock
        self.spade_three = rules.spade_three
        self.top_clears = rules.top_clears
        self.lead_pass = rules.lead_pass
        self.all_but_one = rules.trick_end == "all-but-one"
        self.pass_limit = rules.pass_limit

    def refusal(self, seat: int, hand: int, jokers: int, move: Move, pile: Move | None,
                revolution: bool, lock: int) -> str | None:
        """Why ``seat``, holding ``hand`` (a card mask) and ``jokers``, may not play ``move``
        on ``pile`` now, or ``None`` when it may: the one judgement of an answer's
        legality, which :meth:`arena.game.Deal.play` raises and
        :func:`arena.game.judge_move` gives for a seat's view."""
        if move.kind == PASS:
            if pile is None and not self.lead_pass:
                return "the leader may not pass"
            return None
        if move.mask & ~hand or move.jokers > jokers:
            missing = cards_of(move.mask & ~hand, max(0, move.jokers - jokers))
            return f"seat {seat} does not hold {' '.join(map(str, missing))}"
        return self.why_not(move, pile, revolution, lock)

    def why_not(self, move: Move, pile: Move | None, revolution: bool, lock: int) -> str | None:
        """The reason ``move`` may not go on ``pile``, or ``None`` when it may
        (:meth:`arena.game.Rules.why_not`)."""
        if move.kind == PASS:
            if pile is None and not self.lead_pass:
                return "the leader may not pass"
            return None
        if move.kind == RUN and not self.runs:
            return "runs are not played under these rules (option runs: false)"
        if move.jokers > self.jokers:
            return f"these rules have {self.jokers} joker(s)"
        if pile is None:
            return None
        if pile.kind == PASS:
            raise ValueError("a pass is never on the pile")
        if (self.spade_three and pile.rank is None and pile.kind == SET and pile.size == 1
                and move.size == 1 and move.mask == _SPADE_THREE_MASK):
            return None
        if move.kind != pile.kind:
            return f"a {move.kind} cannot be played on a {pile.kind}"
        if move.size != pile.size:
            noun = "set" if move.kind == SET else "run"
            return f"a {noun} of {pile.size} is beaten only by a {noun} of {pile.size}"
        mine: int
        theirs: int
        if move.kind == SET:
            pile_rank = pile.rank
            if pile_rank is None:
                if move.rank is None and self.equal_beats:
                    return None
                return "only an equal set of jokers may follow a set of jokers" + (
                    "" if self.equal_beats else ", and equal plays are off (equal_beats: false)")
            move_rank = move.rank
            if move_rank is None:
                return None
            mine, theirs = move_rank, pile_rank
        else:
            move_low, pile_low = move.low, pile.low
            assert move_low is not None and pile_low is not None
            mine, theirs = move_low, pile_low
            if self.runs_above:
                if (mine - theirs >= pile.size) if not revolution else (theirs - mine >= pile.size):
                    return self._lock_reason(move, lock)
                return ("a run must lie entirely " + ("below" if revolution else "above")
                        + " the run on the pile (runs_above: true)")
        if mine == theirs:
            if not self.equal_beats:
                return "equal plays are off (equal_beats: false)"
            return self._lock_reason(move, lock)
        if (mine > theirs) != revolution:
            return self._lock_reason(move, lock)
        return "it does not beat the pile" + (" during the revolution" if revolution else "")

    def _lock_reason(self, move: Move, lock: int) -> str | None:
        if not lock or follows_lock(move, lock):
            return None
        return f"the suits are locked to {suit_letters(lock)} (suit_lock: true)"

    def clears(self, move: Move, revolution: bool) -> bool:
        """Does ``move`` clear the pile (:meth:`arena.game.Rules.clears`)?"""
        if move.kind == SET:
            rank = move.rank
            if rank is None:
                return False
            return (self.top_clears and rank == (0 if revolution else RANK_TOP)) or (
                self.eight_stop and rank == RANK_EIGHT)
        if move.kind == RUN:
            low, high = move.low, move.high
            assert low is not None and high is not None
            return self.eight_stop and low <= RANK_EIGHT <= high
        return False

    def clears_pile(self, move: Move, pile: Move | None, revolution: bool) -> bool:
        """Does ``move``, played on ``pile``, clear it (:meth:`arena.game.Rules.clears_pile`)?"""
        if self.clears(move, revolution):
            return True
        return (self.spade_three and pile is not None and pile.kind == SET
                and pile.rank is None and pile.size == 1 and move.mask == _SPADE_THREE_MASK
                and move.size == 1)

    def starts_revolution(self, move: Move) -> bool:
        """Does ``move`` reverse the rank order (:meth:`arena.game.Rules.starts_revolution`)?"""
        if not self.revolution:
            return False
        if move.kind == SET:
            return move.size >= 4
        return move.kind == RUN and 0 < self.run_revolution <= move.size

    def moves(self, mask: int, smask: int, jokers: int, pile: Move | None, revolution: bool,
              lock: int) -> list[Move]:
        """Legal moves from a hand given as masks (:meth:`arena.game.Rules.moves`)."""
        out = self._moves(mask, smask, jokers, pile, revolution)
        if lock:
            out = [m for m in out if m.kind == PASS or (m.rank is None and m.kind == SET)
                   or follows_lock(m, lock)]
        return out

    def _moves(self, mask: int, smask: int, jokers: int, pile: Move | None,
               revolution: bool) -> list[Move]:
        out: list[Move] = []
        if pile is None:
            for rank in range(13):
                suits = (mask >> (rank << 2)) & 15
                if suits:
                    out.extend(SETS[rank * 48 + suits * 3 + jokers])
            if jokers:
                out.extend(JOKER_SETS[jokers])
            if self.runs:
                for suit in range(4):
                    ranks = (smask >> (suit << 4)) & 0x1FFF
                    if ranks & (ranks - 1):
                        out.extend(runs(suit, ranks, jokers))
            if self.lead_pass:
                out.append(Move.PASS)
            return out
        size = pile.size
        if pile.kind == SET:
            top = pile.rank
            if top is None:
                if self.equal_beats and jokers >= size:
                    out.append(_joker_set(size))
            else:
                if revolution:
                    first, stop = 0, top + 1 if self.equal_beats else top
                else:
                    first, stop = top if self.equal_beats else top + 1, 13
                for r in range(first, stop):
                    suits = (mask >> (r << 2)) & 15
                    if suits:
                        out.extend(SETS_OF_SIZE[(r * 48 + suits * 3 + jokers) * 7 + size])
                if jokers >= size:
                    out.append(_joker_set(size))
            if (top is None and size == 1 and self.spade_three
                    and mask & _SPADE_THREE_MASK):
                out.append(SPADE_THREE)
        elif self.runs:
            low = pile.low
            assert low is not None
            equal = self.equal_beats
            if self.runs_above:
                low += -size if revolution else size
                equal = True
            for suit in range(4):
                ranks = (smask >> (suit << 4)) & 0x1FFF
                if ranks & (ranks - 1):
                    out.extend(runs_beating(suit, ranks, jokers, size, low, revolution, equal))
        out.append(Move.PASS)
        return out


def _joker_set(size: int) -> Move:
    move = JOKER_SET_OF_SIZE[size]
    assert move is not None
    return move


SPADE_THREE: Final = Move.parse("3S")

_JUDGES: dict[int, Judge] = {}


def judge_of(rules: Options) -> Judge:
    """The judge of ``rules`` (made once per rules object and kept)."""
    judge = _JUDGES.get(id(rules))
    if judge is None or judge.rules is not rules:
        if len(_JUDGES) >= 256:
            _JUDGES.clear()
        judge = _JUDGES[id(rules)] = Judge(rules)
    return judge
