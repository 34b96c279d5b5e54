"""One interface for every place bot code runs: inline, in a child process, in-memory.

The referee only talks to a :class:`Host`: start the bot, ask for a move or
an exchange, tell it a deal ended, close it. Every call takes its
:class:`Deadline` as an argument, as trio's callers own their deadlines: a host
that awaits enforces its ``at`` with ``trio.fail_at`` and stays consistent when a call runs
past it (a process host kills the process it was talking to). Hosts turn every
other way a bot can fail into a :class:`BotFault`; they never judge moves,
which is the referee's job (with ``arena.game``), so the rules are applied
in one place whatever the host.
"""

from __future__ import annotations

import abc
import io
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from arena.bot import Bot, MatchInfo
from arena.seeds import bot_rng

from .._faults import BotFault
from .._limits import Deadline
from .._loading import BotRef, hears_end_deal, make_bot, resolve

if TYPE_CHECKING:
    from arena.game import Rules, View

    from ..sandbox._cputime import Meter

__all__ = ["Host", "InlineHost", "OutputRoutes", "StartInfo"]


@dataclass(frozen=True)
class StartInfo:
    """What a host needs to start a seat's bot for one match."""

    seat: int
    players: int
    rules: Rules
    match_id: str
    labels: Sequence[str]
    seed: int
    """The match seed: hosts derive the bot's generator from it and never pass it on."""
    limits: dict[str, Any] = field(default_factory=dict)

    def match_info(self) -> MatchInfo:
        """The :class:`arena.MatchInfo` handed to ``Bot.start_match``."""
        return MatchInfo(self.seat, self.players, self.rules, self.match_id, list(self.labels))


class Host(abc.ABC):
    """Where one seat's bot runs, behind one interface.

    Every call takes its ``deadline`` as an argument, a :class:`Deadline` made
    once by the driver: ``at``, the ``trio.current_time()`` past which it is
    late (``math.inf`` for a seat without a clock, :data:`NO_DEADLINE`), and
    ``allowed_s``, what the call was allowed. A host whose calls await
    enforces ``at`` itself, entering ``trio.fail_at`` around its waits, and
    turns a call that ran past it into its ``timeout`` fault quoting
    ``allowed_s`` (:func:`timeout_fault` for a decision; a ``crash`` when it
    knows the bot died), never reading the clock for it, after which it is ready
    for :meth:`prepare` to start over (a process host kills its process). A
    host whose calls cannot be stopped (``inline``) ignores the deadline:
    the referee judges the time after the fact, as it judges every answer's
    time by the seat's clock. ``time_ms`` in :meth:`play` and
    :meth:`exchange` is information for the bot (the time it has for this
    decision). Answers are returned raw (a move as text or object, a list
    of cards) for the referee to judge.
    """

    kind: str = "host"
    """How the record names this host: ``inline``, ``process``, ``command``, ``memory``."""
    timed: bool = True
    """Whether the seat plays under the clock; False for a person at the table (its calls
    get no deadline and its time is never charged)."""
    observes: bool = False
    """Whether the referee calls :meth:`observe` before the other seats' decisions."""

    @property
    def meter(self) -> Meter | None:
        """The fair-clock meter of the host's last ``play`` or ``exchange`` (see
        :meth:`Clock.charge`); None when the host measured none (a process host starts one
        only once it must wait for the answer), and the clock then charges the wall time."""
        return None

    @property
    @abc.abstractmethod
    def meta(self) -> BotRef:
        """The seat's bot name, plugin and version for the record."""

    @abc.abstractmethod
    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        """Start (or restart) the bot for a match; a failure is a :class:`BotFault`.

        The referee's ``deadline`` is ``start_ms`` from now, and allows as much."""

    def needs_prepare(self) -> bool:
        """Whether :meth:`prepare` has work to do now (a process to start again); the
        referee calls it only then. By default, whenever a host class overrides it."""
        return type(self).prepare is not Host.prepare

    async def prepare(self, deadline: Deadline) -> None:  # noqa: B027
        """Make the bot ready to answer (restart a killed process).

        The referee calls it before each decision, with ``start_ms`` to go and
        outside the decision's clock, so restarting after a fault never eats
        into the next move's time; a failure is a :class:`BotFault` charged
        to that decision.
        """

    @abc.abstractmethod
    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        """The bot's answer to a ``play`` decision; it has ``time_ms`` to think, and the
        host waits for it until ``deadline``."""

    @abc.abstractmethod
    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        """The bot's answer to an ``exchange`` decision: the cards it gives back."""

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:  # noqa: B027
        """Tell the bot a deal ended; faults here are logged, never charged."""

    @property
    def hears_end_deal(self) -> bool:
        """Whether the bot wants :meth:`end_deal` (a bot may say it does nothing with deal
        results); the referee builds and sends results only to those that do."""
        return True

    async def observe(self, view: View, kind: str, seat: int,  # noqa: B027
                      deadline: Deadline) -> None:
        """Seat ``seat`` is about to decide (``kind``: ``play`` or ``exchange``); ``view`` is
        this host's own seat's view. Only hosts with :attr:`observes` get it (the ``uecda``
        host, whose protocol shows every turn to every client); faults are logged, never
        charged."""

    async def aclose(self) -> None:  # noqa: B027
        """Release the bot (kill its process, return it to a pool)."""

    def pids(self) -> list[int]:
        """Process ids this host has started (for tests that check nothing is left behind)."""
        return []


