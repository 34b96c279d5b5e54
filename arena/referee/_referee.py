"""The referee: plays one match between seated bots and returns its record.

It asks each seat for its decisions under the seat's clock, judges every
answer with ``arena.game`` (the same rules code the bots use), turns every
failure into a recorded fault applied by ``Match.fault`` (the ``on_fault``
policy), and assembles the match record (docs/records.md). Nothing a bot
does can stop it: hosts turn misbehaviour into :class:`BotFault`, and every
host is closed, under a shielded scope, however the match ends.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

import trio

import arena
from arena.game import Card, IllegalMove, Match, Move, Rules
from arena.records import get_logger

from ._faults import BotFault
from ._host import Host, InlineHost, StartInfo
from ._limits import Clock, Limits
from ._process_host import CommandHost, ProcessHost, ProcessPool
from ._uecda_host import UecdaHost
from ._wire import parse_move

__all__ = ["HOST_KINDS", "MatchSpecError", "make_host", "play_match", "run_match"]

RECORD_SCHEMA = 1
HOST_KINDS = ("inline", "process", "command")

_log = get_logger("arena.referee")


class MatchSpecError(ValueError):
    """A match spec that cannot be played: the message names the bad field."""


def _spec_field(spec: Mapping[str, Any], key: str, default: Any = None) -> Any:
    return spec.get(key, default)


def make_host(
    seat_spec: Mapping[str, Any],
    limits: Limits,
    pool: ProcessPool | None = None,
    private: Sequence[str] = (),
) -> Host:
    """The host a BotSpec asks for (``inline``, ``process`` or ``command``).

    ``name`` is a registered bot name or a ``module:Class`` reference;
    ``command`` is a command line for the ``command`` host. Raises
    :class:`MatchSpecError` (or the registry's lookup error) for a spec
    that names no runnable bot. ``private`` paths are hidden from sandboxed bots.
    """
    name = seat_spec.get("name")
    command = seat_spec.get("command")
    params = seat_spec.get("params") or {}
    kind = seat_spec.get("host") or ("inline" if name else "command")
    if seat_spec.get("protocol") == "uecda":
        if not isinstance(command, str) or not command.strip():
            raise MatchSpecError("a 'uecda' bot needs a 'command' line")
        return UecdaHost(command, limits=limits)
    if kind not in HOST_KINDS:
        raise MatchSpecError(f"unknown host {kind!r} (expected one of {', '.join(HOST_KINDS)})")
    if not isinstance(params, Mapping):
        raise MatchSpecError(f"bot params must be a mapping, got {params!r}")
    if kind == "command":
        if not isinstance(command, str) or not command.strip():
            raise MatchSpecError("a 'command' host needs a 'command' line")
        return CommandHost(command, limits=limits, pool=pool, private=private)
    if not isinstance(name, str) or not name:
        raise MatchSpecError(f"a {kind!r} host needs a bot 'name'")
    if kind == "inline":
        return InlineHost(name, dict(params))
    return ProcessHost(name, dict(params), limits=limits, pool=pool, private=private)


def _judge_move(answer: object) -> Move:
    if isinstance(answer, Move):
        return answer
    if not isinstance(answer, str):
        raise BotFault("malformed", f"expected a move as text, got {_short(answer)}")
    try:
        return parse_move(answer)
    except Exception as exc:  # whatever the parser trips on, the text is the bot's
        raise BotFault("malformed", f"not a move: {_short(answer)} ({exc})") from None


def _judge_cards(answer: object) -> list[Card]:
    if not isinstance(answer, list | tuple):
        raise BotFault("malformed", f"expected a list of cards, got {_short(answer)}")
    cards = []
    for item in answer:
        if not isinstance(item, Card | str):
            raise BotFault("malformed", f"not a card: {_short(item)}")
        try:
            cards.append(Card.parse(item))
        except Exception as exc:  # whatever the parser trips on, the text is the bot's
            raise BotFault("malformed", f"not a card: {_short(item)} ({exc})") from None
    return cards


def _short(value: object, limit: int = 200) -> str:
    try:
        text = repr(value)
    except Exception:  # a bot's object whose repr fails is still just a bad answer
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


class _Referee:
    def __init__(self, spec: Mapping[str, Any], hosts: Sequence[Host] | None,
                 pool: ProcessPool | None) -> None:
        self.match_id = str(_spec_field(spec, "match_id", "match"))
        self.tournament = _spec_field(spec, "tournament")
        seed = _spec_field(spec, "seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise MatchSpecError(f"match seed must be an integer >= 0, got {seed!r}")
        self.seed = seed
        try:
            self.rules = Rules.from_dict(_spec_field(spec, "rules") or {})
        except (TypeError, ValueError) as exc:
            raise MatchSpecError(f"bad rules: {exc}") from None
        try:
            self.limits = Limits.from_dict(_spec_field(spec, "limits"))
        except (TypeError, ValueError) as exc:
            raise MatchSpecError(f"bad limits: {exc}") from None
        seats = list(_spec_field(spec, "seats") or [])
        private = _spec_field(spec, "private") or []
        if not isinstance(private, list) or not all(isinstance(p, str) for p in private):
            raise MatchSpecError(f"'private' must be a list of paths, got {private!r}")
        if hosts is None:
            if not 2 <= len(seats) <= 8:
                raise MatchSpecError(f"a match needs 2 to 8 seats, got {len(seats)}")
            built: list[Host] = []
            try:
                for seat_spec in seats:
                    if not isinstance(seat_spec, Mapping):
                        raise MatchSpecError(f"a seat must be a BotSpec mapping, got {seat_spec!r}")
                    built.append(make_host(seat_spec, self.limits, pool, private))
            except LookupError as exc:
                raise MatchSpecError(str(exc)) from None
            hosts = built
        self.hosts = list(hosts)
        self.observers = [seat for seat, host in enumerate(self.hosts) if host.observes]
        """Seats whose host sees every turn (``uecda``); usually none."""
        if not 2 <= len(self.hosts) <= 8:
            raise MatchSpecError(f"a match needs 2 to 8 seats, got {len(self.hosts)}")
        self.labels = [
            str((seats[i].get("label") if i < len(seats) else None) or h.meta.bot)
            for i, h in enumerate(self.hosts)
        ]
        self.spec = spec
        self.players = len(self.hosts)
        self.clock = Clock(self.limits, self.players)
        self.started = [False] * self.players
        self.start_faults: list[BotFault | None] = [None] * self.players
        self.decisions = 0

    def start_info(self, seat: int) -> StartInfo:
        return StartInfo(seat, self.players, self.rules, self.match_id, self.labels, self.seed,
                         self.limits.to_dict())

    async def start(self, seat: int) -> None:
        try:
            await self.hosts[seat].start(self.start_info(seat), self.limits.start_ms / 1000)
        except BotFault as fault:
            self.start_faults[seat] = fault
            _log.warning("bot failed to start", match=self.match_id, seat=seat,
                         bot=self.labels[seat], fault=str(fault))
        else:
            self.started[seat] = True

    async def ask(self, match: Match, kind: str, seat: int, count: int) -> tuple[object, float]:
        """The seat's raw answer and the seconds it took; faults propagate."""
        host = self.hosts[seat]
        pending = self.start_faults[seat]
        if pending is not None:  # failed to start for this deal: charge it once
            self.start_faults[seat] = None
            raise pending
        if not self.started[seat]:
            await self.start(seat)
            pending, self.start_faults[seat] = self.start_faults[seat], None
            if pending is not None:
                raise pending
        await host.prepare(self.limits.start_ms / 1000)
        if self.observers:
            await self.show_others(match, kind, seat)
        view = match.view(seat)
        timeout = self.clock.deadline(seat)
        meter = self.clock.meter(host.pids() if host.timed else ())  # fair clocks
        t0 = trio.current_time()
        try:
            if kind == "play":
                answer = await host.play(view, timeout)
            else:
                answer = await host.exchange(view, count, timeout)
        finally:
            elapsed = trio.current_time() - t0
            in_time = self.clock.charge(seat, elapsed, meter)
        if not in_time and host.timed:
            own = self.clock.charged[seat]
            note = f" (its own time {own * 1000:.0f} ms)" if own < elapsed else ""
            raise BotFault("timeout", f"answered after {elapsed * 1000:.0f} ms{note}, over the "
                           f"{timeout * 1000:.0f} ms allowed (answer discarded)")
        return answer, elapsed

    async def show_others(self, match: Match, kind: str, seat: int) -> None:
        """Let the hosts that watch every turn (``uecda``) see that ``seat`` decides now."""
        for other in self.observers:
            if other == seat or not self.started[other]:
                continue
            try:
                await self.hosts[other].observe(match.view(other), kind, seat,
                                                self.limits.start_ms / 1000)
            except BotFault as fault:
                _log.info("observe failed", match=self.match_id, seat=other,
                          bot=self.labels[other], fault=str(fault)[:300])

    async def run(self) -> dict[str, Any]:
        wall0 = time.perf_counter()
        match = Match(self.rules, self.players, self.seed)
        move_ms: list[float] = []  # think time of each move of the current deal
        deals: list[dict[str, Any]] = []
        try:
            async with trio.open_nursery() as nursery:
                for seat in range(self.players):
                    nursery.start_soon(self.start, seat)
            while (decision := match.pending) is not None:
                self.decisions += 1
                seat = decision.seat
                deal_number = match.deal_number
                moves_before = len(match.deal.moves)
                elapsed = 0.0
                try:
                    answer, elapsed = await self.ask(match, decision.kind, seat, decision.count)
                    if decision.kind == "play":
                        move = _judge_move(answer)
                        try:
                            match.play(move)
                        except IllegalMove as exc:
                            raise BotFault("illegal", f"{move}: {exc}") from None
                    else:
                        cards = _judge_cards(answer)
                        try:
                            match.give(cards)
                        except IllegalMove as exc:
                            given = " ".join(str(c) for c in cards)
                            raise BotFault("illegal", f"exchange [{given}]: {exc}") from None
                except BotFault as fault:
                    _log.info("fault", match=self.match_id, seat=seat, bot=self.labels[seat],
                              deal=deal_number, kind=fault.kind, detail=fault.detail[:300])
                    match.fault(fault.kind, fault.detail)
                if decision.kind == "play":
                    if match.finished or match.deal_number != deal_number:
                        added = len(match.history[-1]["moves"]) - moves_before
                    else:
                        added = len(match.deal.moves) - moves_before
                    move_ms.extend([round(elapsed * 1000, 3)] * added)
                if match.finished or match.deal_number != deal_number:
                    deals.append(self.finish_deal(match.history[-1], move_ms))
                    move_ms = []
                    await self.end_deal(match)
        finally:
            with trio.CancelScope(shield=True):
                await self.close()
        return {
            "schema": RECORD_SCHEMA,
            "type": "match",
            "match_id": self.match_id,
            "tournament": self.tournament,
            "seed": self.seed,
            "set": _spec_field(self.spec, "set"),
            "round": _spec_field(self.spec, "round"),
            "rules": self.rules.to_dict(),
            "seats": [
                {"seat": seat, "label": self.labels[seat], "bot": host.meta.bot,
                 "plugin": host.meta.plugin, "version": host.meta.version, "host": host.kind}
                for seat, host in enumerate(self.hosts)
            ],
            "limits": self.limits.to_dict(),
            "deals": deals,
            "scores": list(match.scores),
            "ranking": match.ranking(),
            "decisions": self.decisions,
            "wall_s": round(time.perf_counter() - wall0, 4),
            "arena_version": arena.__version__,
        }

    def finish_deal(self, history: dict[str, Any], move_ms: list[float]) -> dict[str, Any]:
        deal = dict(history)
        moves = [dict(m) for m in history["moves"]]
        for entry, ms in zip(moves, move_ms, strict=False):
            entry["ms"] = ms
        deal["moves"] = moves
        deal["faults"] = [
            {**f, "bot": self.labels[f["seat"]], "deal": history["deal"]}
            for f in history["faults"]
        ]
        return deal

    async def end_deal(self, match: Match) -> None:
        """Tell every started bot how the deal ended: only what its seat may know."""
        for seat, host in enumerate(self.hosts):
            if not self.started[seat]:
                continue
            try:
                await host.end_deal(match.result_for(seat), self.clock.deadline(seat))
            except BotFault as fault:
                _log.info("end_deal failed", match=self.match_id, seat=seat,
                          bot=self.labels[seat], fault=str(fault)[:300])
        # A seat that failed to start gets a fresh attempt in the next deal.
        self.start_faults = [None] * self.players

    async def close(self) -> None:
        for host in self.hosts:
            try:
                await host.aclose()
            except Exception as exc:  # closing must never lose the record
                _log.warning("closing a bot failed", match=self.match_id, error=repr(exc))


async def play_match(
    spec: Mapping[str, Any],
    *,
    hosts: Sequence[Host] | None = None,
    pool: ProcessPool | None = None,
) -> dict[str, Any]:
    """Play the match that ``spec`` describes and return its record.

    ``spec`` is a match spec (docs/records.md, "match spec"). ``hosts``
    replaces the hosts built from ``spec["seats"]`` (tests pass
    :class:`MemoryHost` objects); ``pool`` lets ``process`` and ``command``
    bots keep their processes for later matches. Raises
    :class:`MatchSpecError` for a spec that cannot be played; a bot's
    misbehaviour is never an exception, only a fault in the record.
    """
    return await _Referee(spec, hosts, pool).run()


_shared_pool: tuple[int, ProcessPool] | None = None


def _pool() -> ProcessPool:
    """This process's pool; a forked worker gets its own, never its parent's processes."""
    global _shared_pool
    if _shared_pool is None or _shared_pool[0] != os.getpid():
        pool = ProcessPool()
        atexit.register(pool.close)
        _shared_pool = (os.getpid(), pool)
    return _shared_pool[1]


def run_match(spec: Mapping[str, Any], *, reuse_processes: bool = True) -> dict[str, Any]:
    """Play one match synchronously (its own ``trio.run``) and return its record.

    Safe to call in any worker process. With ``reuse_processes`` (the
    default) bot processes are kept between calls in this process and
    killed when it exits.
    """
    pool = _pool() if reuse_processes else None
    return trio.run(lambda: play_match(spec, pool=pool))


@contextlib.contextmanager
def process_pool() -> Any:
    """A :class:`ProcessPool` that is closed (its processes killed) on exit."""
    pool = ProcessPool()
    try:
        yield pool
    finally:
        pool.close()
