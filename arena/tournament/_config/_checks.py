"""Reading and checking a config: one path from text (or a mapping) to a valid model.

:func:`parse_config` parses the YAML once (:func:`._yaml.load_yaml`) and hands the data
and its nodes to :func:`validate_config`, the one validation path: the schema's errors
(pydantic's), then the checks the schema cannot make (clashes between keys, the rules at
the table's size, bots this machine cannot start), every issue at once, sorted by line.
When the schema refuses some top-level keys, the checks still run on the rest.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from arena.tournament._bots import bot_problem
from arena.tournament._config._errors import (
    ConfigError,
    ConfigIssue,
    did_you_mean,
    dotted,
    pydantic_issue,
)
from arena.tournament._config._formats import Problems
from arena.tournament._config._models import TournamentConfig, short_bot
from arena.tournament._config._paths import command_from
from arena.tournament._config._table import FORMATS, format_of
from arena.tournament._config._yaml import (
    YamlProblem,
    duplicate_keys,
    load_yaml,
    node_line,
    yaml_problem,
)

MAX_CONFIG_BYTES = 1024 * 1024
"""The largest config file read (1 MiB), comments included: a real config is a few KB, and a
league rereads its config every round (docs/league.md)."""


def load_config(path: str | os.PathLike[str], *, check_bots: bool = True) -> TournamentConfig:
    """Read and validate a YAML config file; raises :class:`ConfigError`."""
    return read_config(path, check_bots=check_bots)[0]


def read_config(
    path: str | os.PathLike[str], *, check_bots: bool = True
) -> tuple[TournamentConfig, str]:
    """The validated config of a YAML file and the file's text (read once); its relative
    paths are the file's folder's (:mod:`._paths`)."""
    source = os.fspath(path)
    try:
        with open(source, "rb") as file:
            data = file.read(MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(source, [ConfigIssue("", None, (
                f"the file is over {MAX_CONFIG_BYTES // 1024} KiB, the most a config may be "
                "(a config is a few KB; comments count)"))])
        text = data.decode("utf-8")
    except OSError as exc:
        raise ConfigError(source, [ConfigIssue("", None, f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise ConfigError(source, [ConfigIssue("", None, "not a UTF-8 text file")]) from None
    folder = Path(os.path.abspath(source)).parent
    return parse_config(text, source=source, check_bots=check_bots, folder=folder), text


def parse_config(
    text: str, *, source: str = "<config>", check_bots: bool = True, folder: Path | None = None
) -> TournamentConfig:
    """Validate YAML text as a config; raises :class:`ConfigError` naming path and line.
    Relative paths are ``folder``'s, else the working directory's."""
    try:
        data, root = load_yaml(text)
    except yaml.YAMLError as exc:
        raise ConfigError(source, [ConfigIssue("", *yaml_problem(exc, text))]) from None
    except YamlProblem as exc:
        raise ConfigError(source, [ConfigIssue("", exc.line, str(exc))]) from None
    duplicates = [
        ConfigIssue(dotted(p), line, "duplicate key") for p, line in duplicate_keys(root, ())
    ]
    if not isinstance(data, Mapping):
        line = root.start_mark.line + 1 if root is not None else None
        raise ConfigError(
            source, [ConfigIssue("", line, "the config must be a mapping of keys (name: ...)")]
        )
    try:
        config = validate_config(data, source=source, root=root, check_bots=check_bots,
                                 folder=folder)
    except ConfigError as exc:
        if not duplicates:
            raise
        issues = sorted(duplicates + exc.issues, key=lambda i: (i.line is None, i.line or 0))
        raise ConfigError(source, issues) from None
    if duplicates:  # YAML kept the last value of a key given twice: still a mistake
        raise ConfigError(source, duplicates)
    return config


def validate_config(
    data: Mapping[str, Any],
    *,
    source: str = "<config>",
    root: yaml.Node | None = None,
    check_bots: bool = True,
    folder: Path | None = None,
) -> TournamentConfig:
    """Validate a mapping as a config (``root`` gives line numbers when it came from YAML;
    relative paths are ``folder``'s, else the working directory's).

    Every problem found is reported at once, sorted by line: the rules and the bots are
    checked even when other keys break the schema.
    """
    found: list[ConfigIssue] = []
    context = {"folder": folder}
    config: TournamentConfig | None = None
    checked: TournamentConfig | None = None
    try:
        config = checked = TournamentConfig.model_validate(dict(data), context=context)
    except ValidationError as exc:
        found = [pydantic_issue(error, root) for error in exc.errors()]
        checked = _without_broken_keys(data, exc, context)
    if checked is not None:
        problems = _semantic_issues(checked, check_bots=check_bots)
    else:
        problems = _raw_issues(data, check_bots=check_bots, folder=folder)
    found.extend(
        ConfigIssue(dotted(path), node_line(root, path), message) for path, message in problems
    )
    if found:
        unique = list(dict.fromkeys(found))
        unique.sort(key=lambda issue: (issue.line is None, issue.line or 0))
        raise ConfigError(source, unique)
    return config  # type: ignore[return-value]  # found is empty only when config is set


def _without_broken_keys(
    data: Mapping[str, Any], exc: ValidationError, context: dict[str, Any]
) -> TournamentConfig | None:
    """The config without the top-level keys the schema refused, if that leaves one (the
    refused keys have defaults); its other problems can then be checked as usual."""
    broken = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
    if not broken or broken & {"name", "players", "bots", "format"}:
        return None  # the checks that are left depend on these
    try:
        return TournamentConfig.model_validate(
            {k: v for k, v in data.items() if k not in broken}, context=context)
    except ValidationError:
        return None


def _raw_issues(
    data: Mapping[str, Any], *, check_bots: bool, folder: Path | None
) -> Problems:
    """The rules and bot checks, on a mapping that failed the schema elsewhere."""
    issues: Problems = []
    rules = data.get("rules", {})
    players = data.get("players")
    if isinstance(rules, Mapping):
        table = players if isinstance(players, int) and 2 <= players <= 8 else None
        issues.extend(_rules_issues(rules, table))
    bots = data.get("bots")
    if check_bots and isinstance(bots, list):
        entries: list[tuple[int, str | None, str | None, Mapping[str, Any]]] = []
        for i, raw in enumerate(bots):
            raw = short_bot(raw)
            if not isinstance(raw, Mapping):
                continue
            name, command, params = raw.get("name"), raw.get("command"), raw.get("params", {})
            if isinstance(name, str) and command is None and isinstance(params, dict):
                entries.append((i, name, None, params))
            elif isinstance(command, str) and command.strip() and name is None:
                entries.append((i, None, command_from(command, folder), {}))
        issues.extend(_bot_issues(entries))
    return issues


def _semantic_issues(config: TournamentConfig, *, check_bots: bool) -> Problems:
    """Problems the schema cannot see: clashes between keys, unknown bots, bad rules; the
    format's own checks are the format's (:meth:`TournamentFormat.issues`)."""
    seen: dict[str, int] = {}
    issues = _label_issues(config, seen)
    k = config.players
    for i, bot in enumerate(config.bots):
        if bot.protocol == "uecda" and k != 5:
            issues.append((("bots", i, "protocol"),
                           f"a UECda client plays at a table of 5, but 'players' is {k}"))
    fmt = format_of(config.format)
    for i, bot in enumerate(config.bots):
        for other in FORMATS.values():
            for key in other.bot_keys:
                if other is not fmt and key in bot.model_fields_set:
                    issues.append((("bots", i, key), f"'{key}' is read by format "
                                   f"{other.name} only, not {fmt.name}"))
    issues.extend(fmt.issues(config, seen))
    if config.submissions is not None and not fmt.takes_submissions:
        issues.append((("submissions",), "only a league (format: {type: league}) takes "
                       "submissions: its field grows round by round"))
    if check_bots and config.limits.sandbox:
        from arena.referee import sandbox_unavailable_reason

        why = sandbox_unavailable_reason()
        if why is not None:
            issues.append((("limits", "sandbox"), "this machine cannot sandbox bots ("
                           f"{why.removeprefix('no sandbox on this machine: ')}): install "
                           "bubblewrap (apt-get install bubblewrap), or set sandbox: false"))
    short = any(path == ("format", "odd") for path, _ in issues)  # tables one seat short
    issues.extend(_rules_issues(config.rules_mapping(), None if short else config.players))
    if check_bots:
        issues.extend(
            _bot_issues([(i, b.name, b.run_command, b.params) for i, b in enumerate(config.bots)])
        )
    return issues


def _label_issues(config: TournamentConfig, seen: dict[str, int]) -> Problems:
    """Labels used twice; fills ``seen`` with each label's first index."""
    issues: Problems = []
    for i, label in enumerate(config.labels):
        bot = config.bots[i]
        key = "label" if bot.label is not None else ("name" if bot.name is not None else "command")
        if label in seen:
            issues.append((("bots", i, key), f"label {label!r} is already used by "
                           f"bots[{seen[label]}]; give each entrant a unique 'label'"))
        else:
            seen[label] = i
    return issues