def _crash_detail(exc: BaseException) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = "".join(lines).strip()
    return f"{type(exc).__name__}: {exc}; traceback tail: {text[-1500:]}"


class _OutputTail(io.StringIO):
    """Where an inline bot's ``print()`` goes: only the last few kilobytes are kept."""

    def write(self, text: str) -> int:
        n = super().write(text)
        if self.tell() > 4 * TAIL_CHARS:
            tail = self.getvalue()[-TAIL_CHARS:]
            self.seek(0)
            self.truncate()
            super().write(tail)
        return n

    def tail(self) -> str:
        return self.getvalue()[-TAIL_CHARS:]


TAIL_CHARS = 2000


class _Route(io.TextIOBase):
    """``sys.stdout`` or ``sys.stderr`` while inline bots play a match synchronously: what is
    written goes to the output tail of the bot being called (:attr:`OutputRoutes.tail`),
    and between calls to the stream it stands in for."""

    def __init__(self, routes: OutputRoutes, stream: TextIO) -> None:
        self._routes = routes
        self._stream = stream

    def write(self, text: str) -> int:
        tail = self._routes.tail
        return (tail if tail is not None else self._stream).write(text)

    def flush(self) -> None:
        tail = self._routes.tail
        (tail if tail is not None else self._stream).flush()


class OutputRoutes:
    """Captures inline bots' output for a whole match instead of call by call.

    :meth:`InlineHost.play_now` swaps ``sys.stdout`` and ``sys.stderr`` at
    every call. A driver that calls the bots of a match one after another
    installs these routes once (as a context manager) and sets :attr:`tail`
    to the calling bot's :meth:`InlineHost.output_tail` around each call:
    two attribute stores a call. :meth:`restore` puts the routes back after
    a bot replaced ``sys.stdout`` or ``sys.stderr`` itself.
    """

    def __init__(self) -> None:
        self.tail: io.StringIO | None = None
        self._saved = (sys.stdout, sys.stderr)
        self.stdout = _Route(self, sys.stdout)
        self.stderr = _Route(self, sys.stderr)

    def restore(self) -> None:
        """Install the routes again (a bot may have set ``sys.stdout`` while it was called)."""
        sys.stdout, sys.stderr = self.stdout, self.stderr

    def __enter__(self) -> OutputRoutes:
        self.restore()
        return self

    def __exit__(self, *exc: object) -> None:
        self.tail = None
        sys.stdout, sys.stderr = self._saved


