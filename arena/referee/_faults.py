"""Faults: what a misbehaving bot costs its seat, never the match."""

from __future__ import annotations

from typing import Literal

from arena.game import FAULT_KINDS

__all__ = ["BotFault", "FaultKind", "timeout_fault"]

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


def timeout_fault(allowed_s: float, answered_s: float | None = None, own_s: float | None = None,
                  note: str = "") -> BotFault:
    """The one wording of a decision's ``timeout``: a bot that gave no answer before the host
    stopped waiting (``answered_s`` None) and one whose answer came after ``allowed_s``
    (``own_s``: its own time, when fair clocks charged less than the wall time) break
    one rule and are told the same figure. ``note`` is the tail of the bot's output."""
    allowed = f"the {allowed_s * 1000:.0f} ms allowed"
    if answered_s is None:
        return BotFault("timeout", f"no answer within {allowed}{note}")
    own = (f" (its own time {own_s * 1000:.0f} ms)"
           if own_s is not None and own_s < answered_s else "")
    return BotFault("timeout", f"answered after {answered_s * 1000:.0f} ms{own}, over "
                    f"{allowed} (answer discarded){note}")