def unknown_label(label: str, labels: Sequence[str]) -> str:
    """The message for a label no bot has, with the nearest one and every one."""
    return f"no bot is labelled {label!r}{did_you_mean(label, labels)} (labels: " \
        f"{', '.join(labels)})"


def _rules_issues(
    rules: Mapping[str, Any], players: int | None
) -> Problems:
    """What is wrong with the rules, alone and (given ``players``) at tables of that size."""
    from arena.game import Rules

    try:
        parsed = Rules.from_dict(rules)
        if players is not None:
            parsed.check_table(players)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        # Point at the option the message names: quoted first ('jokerz'), then bare.
        for pattern in ("'{}'", r"\b{}\b"):
            for key in rules:
                if re.search(pattern.format(re.escape(str(key))), message):
                    return [(("rules", key), message)]
        return [(("rules",), message)]
    return []


def _bot_issues(
    bots: Sequence[tuple[int, str | None, str | None, Mapping[str, Any]]],
) -> Problems:
    """Unknown bot names, params a bot refuses, programs not found: ``(index, name, command,
    params)`` per entrant."""
    issues: Problems = []
    for i, name, command, params in bots:
        problem = bot_problem(name, command, params)
        if problem is None:
            continue
        key, message = problem
        issues.append((("bots", i, key), message))
    return issues
