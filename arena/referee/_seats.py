"""A seat's bot as typed on the command line: ``NAME``, ``LABEL=NAME``, ``LABEL=cmd:COMMAND``."""

from __future__ import annotations

from typing import Any

COMMAND_PREFIX = "cmd:"
"""Marks a program speaking the bot protocol (docs/protocol.md) instead of a bot name."""


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