class InlineHost(Host):
    """Runs the bot in the referee's own process and thread: trusted, fastest.

    Time is measured but cannot be pre-empted: a bot that thinks too long is
    charged a ``timeout`` fault when it finally answers (its answer is
    discarded), and a bot that never returns hangs the match. Use the
    ``process`` host for code you do not trust. Exceptions from the bot's
    code (``SystemExit`` included) are ``crash`` faults. What the bot
    prints to stdout or stderr is captured, so it cannot mix with the
    referee's output, and its tail is quoted in crash details.
    """

    kind = "inline"

    def __init__(self, ref: str, params: dict[str, Any] | None = None) -> None:
        self._ref = resolve(ref)
        self._params = dict(params or {})
        self._prebuilt: Bot | None = None
        self._bot: Bot | None = None
        self._output = _OutputTail()

    @classmethod
    def from_bot(cls, bot: Bot, meta: BotRef | None = None) -> InlineHost:
        """A host around an already built bot (notebooks, tests)."""
        host = cls.__new__(cls)
        name = bot.name or type(bot).__name__
        host._ref = meta or BotRef(name, name, type(bot).__module__.partition(".")[0], bot.version)
        host._params = {}
        host._prebuilt = bot
        host._bot = None
        host._output = _OutputTail()
        return host

    @property
    def meta(self) -> BotRef:
        return self._ref

    @property
    def bot(self) -> Bot | None:
        """The bot instance of the current match."""
        return self._bot

    def output(self) -> str:
        """The tail of what the bot printed."""
        return self._output.tail()

    def _call(self, what: str, fn: Callable[..., object], *args: object) -> object:
        # What contextlib.redirect_stdout/stderr do, without their two context managers per
        # call. (A match of inline bots only is played through OutputRoutes instead.)
        stdout, stderr = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = self._output
        try:
            return fn(*args)
        except (Exception, SystemExit) as exc:
            raise self.crash(what, exc) from None
        finally:
            sys.stdout, sys.stderr = stdout, stderr

    def output_tail(self) -> io.StringIO:
        """Where the bot's output goes while it is called (see :class:`OutputRoutes`)."""
        return self._output

    def crash(self, what: str, exc: BaseException) -> BotFault:
        """The ``crash`` fault for ``exc``, raised by the bot's code in a call of ``what``
        (``""`` for a decision), quoting the tail of the bot's output."""
        tail = self._output.tail().strip()
        note = f"; output tail: {tail}" if tail else ""
        return BotFault("crash", what + _crash_detail(exc) + note)

    def start_now(self, info: StartInfo) -> None:
        """Build (or reuse) the bot, bind it and call its ``start_match``, synchronously."""
        def start() -> None:
            bot = self._prebuilt if self._prebuilt is not None else make_bot(
                self._ref.ref, self._params
            )
            bot.bind(info.seat, info.rules, info.players, bot_rng(info.seed, info.seat))
            self._bot = bot
            bot.start_match(info.match_info())

        self._call("start failed: ", start)

    def play_now(self, view: View) -> object:
        """The bot's answer to a ``play`` decision, synchronously."""
        assert self._bot is not None, "start() first"
        return self._call("", self._bot.play, view)

    def exchange_now(self, view: View, count: int) -> object:
        """The bot's answer to an ``exchange`` decision, synchronously."""
        assert self._bot is not None, "start() first"
        return self._call("", self._bot.exchange, view, count)

    @property
    def hears_end_deal(self) -> bool:
        """Whether the bot overrides ``Bot.end_deal`` (if not, there is nothing to tell it)."""
        return self._bot is not None and hears_end_deal(self._bot)

    def end_deal_now(self, result: dict[str, Any]) -> None:
        """Tell the bot a deal ended, synchronously."""
        if self._bot is not None:
            self._call("end_deal failed: ", self._bot.end_deal, result)

    # Its calls cannot be stopped: the deadline is ignored, the referee judges the time.
    async def start(self, info: StartInfo, deadline: Deadline) -> None:
        self.start_now(info)

    async def play(self, view: View, time_ms: int, deadline: Deadline) -> object:
        return self.play_now(view)

    async def exchange(self, view: View, count: int, time_ms: int, deadline: Deadline) -> object:
        return self.exchange_now(view, count)

    async def end_deal(self, result: dict[str, Any], deadline: Deadline) -> None:
        self.end_deal_now(result)
