"""Views on the wire: the full JSON view, and the opt-in delta encoding.

A ``play`` or ``exchange`` request carries the deciding seat's view in one
of two encodings (docs/protocol.md, "Views"):

- **full** (``"view"``, the default): ``View.to_dict()`` minus the rules,
  self-contained, so a bot in any language needs no memory of earlier
  requests;
- **delta** (``"delta"``, for bots that answer ``start`` with ``"views":
  "delta"``, as the Python child of the ``process`` host does): only what
  changed since the seat's previous request in the same deal. A deal's
  plays only ever grow and the current trick is a suffix of them, so the
  plays are sent once each and the trick as a length, and every other field
  only when it changed (per-seat data as flat arrays, the hand as one
  string). It keeps a request line small however long the deal gets.

Each side of a bot's pipe keeps one encoder or decoder per process start,
so both forget everything together when the bot restarts (``start`` again).
A Python bot that speaks the protocol itself can rebuild real views with
:class:`DeltaDecoder` or :func:`view_from_dict`.
"""

from __future__ import annotations

from typing import Any, Final

from arena.game import Card, Move, Rules, View

__all__ = ["DeltaDecoder", "DeltaEncoder", "FullEncoder", "view_from_dict", "view_to_wire"]

VIEW_ENCODINGS: Final = ("full", "delta")
"""The values a bot may give for ``views`` in its ``ready`` answer."""

_MOVES: dict[str, Move] = {}
_MOVE_CACHE_SIZE: Final = 1 << 16
_UNSENT: Final[Any] = object()


def parse_move(text: str) -> Move:
    """``Move.parse`` with a memo: the same few hundred moves come back all match long.

    Moves are immutable and interned, so handing out one object per text is safe.
    """
    move = _MOVES.get(text)
    if move is None:
        move = Move.parse(text)
        if len(_MOVES) < _MOVE_CACHE_SIZE:
            _MOVES[text] = move
    return move


def view_to_wire(view: View) -> dict[str, Any]:
    """The full view as sent in a request: ``view.to_dict()`` minus the rules (sent at start)."""
    return FullEncoder().encode(view)


class FullEncoder:
    """Builds full views (``"view"``), equal to ``view.to_dict()`` without ``"rules"``.

    Built from the view's attributes rather than through ``to_dict`` (which
    also serializes the rules every time), and keeping the entries of the
    deal's plays already built, since every later view of the deal repeats
    them.
    """

    field: Final = "view"

    def __init__(self) -> None:
        self._deal = -1
        self._plays: list[dict[str, Any]] = []

    def encode(self, view: View) -> dict[str, Any]:
        """The ``view`` field of a request."""
        plays = view.plays
        if view.number != self._deal or len(plays) < len(self._plays):
            self._deal = view.number
            self._plays = []
        built = self._plays
        for seat, move in plays[len(built):]:
            built.append({"seat": seat, "move": move.text})
        counts, roles, scores = view.counts, view.roles, view.scores
        passed, sat_out = view.passed, view.sat_out
        exchange = None
        if view.gave or view.received:
            exchange = {"gave": [str(c) for c in view.gave],
                        "received": [str(c) for c in view.received]}
        return {
            "seat": view.seat,
            "deal": view.number,
            "hand": [str(c) for c in view.hand],
            "to_move": view.to_move,
            "players": [
                {"seat": s, "cards": counts[s], "role": roles[s], "score": scores[s],
                 "out": counts[s] == 0, "passed": passed[s], "sat_out": sat_out[s]}
                for s in range(view.players)
            ],
            "pile": None if view.pile is None else str(view.pile),
            "trick": [{"seat": s, "move": m.text} for s, m in view.trick],
            "plays": built[:],
            "finish_order": list(view.finish_order),
            "places": list(view.places),
            "revolution": view.revolution,
            "exchange": exchange,
        }


class DeltaEncoder:
    """Builds delta views (``"delta"``) for one bot process, remembering what it sent."""

    field: Final = "delta"

    def __init__(self) -> None:
        self._deal = -1
        self._sent = 0
        self._last: list[Any] = [_UNSENT] * 11

    def encode(self, view: View) -> dict[str, Any]:
        """The ``delta`` field of a request; the bot is assumed to have received it."""
        plays = view.plays
        last = self._last
        if view.number != self._deal or len(plays) < self._sent:
            self._deal = view.number
            self._sent = 0
            last[:] = [_UNSENT] * 11
        flat: list[Any] = []
        for seat, move in plays[self._sent:]:
            flat.append(seat)
            flat.append(move.text)
        self._sent = len(plays)
        data: dict[str, Any] = {"deal": view.number, "trick": len(view.trick), "plays": flat}
        # Everything else only when it differs from what this bot was last sent.
        if view.to_move != last[0]:
            data["to_move"] = last[0] = view.to_move
        hand = view.hand_text
        if hand != last[1]:
            data["hand"] = last[1] = hand
        if view.counts != last[2]:
            data["cards"] = last[2] = view.counts
        if view.passed != last[3]:
            data["passed"] = last[3] = view.passed
        if view.sat_out != last[4]:
            data["sat_out"] = last[4] = view.sat_out
        pile = view.pile
        if pile is not last[5]:
            last[5] = pile
            data["pile"] = None if pile is None else pile.text
        if view.revolution != last[6]:
            data["revolution"] = last[6] = view.revolution
        if view.places != last[7]:
            data["places"] = last[7] = view.places
        if view.roles != last[8]:
            data["roles"] = last[8] = view.roles
        if view.scores != last[9]:
            data["scores"] = last[9] = view.scores
        gave, received = view.gave, view.received
        exchange = (gave, received) if gave or received else None
        if exchange != last[10]:
            last[10] = exchange
            data["exchange"] = None if exchange is None else {
                "gave": [str(c) for c in gave], "received": [str(c) for c in received]
            }
        return data


