"""Command-line bots written on the fly by tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def greeting_bot(folder: Path, **ready: Any) -> str:
    """The command line of a bot that answers ``start`` with ``ready`` plus ``ready``'s fields
    and then answers nothing: for tests of what a greeting may say."""
    bot = folder / "greeting_bot.py"
    bot.write_text(
        "import json, sys\n"
        f"extra = json.loads({json.dumps(ready)!r})\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready', 'id': msg['id'], **extra}), flush=True)\n"
    )
    return f"{sys.executable} {bot}"

