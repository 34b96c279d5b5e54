"""Config errors: one line per issue, ``FILE:LINE: key.path: what is wrong``.

Organisers write YAML by hand, so every mistake, from a stray tab to a bot name that no
plugin registers, is reported in that form and never as a traceback; a near miss of a key,
a format, a label or a bot name gets "did you mean".
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml
from pydantic import BaseModel

from arena.tournament._config._formats import FORMAT_MODELS
from arena.tournament._config._models import (
    EXECUTOR_MODELS,
    BotConfig,
    LimitsConfig,
    TournamentConfig,
)
from arena.tournament._config._yaml import node_line


@dataclass(frozen=True)
class ConfigIssue:
    """One thing wrong with a config: where (key path, line) and what."""

    path: str
    line: int | None
    message: str


class ConfigError(ValueError):
    """A config that cannot run; ``str()`` is one ``FILE:LINE: path: message`` per issue."""

    def __init__(self, source: str, issues: Sequence[ConfigIssue]) -> None:
        self.source = source
        self.issues = list(issues)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        lines = []
        for issue in self.issues:
            where = self.source if issue.line is None else f"{self.source}:{issue.line}"
            what = f"{issue.path}: {issue.message}" if issue.path else issue.message
            lines.append(f"{where}: {what}")
        return "\n".join(lines)


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the choice nearest ``word``, or nothing when none is near."""
    near = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.75)
    return f" (did you mean {near[0]!r}?)" if near else ""


def dotted(path: Sequence[str | int]) -> str:
    """A key path as written: ``bots[2].name``."""
    text = ""
    for element in path:
        if isinstance(element, int):
            text += f"[{element}]"
        else:
            text += f".{element}" if text else str(element)
    return text


def _tagged(loc: Sequence[str | int]) -> tuple[str, Mapping[str, type[BaseModel]]]:
    """What a ``type`` key at ``loc`` chooses, and its choices."""
    if loc and loc[0] == "executor":
        return "executor", EXECUTOR_MODELS
    return "format", FORMAT_MODELS


def _model_at(loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The model whose fields the mapping at ``loc`` may hold."""
    if not loc:
        return TournamentConfig
    if loc[0] == "bots" and len(loc) == 2:
        return BotConfig
    if loc[0] == "limits" and len(loc) == 1:
        return LimitsConfig
    if loc[0] == "format" and len(loc) == 2:
        return FORMAT_MODELS.get(str(loc[1]))
    if loc[0] == "executor" and len(loc) == 2:
        return EXECUTOR_MODELS.get(str(loc[1]))
    return None


def pydantic_issue(error: Any, root: yaml.Node | None) -> ConfigIssue:
    """One pydantic error as a config issue: the key path as written, its line, a message."""
    loc: tuple[str | int, ...] = tuple(error["loc"])
    kind = error["type"]
    # Pydantic puts a tagged union's tag into the path (format.swiss.rounds); users never wrote it.
    shown = tuple(
        e for i, e in enumerate(loc)
        if not (i == 1 and loc[0] in ("format", "executor") and e in _tagged(loc)[1])
    )
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if kind == "missing":
        message = "missing required key"
    elif kind == "extra_forbidden":
        model = _model_at(loc[:-1])
        allowed = f" (allowed: {', '.join(model.model_fields)})" if model else ""
        near = did_you_mean(str(loc[-1]), list(model.model_fields) if model else [])
        message = f"unknown key {str(loc[-1])!r}{near}{allowed}"
    elif kind == "union_tag_invalid":
        shown = (*shown, "type")
        tag = error.get("ctx", {}).get("tag")
        what, tags = _tagged(loc)
        near = did_you_mean(str(tag), list(tags))
        message = f"unknown {what} {tag!r}{near} (expected one of: {', '.join(tags)})"
    elif kind == "union_tag_not_found":
        shown = (*shown, "type")
        message = f"missing required key (one of: {', '.join(_tagged(loc)[1])})"
    elif kind in ("model_type", "dict_type"):
        message = f"expected a mapping, got {_describe(error.get('input'))}"
    elif kind == "too_short":
        ctx = error.get("ctx", {})
        message = (
            f"needs at least {ctx.get('min_length')} entries, got {ctx.get('actual_length')}"
        )
    elif kind == "string_pattern_mismatch" and loc == ("name",):
        message = (
            "use letters, digits, '_', '.' and '-' only, starting with a letter or digit "
            f"(got {_describe(error.get('input'))})"
        )
    elif kind == "list_type":
        message = f"expected a list, got {_describe(error.get('input'))}"
    else:
        message = message[:1].lower() + message[1:]
        if "input" in error and kind not in ("value_error", "assertion_error"):
            message += f" (got {_describe(error['input'])})"
    return ConfigIssue(dotted(shown), node_line(root, loc), message)


def _describe(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
