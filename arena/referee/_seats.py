"""A seat's bot as typed on the command line: ``NAME``, ``LABEL=NAME``, ``LABEL=cmd:COMMAND``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

COMMAND_PREFIX = "cmd:"
"""Marks a program speaking the bot protocol (docs/protocol.md) instead of a bot name."""
UECDA_PREFIX = "cmd-uecda:"
"""Marks a UECda 20070 client program, arena being its server (docs/uecda.md)."""


def bot_spec(text: str, host: str = "inline") -> dict[str, Any]:
    """A seat's bot from the command line: ``NAME``, ``LABEL=NAME`` or ``LABEL=cmd:COMMAND``.

    ``NAME`` is an installed bot (``arena bots``) or a ``module:Class`` reference;
    ``cmd:COMMAND`` runs any program speaking the protocol of docs/protocol.md. Without a
    label, a bot is labelled by its name and a program by its command line (``=`` inside
    ``cmd:...`` or after a ``:`` belongs to the bot, not to a label).
    """
    if given_label(text):
        label, _, what = text.partition("=")
    else:
        label, what = text, text
    label, what = label.strip(), what.strip()
    if not label or not what:
        raise ValueError(f"bad bot {text!r}: expected NAME, LABEL=NAME or LABEL=cmd:COMMAND")
    if what.startswith(UECDA_PREFIX):
        command = what[len(UECDA_PREFIX):].strip()
        if not command:
            raise ValueError(f"bad bot {text!r}: empty command after 'cmd-uecda:'")
        if label == what:
            label = command
        return {"label": label, "name": None, "command": command, "params": {},
                "host": "uecda", "protocol": "uecda"}
    if what.startswith(COMMAND_PREFIX):
        command = what[len(COMMAND_PREFIX):].strip()
        if not command:
            raise ValueError(f"bad bot {text!r}: empty command after 'cmd:'")
        if label == what:
            label = command
        return {"label": label, "name": None, "command": command, "params": {},
                "host": "command"}
    return {"label": label, "name": what, "command": None, "params": {}, "host": host}


def given_label(text: str) -> bool:
    """Whether ``text`` starts with ``LABEL=`` (an ``=`` after a ``:`` is the bot's own)."""
    label, sep, _ = text.partition("=")
    return bool(sep) and ":" not in label


def seat_specs(texts: Sequence[str], host: str = "inline") -> list[dict[str, Any]]:
    """The bot specs of the seats given on a command line, in order (``arena match``,
    ``arena ab``).

    Each text is read by :func:`bot_spec`; a second unlabelled copy of a bot is labelled
    ``NAME-2``, a third ``NAME-3``. Raises ``ValueError`` for a bad text, or when one label
    is given to two seats.
    """
    seats = []
    seen: dict[str, int] = {}
    for text in texts:
        seat = bot_spec(text, host)
        if not given_label(text):
            base = seat["label"]
            seen[base] = seen.get(base, 0) + 1
            seat["label"] = base if seen[base] == 1 else f"{base}-{seen[base]}"
        seats.append(seat)
    labels = [seat["label"] for seat in seats]
    for label in labels:
        if labels.count(label) > 1:
            raise ValueError(f"label {label!r} is given to more than one seat")
    return seats
