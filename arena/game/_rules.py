"""Rules options, presets, and the judgement of moves: beating, clearing, revolutions."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from ._cards import RANK_EIGHT, RANK_TOP, Card, parse_hand
from ._moves import PASS, RUN, SET, Move
from ._tables import JOKER_SET_OF_SIZE, JOKER_SETS, SETS, SETS_OF_SIZE, runs, runs_beating

ON_FAULT_CHOICES: Final = ("forfeit", "pass")

_PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "runs": {"runs": True},
    "daifugo": {
        "jokers": 1,
        "runs": True,
        "revolution": True,
        "eight_stop": True,
        "pass_is_final": True,
        "equal_beats": False,
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

    PRESETS: ClassVar[tuple[str, ...]] = tuple(_PRESETS)

    def __post_init__(self) -> None:
        def fail(message: str) -> None:
            raise ValueError(message)

        for name in ("runs", "equal_beats", "pass_is_final", "revolution", "eight_stop"):
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
        """Every option, JSON-ready; ``Rules.from_dict(r.to_dict()) == r``."""
        out: dict[str, Any] = {}
        for name in self.option_names():
            value = getattr(self, name)
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

    def why_not(self, move: Move, pile: Move | None, revolution: bool = False) -> str | None:
        """The reason ``move`` may not go on ``pile``, or ``None`` when it may."""
        if move.kind == PASS:
            return "the leader may not pass" if pile is None else None
        if move.kind == RUN and not self.runs:
            return "runs are not played under these rules (option runs: false)"
        if move.jokers > self.jokers:
            return f"these rules have {self.jokers} joker(s)"
        if pile is None:
            return None
        if pile.kind == PASS:
            raise ValueError("a pass is never on the pile")
        if move.kind != pile.kind:
            return f"a {move.kind} cannot be played on a {pile.kind}"
        if move.size != pile.size:
            noun = "set" if move.kind == SET else "run"
            return f"a {noun} of {pile.size} is beaten only by a {noun} of {pile.size}"
        if move.kind == SET:
            if pile.rank is None:
                if move.rank is None and self.equal_beats:
                    return None
                return "only an equal set of jokers may follow a set of jokers" + (
                    "" if self.equal_beats else ", and equal plays are off (equal_beats: false)")
            if move.rank is None:
                return None
            mine, theirs = move.rank, pile.rank
        else:
            assert move.low is not None and pile.low is not None
            mine, theirs = move.low, pile.low
        if mine == theirs:
            return None if self.equal_beats else "equal plays are off (equal_beats: false)"
        if (mine > theirs) != revolution:
            return None
        return "it does not beat the pile" + (" during the revolution" if revolution else "")

    def clears(self, move: Move | str, revolution: bool = False) -> bool:
        """Does ``move`` clear the pile, judged in the order in force when it is played?"""
        move = Move.parse(move)
        if move.kind == SET:
            rank = move.rank
            if rank is None:
                return False
            return rank == (0 if revolution else RANK_TOP) or (
                self.eight_stop and rank == RANK_EIGHT)
        if move.kind == RUN:
            assert move.low is not None and move.high is not None
            return self.eight_stop and move.low <= RANK_EIGHT <= move.high
        return False

    def starts_revolution(self, move: Move | str) -> bool:
        """Does ``move`` reverse the rank order (a set of four or more, with revolutions on)?"""
        move = Move.parse(move)
        return self.revolution and move.kind == SET and move.size >= 4

    def legal_moves(self, hand: Iterable[Card | str], pile: Move | str | None = None,
                    revolution: bool = False) -> list[Move]:
        """Every distinct legal move from ``hand`` on ``pile``, each once.

        Includes a pass whenever the pile is not empty, and moves in which a joker stands for
        a card the player also holds.
        """
        mask, smask, jokers = parse_hand(hand)
        if jokers > self.jokers:
            raise ValueError(f"the hand holds {jokers} jokers; these rules have {self.jokers}")
        return self.moves(mask, smask, jokers, None if pile is None else Move.parse(pile),
                          revolution)

    def moves(self, mask: int, smask: int, jokers: int, pile: Move | None,
              revolution: bool) -> list[Move]:
        """Legal moves from a hand given as masks (the engine's fast path)."""
        out: list[Move] = []
        if pile is None:
            for rank in range(13):
                suits = (mask >> (rank << 2)) & 15
                if suits:
                    out += SETS[rank * 48 + suits * 3 + jokers]
            if jokers:
                out += JOKER_SETS[jokers]
            if self.runs:
                for suit in range(4):
                    ranks = (smask >> (suit << 4)) & 0x1FFF
                    if ranks & (ranks - 1):
                        out += runs(suit, ranks, jokers)
            return out
        if pile.kind == SET:
            size = pile.size
            top = pile.rank
            if top is None:
                if self.equal_beats and jokers >= size:
                    out.append(JOKER_SET_OF_SIZE[size])  # type: ignore[arg-type]
            else:
                if revolution:
                    ranks_ok = range(0, top + 1 if self.equal_beats else top)
                else:
                    ranks_ok = range(top if self.equal_beats else top + 1, 13)
                for r in ranks_ok:
                    suits = (mask >> (r << 2)) & 15
                    if suits:
                        out += SETS_OF_SIZE[(r * 48 + suits * 3 + jokers) * 7 + size]
                if jokers >= size:
                    out.append(JOKER_SET_OF_SIZE[size])  # type: ignore[arg-type]
        elif self.runs:
            assert pile.low is not None
            for suit in range(4):
                ranks = (smask >> (suit << 4)) & 0x1FFF
                if ranks & (ranks - 1):
                    out += runs_beating(suit, ranks, jokers, pile.size, pile.low, revolution,
                                        self.equal_beats)
        out.append(Move.PASS)
        return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

