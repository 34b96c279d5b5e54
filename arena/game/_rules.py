"""Rules options, presets, and the judgement of moves: beating, clearing, revolutions."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from ._cards import JOKER_INDEX, SUITS, Card, parse_hand
from ._judge import judge_of, next_lock
from ._moves import PASS, Move

ON_FAULT_CHOICES: Final = ("forfeit", "pass")
TRICK_END_CHOICES: Final = ("others", "all-but-one")
EXCHANGE_FAULT_CHOICES: Final = ("lowest", "highest")

_DAIFUGO: Final[dict[str, Any]] = {
    "jokers": 1,
    "runs": True,
    "revolution": True,
    "eight_stop": True,
    "pass_is_final": True,
    "equal_beats": False,
}
"""The ``daifugo`` preset, which the ``uecda`` preset extends."""

_PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "runs": {"runs": True},
    "daifugo": {**_DAIFUGO},
    # What the UEC computer Daihinmin contest's reference server (tndhms) enforces by default
    # (docs/uecda.md): the Daifugo options plus runs entirely above, revolution by a run of
    # five, suit lock, the 3 of spades over a lone joker, no clearing by 2s, the 3 of diamonds
    # leading every deal, passes on an empty table, its trick end and its pass limit.
    "uecda": {
        **_DAIFUGO,
        "runs_above": True,
        "run_revolution": 5,
        "suit_lock": True,
        "spade_three": True,
        "top_clears": False,
        "opening_card": "3D",
        "scum_leads": False,
        "lead_pass": True,
        "trick_end": "all-but-one",
        "pass_limit": 20,
        "exchange_fault": "highest",
        "rounds": 100,
        "points": [5, 4, 3, 2, 1],
        "on_fault": "pass",
    },
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule variant of President: every option of docs/rules.md, with its default.

    New options are new fields with a default that keeps the old behaviour, so configs and
    records written before an option existed keep their meaning.
    """

    jokers: int = 0
    runs: bool = False
    equal_beats: bool = True
    pass_is_final: bool = False
    revolution: bool = False
    eight_stop: bool = False
    exchange: tuple[int, ...] = (2, 1)
    rounds: int = 5
    points: tuple[int, ...] | None = None
    on_fault: str = "forfeit"
    runs_above: bool = False
    run_revolution: int = 0
    suit_lock: bool = False
    spade_three: bool = False
    top_clears: bool = True
    opening_card: str = "3C"
    scum_leads: bool = True
    lead_pass: bool = False
    trick_end: str = "others"
    pass_limit: int = 0
    exchange_fault: str = "lowest"

    PRESETS: ClassVar[tuple[str, ...]] = tuple(_PRESETS)

    def __post_init__(self) -> None:
        def fail(message: str) -> None:
            raise ValueError(message)

        for name in ("runs", "equal_beats", "pass_is_final", "revolution", "eight_stop",
                     "runs_above", "suit_lock", "spade_three", "top_clears", "scum_leads",
                     "lead_pass"):
            if not isinstance(getattr(self, name), bool):
                fail(f"rules option {name!r} must be true or false, not {getattr(self, name)!r}")
        if not _is_int(self.jokers) or not 0 <= self.jokers <= 2:
            fail(f"rules option 'jokers' must be 0, 1 or 2, not {self.jokers!r}")
        exchange: Any = self.exchange
        if exchange is False or exchange is None:
            exchange = ()
        if isinstance(exchange, (str, bytes)) or not isinstance(exchange, Iterable):
            fail(f"rules option 'exchange' must be a list of card counts, not {exchange!r}")
        exchange = tuple(exchange)
        if not all(_is_int(c) and c >= 1 for c in exchange):
            fail(f"rules option 'exchange' must list whole numbers of at least 1, not {exchange!r}")
        object.__setattr__(self, "exchange", exchange)
        if not _is_int(self.rounds) or self.rounds < 1:
            fail(f"rules option 'rounds' must be a whole number of at least 1, not {self.rounds!r}")
        points: Any = self.points
        if points is not None:
            if isinstance(points, (str, bytes)) or not isinstance(points, Iterable):
                fail(f"rules option 'points' must be a list of numbers, not {points!r}")
            points = tuple(points)
            if not points or not all(_is_int(p) for p in points):
                fail(f"rules option 'points' must list whole numbers, not {points!r}")
            object.__setattr__(self, "points", points)
        if self.on_fault not in ON_FAULT_CHOICES:
            fail(f"rules option 'on_fault' must be 'forfeit' or 'pass', not {self.on_fault!r}")
        if not _is_int(self.run_revolution) or self.run_revolution < 0:
            fail("rules option 'run_revolution' must be 0 (never) or a run length, "
                 f"not {self.run_revolution!r}")
        if not _is_int(self.pass_limit) or self.pass_limit < 0:
            fail("rules option 'pass_limit' must be 0 (none) or a number of passes, "
                 f"not {self.pass_limit!r}")
        if self.trick_end not in TRICK_END_CHOICES:
            fail("rules option 'trick_end' must be 'others' or 'all-but-one', "
                 f"not {self.trick_end!r}")
        if self.exchange_fault not in EXCHANGE_FAULT_CHOICES:
            fail("rules option 'exchange_fault' must be 'lowest' or 'highest', "
                 f"not {self.exchange_fault!r}")
        try:
            opening = Card.parse(self.opening_card)
        except ValueError:
            opening = None
        if opening is None or opening.index == JOKER_INDEX:
            fail("rules option 'opening_card' must be a natural card such as 3C, "
                 f"not {self.opening_card!r}")
        else:
            object.__setattr__(self, "opening_card", str(opening))
        if self.lead_pass and not self.pass_limit:
            fail("rules option 'lead_pass' needs 'pass_limit' (at least 1): without it a "
                 "deal of players who only pass would never end")

    # ------------------------------------------------------------------ construction

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` (``standard``, ``runs``, ``daifugo``) with ``overrides``."""
        if name not in _PRESETS:
            raise ValueError(f"unknown rules preset {name!r}; known: {', '.join(_PRESETS)}")
        return cls.from_dict({**_PRESETS[name], **overrides})

    @classmethod
    def from_dict(cls, mapping: Mapping[str, Any]) -> Rules:
        """Rules from a YAML ``rules:`` mapping: an optional ``preset`` plus options.

        Raises ``ValueError`` naming an unknown key or a bad value.
        """
        if not isinstance(mapping, Mapping):
            raise ValueError(f"rules must be a mapping of options, not {mapping!r}")
        values = dict(mapping)
        preset = values.pop("preset", None)
        base: dict[str, Any] = {}
        if preset is not None:
            if preset not in _PRESETS:
                raise ValueError(
                    f"unknown rules preset {preset!r}; known: {', '.join(_PRESETS)}")
            base = dict(_PRESETS[preset])
        names = cls.option_names()
        for key in values:
            if key not in names:
                raise ValueError(
                    f"unknown rules option {key!r}; known: preset, {', '.join(names)}")
        return cls(**{**base, **values})

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The option keys, in documentation order."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.init)

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready; ``Rules.from_dict(r.to_dict()) == r``.

        The options added after the record format was fixed (the UECda ones) appear only when
        they differ from their default, so records of the older options stay byte for byte
        what they were.
        """
        out: dict[str, Any] = {}
        for name in self.option_names():
            value = getattr(self, name)
            if name in _LATER_OPTIONS and value == _LATER_OPTIONS[name]:
                continue
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed."""
        return Rules.from_dict({**self.to_dict(), **changes})

    def check_table(self, players: int) -> None:
        """Raise ``ValueError`` naming an option these rules cannot use at a table of
        ``players`` (today only ``points``, whose length must be the table's size)."""
        if self.points is not None and len(self.points) != players:
            raise ValueError(
                f"rules option 'points' lists {len(self.points)} places, "
                f"but the table has {players} players")

    def points_for(self, players: int) -> tuple[int, ...]:
        """Points by finishing place for a table of ``players``."""
        self.check_table(players)
        if self.points is None:
            return tuple(range(players - 1, -1, -1))
        return self.points

    def exchange_pairs(self, players: int) -> list[tuple[int, int, int]]:
        """``(high place, low place, count)`` for each exchanging pair at this table size."""
        return [(i, players - 1 - i, count) for i, count in enumerate(self.exchange)
                if i < players - 1 - i]

    # ------------------------------------------------------------------ judgement

    def beats(self, move: Move | str, pile: Move | str | None, revolution: bool = False) -> bool:
        """May ``move`` be played on ``pile`` (``None``: an empty pile) under these rules?

        Whether the player holds the cards is not judged here.
        """
        return self.why_not(Move.parse(move), None if pile is None else Move.parse(pile),
                            revolution) is None

    def why_not(self, move: Move, pile: Move | None, revolution: bool = False,
                lock: int = 0) -> str | None:
        """The reason ``move`` may not go on ``pile``, or ``None`` when it may.

        ``lock`` is the suit lock in force (a bit mask of suits, bit 0 clubs .. bit 3 spades;
        0 for none, see :func:`trick_lock`).
        """
        return judge_of(self).why_not(move, pile, revolution, lock)

    def clears(self, move: Move | str, revolution: bool = False) -> bool:
        """Does ``move`` clear the pile, judged in the order in force when it is played?"""
        return judge_of(self).clears(Move.parse(move), revolution)

    def starts_revolution(self, move: Move | str) -> bool:
        """Does ``move`` reverse the rank order (a set of four or more, with revolutions on, or
        a run of ``run_revolution`` or more)?"""
        return judge_of(self).starts_revolution(Move.parse(move))

    def clears_pile(self, move: Move, pile: Move | None, revolution: bool) -> bool:
        """Does ``move``, played on ``pile``, clear it: :meth:`clears`, or the 3 of spades
        alone on a lone joker (``spade_three``)?"""
        return judge_of(self).clears_pile(move, pile, revolution)

    def legal_moves(self, hand: Iterable[Card | str], pile: Move | str | None = None,
                    revolution: bool = False, lock: str = "") -> list[Move]:
        """Every distinct legal move from ``hand`` on ``pile``, each once.

        Includes a pass whenever the pile is not empty (and on an empty pile with
        ``lead_pass``), and moves in which a joker stands for a card the player also holds.
        ``lock`` names the locked suits (``"SH"``), empty for none.
        """
        mask, smask, jokers = parse_hand(hand)
        if jokers > self.jokers:
            raise ValueError(f"the hand holds {jokers} jokers; these rules have {self.jokers}")
        return self.moves(mask, smask, jokers, None if pile is None else Move.parse(pile),
                          revolution, suit_mask(lock))

    def moves(self, mask: int, smask: int, jokers: int, pile: Move | None,
              revolution: bool, lock: int = 0) -> list[Move]:
        """Legal moves from a hand given as masks (the engine's fast path)."""
        return judge_of(self).moves(mask, smask, jokers, pile, revolution, lock)


_LATER_OPTIONS: Final[dict[str, Any]] = {
    f.name: f.default for f in dataclasses.fields(Rules)
    if f.name in ("runs_above", "run_revolution", "suit_lock", "spade_three", "top_clears",
                  "opening_card", "scum_leads", "lead_pass", "trick_end", "pass_limit",
                  "exchange_fault")
}


def suit_mask(suits: str | int) -> int:
    """Suit letters (``"SH"``) as a bit mask (bit 0 clubs .. bit 3 spades); ints pass through."""
    if isinstance(suits, int):
        return suits
    out = 0
    for letter in suits.upper():
        if letter not in SUITS:
            raise ValueError(f"not a suit: {letter!r} (suits are C D H S)")
        out |= 1 << SUITS.index(letter)
    return out


def trick_lock(rules: Rules, trick: Iterable[tuple[int, Move]]) -> tuple[int, int]:
    """``(lock, suits)`` after the plays of a trick: the locked suits (0: none) and the suits
    of the top play.

    With ``suit_lock``, two plays in a row (passes between them do not count) on the same
    suits lock the trick to those suits; a set of jokers alone lifts the lock.
    """
    lock = suits = 0
    if not rules.suit_lock:
        return 0, 0
    for _, move in trick:
        if move.kind == PASS:
            continue
        lock, suits = next_lock(lock, suits, move)
    return lock, suits


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