class DeltaDecoder:
    """Rebuilds full :class:`View` objects from a seat's delta views, in the bot's process."""

    def __init__(self, rules: Rules, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self._deal: int | None = None
        self._plays: list[tuple[int, Move]] = []
        self._plays_tuple: tuple[tuple[int, Move], ...] = ()
        self._to_move: int | None = None
        self._hand = ""
        self._counts: tuple[int, ...] = ()
        self._passed: tuple[bool, ...] = ()
        self._sat_out: tuple[bool, ...] = ()
        self._pile: Move | None = None
        self._revolution = False
        self._places: tuple[int | None, ...] = ()
        self._roles: tuple[str | None, ...] = ()
        self._scores: tuple[int, ...] = ()
        self._exchange: tuple[list[Card], list[Card]] | None = None

    def view(self, data: dict[str, Any]) -> View:
        """The view that ``data`` (one request's ``delta``) brings this seat to."""
        deal = data["deal"]
        if deal != self._deal:
            self._deal = deal
            self._plays = []
            self._plays_tuple = ()
        flat = data["plays"]
        if flat:
            plays = self._plays
            for i in range(0, len(flat), 2):
                plays.append((flat[i], parse_move(flat[i + 1])))
            self._plays_tuple = tuple(plays)
        if "to_move" in data:
            self._to_move = data["to_move"]
        if "hand" in data:
            self._hand = data["hand"]
        if "cards" in data:
            self._counts = tuple(data["cards"])
        if "passed" in data:
            self._passed = tuple(data["passed"])
        if "sat_out" in data:
            self._sat_out = tuple(data["sat_out"])
        if "pile" in data:
            pile = data["pile"]
            self._pile = None if pile is None else parse_move(pile)
        if "revolution" in data:
            self._revolution = data["revolution"]
        if "places" in data:
            self._places = tuple(data["places"])
        if "roles" in data:
            self._roles = tuple(data["roles"])
        if "scores" in data:
            self._scores = tuple(data["scores"])
        if "exchange" in data:
            exchange = data["exchange"]
            self._exchange = None if exchange is None else (
                [Card.parse(c) for c in exchange["gave"]],
                [Card.parse(c) for c in exchange["received"]],
            )
        all_plays = self._plays_tuple
        trick = data["trick"]
        return View.from_state(
            self.rules, self.seat, deal,
            hand=self._hand,
            to_move=self._to_move,
            pile=self._pile,
            revolution=self._revolution,
            counts=self._counts,
            passed=self._passed,
            sat_out=self._sat_out,
            trick=all_plays[len(all_plays) - trick:] if trick else (),
            plays=all_plays,
            places=self._places,
            roles=self._roles,
            scores=self._scores,
            exchange=self._exchange,
        )


def view_from_dict(data: dict[str, Any], rules: Rules | None = None) -> View:
    """The :class:`View` that a full view (``view.to_dict()``) describes, with working moves.

    ``rules`` stands in for a ``"rules"`` entry the data leaves out (the
    protocol sends the rules once, in ``start``).
    """
    if rules is None:
        rules = Rules.from_dict(data["rules"])
    players = data["players"]
    exchange = data.get("exchange")
    return View.from_state(
        rules, data["seat"], data["deal"],
        hand=" ".join(data["hand"]),
        to_move=data["to_move"],
        pile=None if data["pile"] is None else parse_move(data["pile"]),
        revolution=data["revolution"],
        counts=[p["cards"] for p in players],
        passed=[p["passed"] for p in players],
        sat_out=[p["sat_out"] for p in players],
        trick=[(t["seat"], parse_move(t["move"])) for t in data["trick"]],
        plays=[(t["seat"], parse_move(t["move"])) for t in data["plays"]],
        places=data["places"],
        roles=[p["role"] for p in players],
        scores=[p["score"] for p in players],
        exchange=None if exchange is None else (
            [Card.parse(c) for c in exchange["gave"]],
            [Card.parse(c) for c in exchange["received"]],
        ),
    )

