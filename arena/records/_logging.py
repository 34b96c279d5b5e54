"""Operational logging: for people, on stderr, never mixed with records.

structlog is imported at the first message, not before: most runs log nothing, and
structlog brings asyncio and rich with it (docs/architecture.md, "Start-up").
:func:`configure_logging` called before then is applied then.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from structlog.typing import FilteringBoundLogger

__all__ = ["LOG_FILE_ENV", "configure_logging", "get_logger"]


LOG_FILE_ENV = "ARENA_LOG_FILE"
"""When set, processes that did not configure logging append their logs to this file."""

_pending: tuple[int, bool, TextIO] | None = None
"""A configuration made before structlog was imported: applied when it is."""


def configure_logging(
    level: str | int = "WARNING",
    *,
    json_logs: bool | None = None,
    file: str | os.PathLike[str] | None = None,
) -> None:
    """Send arena's operational logs to stderr: readable on a terminal, JSON otherwise.

    ``json_logs=None`` picks by whether stderr is a terminal. ``file`` sends
    them to that file instead (appended, one line each). Records are
    written by :class:`RecordWriter`, never through these logs.
    """
    global _pending
    stream: TextIO = sys.stderr
    if file is not None:
        stream = open(file, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - kept open
    if isinstance(level, str):
        level = logging.getLevelName(level.upper())
        if not isinstance(level, int):
            raise ValueError(f"unknown log level {level!r}")
    if json_logs is None:
        json_logs = not stream.isatty()
    _pending = (level, json_logs, stream)
    if "structlog" in sys.modules:  # imported already (by arena or anyone): applied now
        _structlog()


def _structlog() -> Any:
    """structlog, with the configuration :func:`configure_logging` was last given."""
    global _pending
    import structlog

    if _pending is not None:
        level, json_logs, stream = _pending
        _pending = None
        renderer: structlog.typing.Processor = (
            structlog.processors.JSONRenderer()
            if json_logs
            else structlog.dev.ConsoleRenderer(colors=stream.isatty())
        )
        structlog.configure(
            processors=[
                structlog.processors.add_log_level,
                structlog.processors.TimeStamper(fmt="iso"),
                renderer,
            ],
            wrapper_class=structlog.make_filtering_bound_logger(level),
            logger_factory=structlog.PrintLoggerFactory(file=stream),
            cache_logger_on_first_use=False,
        )
    return structlog


class _Logger:
    """structlog's logger ``name``, made at its first message (:func:`get_logger`)."""

    __slots__ = ("_logger", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._logger: Any = None

    def __getattr__(self, method: str) -> Any:
        logger = self._logger
        if logger is None:
            logger = self._logger = _bound(self._name)
        return getattr(logger, method)


def _bound(name: str) -> Any:
    structlog = _structlog()
    if not structlog.is_configured():
        path = os.environ.get(LOG_FILE_ENV)
        try:
            configure_logging("INFO" if path else "WARNING", json_logs=True if path else None,
                              file=path or None)
        except OSError:
            configure_logging()
    return structlog.get_logger(name)


def get_logger(name: str) -> FilteringBoundLogger:
    """arena's operational logger ``name``; at its first message, configures stderr logging
    if nobody has.

    structlog's own default prints to stdout, where it would mix with
    command output such as ``arena match --json``; this keeps logs on stderr.
    """
    return cast("FilteringBoundLogger", _Logger(name))
