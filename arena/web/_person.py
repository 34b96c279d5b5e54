"""A person at the table: the host of kind ``web``, whose decisions come from a browser.

:class:`PersonSeat` is the seat's state between the referee and the seat's WebSocket:
its token, the person's display name, the one connection it has at a time, the decision
it waits for. :class:`~arena.web._person_host.PersonHost` is the
:class:`arena.referee.Host` the referee asks: it
sends the seat the request a bot of that seat would get (the referee's own view encoding,
``arena.referee.lowlevel.FullEncoder``, with the legal moves) and waits for the person's
answer on a trio memory channel, under the deadline it is given (``trio.fail_at``) and the
seat's own limits:

- ``seat_ms``: the person's clock for one decision (``None``, the default: no clock);
- ``absence_s``: how long a seat may be left (no page open on its link) while the match
  waits for it; past it, the seat's stand-in bot decides (``PersonHost``'s
  ``stand_in``) until the person is back, or, with none, the decision is the seat's
  ``timeout`` fault, and the match's ``on_fault`` rule plays for it.

A person is never charged a bot's clock (``timed = False``); a move the rules refuse is
answered with the rules' reason and the person tries again, so only what the referee
would accept reaches it. Nothing here is sent that a bot of the seat would not see.
"""

from __future__ import annotations

import contextlib
import math
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
import trio

from arena.game import AnswerError, Card, Move, judge_cards, judge_move
from arena.referee import BotFault, Deadline, timeout_fault
from arena.referee.lowlevel import FullEncoder, parse_move, start_message

from ._roster import Roster
from ._table_bounds import digest_matches, token_digest

if TYPE_CHECKING:
    from arena.game import View
    from arena.referee import StartInfo

__all__ = ["MAX_MESSAGE", "MAX_NAME", "Absent", "Gate", "PersonSeat", "Refusal", "clean_name",
           "error_message"]

MAX_NAME = 32
"""The longest display name a person may give (characters)."""
MAX_MESSAGE = 2048
"""The longest message (bytes) a seat's page may send; its table answers a longer one with
an error (the server closes any socket whose message is over ``MAX_SOCKET_MESSAGE``)."""
OUTBOX = 64
"""Messages a connection may have unsent; a page that reads slower than that is dropped
(it opens its link again and gets the current view)."""

_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()


def clean_name(text: str) -> str:
    """A display name as it is kept: control and format characters dropped, spaces
    collapsed, at most :data:`MAX_NAME` characters. Shown as text, never as HTML."""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] not in ("C",))
    return " ".join(kept.split())[:MAX_NAME]


class Refusal(str):
    """The rules' refusal of a person's answer: its text is the referee's English reason (as
    a bot hears it), :attr:`code` and :attr:`values` what the page says in its language
    (:class:`arena.game.AnswerError`'s)."""

    code: str
    values: dict[str, str]

    @classmethod
    def of(cls, error: AnswerError) -> Refusal:
        refusal = cls(str(error))
        refusal.code, refusal.values = error.code, dict(error.values)
        return refusal


def error_message(error: str) -> dict[str, Any]:
    """The seat's ``error`` message: the text, and for the rules' refusal its ``code`` and
    ``values`` (the page's words for it: ``table.refusal.<code>``)."""
    message: dict[str, Any] = {"type": "error", "message": error}
    if isinstance(error, Refusal):
        message.update(code=error.code, values=error.values)
    return message


class Gate:
    """How many messages a connection may send: a token bucket of ``burst`` messages,
    refilled at ``rate`` a second. One per connection."""

    def __init__(self, rate: float = 10.0, burst: int = 20) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._at = -math.inf

    def allow(self, now: float) -> bool:
        """Whether a message arriving at ``now`` (seconds) may be read."""
        if self._at != -math.inf:
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Absent(BotFault):
    """The seat was left longer than its absence limit: a ``timeout`` fault, unless a
    stand-in decides for it."""


@dataclass
class _Ask:
    """The decision a seat waits for: its number, kind, card count and legal moves."""

    number: int
    kind: str
    count: int
    view: View
    message: dict[str, Any]


class _Wake:
    """Put on the answers channel when the seat's page comes or goes: the waiting host
    looks at the absence limit again."""


