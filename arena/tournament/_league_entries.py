"""Entries a program adds to a league's field beside its config: ``OUT/entries.json``.

A league's field is its config's ``bots``, reread every round (docs/league.md). A program
running beside the league (a competition's server, docs/competition.md) may add entries
of its own in ``OUT/entries.json``: a JSON list of bot entries as a config writes them.
They join the field as the config's do, after them, every round they are listed; a file
that is not such a list, or an entry whose label the config uses, keeps the field as it
was, said in one line.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from arena.tournament._config._checks import MAX_CONFIG_BYTES
from arena.tournament._config._models import BotConfig, TournamentConfig
from arena.tournament._league import entry_problem, label_problem

__all__ = ["ENTRIES", "with_entries"]

ENTRIES = "entries.json"


def with_entries(config: TournamentConfig, folder: Path
                 ) -> tuple[TournamentConfig, str | None]:
    """``config`` with the entries of ``folder/entries.json`` after its bots, and None; or
    ``config`` unchanged and the one line that says why the entries could not be read."""
    path = folder / ENTRIES
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            return config, (f"{path}: entries not applied: the file is over "
                            f"{MAX_CONFIG_BYTES // 1024} KiB, the most a config may be")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        return config, None
    except (OSError, UnicodeDecodeError) as exc:
        return config, f"{path}: entries not applied: {exc}"
    try:
        data = json.loads(text)
        if not isinstance(data, list):
            raise ValueError("not a JSON list of bot entries")
        bots = [BotConfig.model_validate(item) for item in data]
    except ValidationError as exc:
        first = exc.errors()[0]
        return config, f"{path}: entries not applied: {first['loc']}: {first['msg']}"
    except ValueError as exc:
        return config, f"{path}: entries not applied: {exc}"
    taken = set(config.labels)
    for bot in bots:
        label = bot.resolved_label
        problem = label_problem(label) or entry_problem(
            bot.model_dump(mode="json", exclude_defaults=True))
        if problem is not None:
            return config, f"{path}: entries not applied: {problem}"
        if label in taken:
            return config, f"{path}: entries not applied: the label {label!r} is the config's"
        taken.add(label)
    return config.model_copy(update={"bots": [*config.bots, *bots]}), None
