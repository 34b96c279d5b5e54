"""Operational logging: for people, on stderr, never mixed with records."""

from __future__ import annotations

import logging
import sys

import structlog

__all__ = ["configure_logging", "get_logger"]


def configure_logging(level: str | int = "WARNING", *, json_logs: bool | None = None) -> None:
    """Send arena's operational logs to stderr: readable on a terminal, JSON otherwise.

    ``json_logs=None`` picks by whether stderr is a terminal. Records are
    written by :class:`RecordWriter` through a separate logger and are not
    affected.
    """
    if isinstance(level, str):
        level = logging.getLevelName(level.upper())
        if not isinstance(level, int):
            raise ValueError(f"unknown log level {level!r}")
    if json_logs is None:
        json_logs = not sys.stderr.isatty()
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if json_logs
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def get_logger(name: str) -> structlog.typing.FilteringBoundLogger:
    """arena's operational logger ``name``; configures stderr logging if nobody has.

    structlog's own default prints to stdout, where it would mix with
    command output such as ``arena match --json``; this keeps logs on stderr.
    """
    if not structlog.is_configured():
        configure_logging()
    logger: structlog.typing.FilteringBoundLogger = structlog.get_logger(name)
    return logger
