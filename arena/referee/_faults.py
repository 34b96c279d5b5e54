"""Faults: what a misbehaving bot costs its seat, never the match."""

from __future__ import annotations

from typing import Literal

from arena.game import FAULT_KINDS

__all__ = ["BotFault", "FaultKind"]

FaultKind = Literal["timeout", "crash", "illegal", "malformed"]


class BotFault(Exception):
    """A bot failed to answer properly; the referee turns it into a recorded fault.

    Hosts raise it so that the referee has one place where faults become
    ``Match.fault`` calls and record entries, whatever the host. ``reported``
    says the bot itself reported the failure (a protocol ``error`` answer):
    its process is still in step and may serve the next request.
    """

    def __init__(self, kind: str, detail: str = "", *, reported: bool = False) -> None:
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r} (expected one of {FAULT_KINDS})")
        super().__init__(kind, detail)
        self.kind = kind
        self.detail = detail
        self.reported = reported

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind
