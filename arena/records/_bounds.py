"""How long a text a bot sent may be in a record (docs/records.md, "Bounds").

A bot chooses its fault details (an exception's message, its output's tail) and the name
and version it gives in ``ready``; a record keeps each within a bound, so a bot cannot make
its matches' records grow without end.
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_DETAIL", "MAX_NAME", "clip", "printable"]

MAX_DETAIL = 1000
"""The longest fault detail a record keeps (characters): its first and last 500 or so, the
referee's words and the bot's last ones, around a note of what was cut."""
MAX_NAME = 80
"""The longest bot name, plugin and version a record keeps (characters)."""


def clip(text: str, limit: int) -> str:
    """``text`` if it is at most ``limit`` characters, else its head and tail around
    ``[... N characters cut ...]``, ``limit`` characters in all (at least the note)."""
    if len(text) <= limit:
        return text
    keep = limit
    for _ in range(3):  # the note's length depends on the count it gives
        note = f" [... {len(text) - keep} characters cut ...] "
        keep = max(0, limit - len(note))
    head, tail = keep - keep // 2, keep // 2
    return text[:head] + note + (text[len(text) - tail:] if tail else "")


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every control and format character (ESC, and
    with it any OSC or CSI escape's start; C1 controls; bidirectional overrides) dropped,
    tabs and line breaks made spaces. For what a bot wrote, before it is shown."""
    return "".join(" " if ch in "\t\n\r" else ch for ch in text
                   if ch in "\t\n\r" or unicodedata.category(ch) not in ("Cc", "Cf"))
