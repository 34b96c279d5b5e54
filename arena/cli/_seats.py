"""A seat's bot as typed on the command line: ``NAME``, ``LABEL=NAME``, ``LABEL=cmd:COMMAND``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.referee import CopyLabels
from arena.referee.lowlevel import default_host

COMMAND_PREFIX = "cmd:"
"""Marks a program speaking the bot protocol (docs/protocol.md) instead of a bot name."""
UECDA_PREFIX = "cmd-uecda:"
"""Marks a UECda 20070 client program, arena being its server (docs/uecda.md)."""


def bot_spec(text: str, host: str | None = None) -> dict[str, Any]:
    """A seat's bot from the command line: ``NAME``, ``LABEL=NAME`` or ``LABEL=cmd:COMMAND``.

    ``NAME`` is an installed bot (``arena bots``) or a ``module:Class`` reference;
    ``cmd:COMMAND`` runs any program speaking the protocol of docs/protocol.md. ``host``
    unset: the bot's default (:func:`default_host`: a third-party plugin's bot runs in a
    process of its own). Without a
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
    for prefix, kind in ((UECDA_PREFIX, "uecda"), (COMMAND_PREFIX, "command")):
        if what.startswith(prefix):
            command = what[len(prefix):].strip()
            if not command:
                raise ValueError(f"bad bot {text!r}: empty command after {prefix!r}")
            spec: dict[str, Any] = {"label": command if label == what else label, "name": None,
                                    "command": command, "params": {}, "host": kind}
            if kind == "uecda":
                spec["protocol"] = "uecda"
            return spec
    return {"label": label, "name": what, "command": None, "params": {},
            "host": host or default_host(what)}


def given_label(text: str) -> bool:
    """Whether ``text`` starts with ``LABEL=`` (an ``=`` after a ``:`` is the bot's own)."""
    label, sep, _ = text.partition("=")
    return bool(sep) and ":" not in label


def seat_specs(texts: Sequence[str], host: str | None = None) -> list[dict[str, Any]]:
    """The bot specs of the seats given on a command line, in order (``arena match``,
    ``arena ab``).

    Each text is read by :func:`bot_spec`; a second unlabelled copy of a bot is labelled
    ``NAME-2``, a third ``NAME-3``. Raises ``ValueError`` for a bad text, or when one label
    is given to two seats.
    """
    seats = []
    copies = CopyLabels()
    for text in texts:
        seat = bot_spec(text, host)
        if not given_label(text):
            seat["label"] = copies(seat["label"])
        seats.append(seat)
    labels = [seat["label"] for seat in seats]
    for label in labels:
        if labels.count(label) > 1:
            raise ValueError(f"label {label!r} is given to more than one seat")
    return seats