class PersonSeat:
    """One person's seat at a table, shared by the seat's host and its WebSocket."""

    def __init__(self, seat: int, label: str, *, absence_s: float = 120.0,
                 seat_ms: int | None = None, token: str | None = None,
                 roster: Roster | None = None) -> None:
        self.seat = seat
        self.label = label
        self.digests = [token_digest(token if token is not None
                                     else secrets.token_urlsafe(24))]
        """The SHA-256 of each secret that opens the seat: its link's, and the one a browser
        was given through the table's one link (:meth:`grant`); the tokens themselves are
        never kept. Compared in constant time (:meth:`admits`)."""
        self.absence_s = absence_s
        self.seat_ms = seat_ms
        self.name = ""
        """The display name the person gave (text, :func:`clean_name`)."""
        self.moves = 0
        """Moves and exchanges the person made."""
        self.claimed = False
        """Whether the seat was given to someone: its page opened, or handed out by the
        table's one link (:meth:`arena.web._tables.Tables` keeps the cookie)."""
        self.roster = roster if roster is not None else Roster()
        self.roster.seats[seat] = self
        self.stand_in = ""
        """The stand-in bot's name (set by the seat's :class:`PersonHost`), if it has one."""
        self.stood_in: list[dict[str, Any]] = []
        """The decisions the stand-in made, in order: ``{"deal", "kind", "move"}``, ``move``
        the index of its move among the deal's moves (None for an exchange)."""
        self._out: trio.MemorySendChannel[str] | None = None
        self._in: trio.MemoryReceiveChannel[str] | None = None
        self._left_at = trio.current_time() if _in_trio() else 0.0
        self._send_answer, self._answers = trio.open_memory_channel[object](8)
        self._ask: _Ask | None = None
        self._asked = 0
        self._start: dict[str, Any] | None = None
        self._last: dict[str, Any] | None = None  # a page opened now: the request, or a turn
        self._end: dict[str, Any] | None = None
        self._deals: list[dict[str, Any]] = []  # the match's deal results so far
        self._encoder = FullEncoder()

    # ------------------------------------------------------------------ the page

    def admits(self, token: str) -> bool:
        """Whether ``token`` is this seat's (constant time, whichever of its secrets)."""
        return any([digest_matches(token, digest) for digest in self.digests])

    def grant(self) -> str:
        """A new secret that opens the seat (for the browser the table's one link gives it
        to): returned once, kept as its digest only."""
        token = secrets.token_urlsafe(24)
        self.digests.append(token_digest(token))
        return token

    @property
    def connected(self) -> bool:
        """Whether a page is open on the seat's link."""
        return self._out is not None

    @property
    def absent_by(self) -> float:
        """When (trio's clock) the seat's absence limit runs out; infinite while a page is
        open on it."""
        return math.inf if self.connected else self._left_at + self.absence_s

    def attach(self) -> trio.MemoryReceiveChannel[str]:
        """A new page on the seat: the messages to send it, starting with the current
        state (the start, the deals' results so far, the latest view, the match's end).
        A page that was open before is closed (one page per seat)."""
        if self._out is not None:
            self._out.close()
        self.claimed = True
        # The whole state at once, however long the match: a reopened page starts there.
        send, receive = trio.open_memory_channel[str](OUTBOX + len(self._deals))
        self._out, self._in = send, receive
        name = {"type": "name", "name": self.name} if self.name else None
        for message in (self._start, name, *self._deals, self._last, self._end):
            if message is not None:
                send.send_nowait(_text(message))
        self.roster.changed()
        self._wake()
        return receive

    def detach(self, channel: trio.MemoryReceiveChannel[str]) -> None:
        """The page that got ``channel`` went away (if it is still the current one)."""
        if self._out is not None and channel is self._in:
            self._out.close()
            self._out = self._in = None
            self._left_at = trio.current_time()
            self.roster.changed()
            self._wake()

    def send(self, message: Mapping[str, Any]) -> None:
        """Send ``message`` to the page, if one is open; never blocks."""
        out = self._out
        if out is None:
            return
        try:
            out.send_nowait(_text(message))
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            out.close()  # too slow a reader: its pump ends, the page opens the link again
            self._out = self._in = None
            self._left_at = trio.current_time()

    def receive(self, text: str) -> str | None:
        """A message from the page (already within :data:`MAX_MESSAGE` and the rate): the
        error to answer on that page, or None when it was taken."""
        try:
            message = _DECODER.decode(text)
        except Exception:  # every byte is the browser's
            return "not a JSON message"
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return "a message must be a JSON object with a string 'type'"
        kind = message["type"]
        if kind == "name":
            name = message.get("name")
            if not isinstance(name, str):
                return "'name' must be text"
            self.name = clean_name(name)
            self.send({"type": "name", "name": self.name})
            self.roster.changed()
            return None
        if kind not in ("move", "exchange"):
            return f"unknown message type {kind[:40]!r} (expected move, exchange or name)"
        ask = self._ask
        if ask is None or ask.kind != ("play" if kind == "move" else "exchange"):
            return "it is not your turn" if kind == "move" else "no exchange is asked of you now"
        answer: object
        if kind == "move":
            answer, error = _judge_move(ask.view, message.get("move"))
        else:
            answer, error = _judge_cards(ask.view, ask.count, message.get("cards"))
        if error is not None:
            return error
        try:
            self._send_answer.send_nowait((ask.number, answer))
        except trio.WouldBlock:
            return "too many messages"
        self._over(ask.message)  # one answer per decision
        return None

    # ------------------------------------------------------------------ the referee

    def begin(self, info: StartInfo) -> None:
        """A match starts at this seat: what a bot's ``start`` says but its seed."""
        self._encoder = FullEncoder()
        self._end = None
        self._deals = []
        self.stood_in = []
        self._start = {**start_message(info), "seat_ms": self.seat_ms}
        self.send(self._start)

    def show(self, view: View, kind: str, seat: int) -> None:
        """Seat ``seat`` is about to decide: the seat's own view, as the referee shows a
        host that observes every turn."""
        self._last = {"type": "turn", "seat": seat, "kind": kind,
                      "view": self._encoder.encode(view)}
        self.send(self._last)

    def tell(self, message: dict[str, Any]) -> None:
        """A deal's result to the seat, kept for a page opened later."""
        self._deals.append(message)
        self.send(message)

    def again(self, table_id: str) -> None:
        """The table's people play again at table ``table_id`` (the same seats and tokens);
        a page opened later hears it with the match's end."""
        if self._end is not None:
            self._end["again"] = table_id
        self.send({"type": "again", "table": table_id})

    def finish(self, result: dict[str, Any]) -> None:
        """The match is over: its result, kept for a page opened later."""
        self._ask = None
        self._end = {"type": "match_end", **result}
        self.send(self._end)

    async def decide(self, kind: str, view: View, count: int, deadline: Deadline) -> object:
        """The person's answer to a decision, awaited until ``deadline`` or the seat's own
        clock, whichever is first (the ``timeout`` fault quotes what that one allowed); a
        seat left longer than its absence limit is a ``timeout`` fault."""
        self._asked += 1
        while True:  # what came in between decisions (wake-ups) is stale now
            try:
                self._answers.receive_nowait()
            except trio.WouldBlock:
                break
        message: dict[str, Any] = {"type": kind, "time_ms": self.seat_ms,
                                   "view": self._encoder.encode(view)}
        if kind == "play":
            message["legal"] = [move.text for move in view.legal_moves()]
        else:
            message["count"] = count
        self._ask = _Ask(self._asked, kind, count, view, message)
        self._last = message
        self.send(message)
        if self.seat_ms is not None:
            own = Deadline.after(trio.current_time(), self.seat_ms / 1000)
            deadline = own if own.at < deadline.at else deadline
        try:
            with trio.fail_at(deadline.at):
                return await self._answer()
        except trio.TooSlowError:
            raise timeout_fault(deadline.allowed_s) from None
        finally:
            self._over(message)

    def _over(self, request: dict[str, Any]) -> None:
        """The decision of ``request`` is over (answered, out of time, or left to the
        stand-in): nothing waits for its answer, and a page opened from now on gets the
        seat's turn in its place, never a request it may no longer answer."""
        self._ask = None
        self._last = {"type": "turn", "seat": self.seat, "kind": request["type"],
                      "view": request["view"]}

    async def _answer(self) -> object:
        while True:
            with trio.move_on_at(self.absent_by):
                got = await self._answers.receive()
                if isinstance(got, tuple) and got[0] == self._asked:
                    return got[1]
                continue  # a wake-up, or an answer to an earlier decision
            if self.connected:
                continue  # back just as the limit ran out: the person decides
            raise Absent("timeout", f"the seat was left for more than {self.absence_s:g} s")

    def _wake(self) -> None:
        if self._ask is None:
            return  # nobody waits: the next decision looks at the seat's presence itself
        with contextlib.suppress(trio.WouldBlock):  # full: the host has enough to wake on
            self._send_answer.send_nowait(_Wake())


def _judge_move(view: View, text: object) -> tuple[Move | None, str | None]:
    """The move the person typed or clicked, or the reason it may not be played: the
    referee's own judge (``arena.game.judge_move``), in its words."""
    if not isinstance(text, str) or len(text) > 200:
        return None, "'move' must be a move as text, e.g. 5H 6H 7H, JK=7H 8H 9H or pass"
    try:
        return judge_move(view, " ".join(text.split()), parse_move), None
    except AnswerError as exc:
        return None, Refusal.of(exc)


def _judge_cards(view: View, count: int, cards: object) -> tuple[list[Card] | None, str | None]:
    """The cards the person gives back, or why they may not be (``arena.game.judge_cards``)."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) or len(
            cards) > 16:
        return None, "'cards' must be a list of cards, e.g. [\"3C\", \"4D\"]"
    try:
        return judge_cards(view, count, cards), None
    except AnswerError as exc:
        return None, Refusal.of(exc)


def _text(message: Mapping[str, Any]) -> str:
    return _ENCODER.encode(message).decode()


def _in_trio() -> bool:
    try:
        trio.lowlevel.current_task()
    except RuntimeError:
        return False
    return True
