"""The Python side of the ``process`` host: runs one bot behind the protocol.

Started by the referee as ``python -m arena.referee.child --bot REF
--params JSON --in FD --out FD``. This is the only process where a third-party
plugin's module is imported for a ``process`` seat: the bot's own, sandboxed in a
competition, and only that one plugin's (``BotRegistry.load``). It reads requests from the dedicated
input pipe and writes answers to the output pipe, synchronously and with no
other work in between, so that a round trip costs little more than the
pipe itself. The bot's ``print()`` goes to the captured stdout, never into
the protocol. Any exception from the bot's code is answered with an
``error`` message (a ``crash`` fault), and the process lives on.
"""

from __future__ import annotations

import json
import os
import random
import sys
import traceback
from typing import Any

from arena.bot import Bot, MatchInfo
from arena.game import Move, Rules, View
from arena.plugins import BotParamsError

from .._loading import hears_end_deal, make_bot
from ._protocol import LineDecoder, ProtocolError, decode, encode
from ._wire import DeltaDecoder, view_from_dict

__all__ = ["main"]


def _write(fd: int, message: dict[str, Any]) -> None:
    data = memoryview(encode(message))
    while data:
        data = data[os.write(fd, data) :]


def _error(exc: BaseException) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).strip()
    return f"{type(exc).__name__}: {exc}; traceback tail: {text[-1500:]}"


def _jsonable(value: object) -> object:
    """A bot's answer in a form JSON can carry; the referee judges it."""
    if value.__class__ is Move:  # the usual answer
        return value.text  # type: ignore[attr-defined]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return str(value)


class _Runner:
    def __init__(self, ref: str, params: dict[str, Any]) -> None:
        self.ref = ref
        self.params = params
        self.bot: Bot | None = None
        self.rules: Rules | None = None
        self.views: DeltaDecoder | None = None
        self._rules_seen: tuple[dict[str, Any], Rules] | None = None

    def _rules(self, data: dict[str, Any]) -> Rules:
        """The rules of a ``start``; a pooled process sees the same ones match after match."""
        seen = self._rules_seen
        if seen is not None and seen[0] == data:
            return seen[1]
        rules = Rules.from_dict(data)
        self._rules_seen = (data, rules)
        return rules

    def _view(self, message: dict[str, Any]) -> View:
        """The request's view, from its delta (what this child asks for) or a full view."""
        delta = message.get("delta")
        if delta is not None and self.views is not None:
            return self.views.view(delta)
        return view_from_dict(message["view"], self.rules)

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        kind = message["type"]
        reply_id = message.get("id")
        try:
            if kind == "start":
                rules = self._rules(message["rules"])
                try:
                    bot = make_bot(self.ref, self.params)
                except (LookupError, BotParamsError) as exc:  # arena's one-line word, no traceback
                    return {"type": "error", "id": reply_id,
                            "message": f"{type(exc).__name__}: {exc}"}
                rng = random.Random(message["seed"])  # the inline host's generator too
                bot.bind(message["seat"], rules, message["players"], rng)
                self.bot = bot
                self.rules = rules
                self.views = DeltaDecoder(rules, message["seat"])
                info = MatchInfo(
                    message["seat"], message["players"], rules, message["match_id"],
                    list(message["labels"]),
                )
                bot.start_match(info)
                ready = {"type": "ready", "id": reply_id, "name": bot.name,
                         "version": bot.version, "views": "delta"}
                if not hears_end_deal(bot):
                    ready["end_deal"] = False  # nothing to tell it: spare the pipe
                return ready
            if self.bot is None:
                return {"type": "error", "id": reply_id, "message": f"{kind!r} before 'start'"}
            if kind == "play":
                move = self.bot.play(self._view(message))
                return {"type": "move", "id": reply_id, "move": _jsonable(move)}
            if kind == "exchange":
                view = self._view(message)
                cards = self.bot.exchange(view, message["count"])
                return {"type": "exchange", "id": reply_id, "cards": _jsonable(cards)}
            if kind == "end_deal":
                self.bot.end_deal(message["result"])
                return None
        except Exception as exc:
            if kind == "end_deal":
                traceback.print_exc()
                return None
            return {"type": "error", "id": reply_id, "message": _error(exc)}
        return {"type": "error", "id": reply_id, "message": f"unknown request type {kind!r}"}


def _options(argv: list[str]) -> dict[str, str]:
    options = {}
    for i in range(0, len(argv) - 1, 2):
        if argv[i].startswith("--"):
            options[argv[i][2:]] = argv[i + 1]
    return options


def main(argv: list[str] | None = None) -> int:
    """Serve requests until ``quit`` or end of input; the exit code is 0 unless misused."""
    options = _options(list(sys.argv[1:] if argv is None else argv))
    try:
        in_fd, out_fd = int(options["in"]), int(options["out"])
        ref = options["bot"]
        params = json.loads(options.get("params", "{}"))
    except (KeyError, ValueError) as exc:
        print(f"usage: python -m arena.referee.child --bot REF --params JSON --in FD --out FD "
              f"({exc})", file=sys.stderr)
        return 2
    runner = _Runner(ref, params)
    decoder = LineDecoder()
    while True:
        data = os.read(in_fd, 1 << 16)
        if not data:
            return 0
        decoder.feed(data)
        while (line := decoder.next_line()) is not None:
            try:
                message = decode(line)
            except ProtocolError as exc:
                _write(out_fd, {"type": "error", "message": f"referee sent {exc}"})
                continue
            if message["type"] == "quit":
                return 0
            reply = runner.handle(message)
            if reply is not None:
                _write(out_fd, reply)


if __name__ == "__main__":
    sys.exit(main())
