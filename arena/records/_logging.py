"""Operational logging: for people, on stderr, never mixed with records."""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import structlog

__all__ = ["LOG_FILE_ENV", "configure_logging", "get_logger"]


LOG_FILE_ENV = "ARENA_LOG_FILE"
"""When set, processes that did not configure logging append their logs to this file."""


def configure_logging(
    level: str | int = "WARNING",
    *,
    json_logs: bool | None = None,
    file: str | os.PathLike[str] | None = None,
) -> None:
    """Send arena's operational logs to stderr: readable on a terminal, JSON otherwise.

    ``json_logs=None`` picks by whether stderr is a terminal. ``file`` sends
    them to that file instead (appended, one line each). Records are
    written by :class:`RecordWriter` through a separate logger and are not
    affected.
    """
    stream: TextIO = sys.stderr
    if file is not None:
        stream = open(file, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - kept open
    if isinstance(level, str):
        level = logging.getLevelName(level.upper())
        if not isinstance(level, int):
            raise ValueError(f"unknown log level {level!r}")
    if json_logs is None:
        json_logs = not stream.isatty()
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


def get_logger(name: str) -> structlog.typing.FilteringBoundLogger:
    """arena's operational logger ``name``; configures stderr logging if nobody has.

    structlog's own default prints to stdout, where it would mix with
    command output such as ``arena match --json``; this keeps logs on stderr.
    """
    if not structlog.is_configured():
        path = os.environ.get(LOG_FILE_ENV)
        try:
            configure_logging("INFO" if path else "WARNING", json_logs=True if path else None,
                              file=path or None)
        except OSError:
            configure_logging()
    logger: structlog.typing.FilteringBoundLogger = structlog.get_logger(name)
    return logger
