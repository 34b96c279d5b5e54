"""What the public may read of a record: a fault's detail without the bot's own words.

A fault's ``detail`` is the referee's words, then, after a colon, whatever of the bot it
quotes: its output's tail (``; output tail: ...``), the exception its code raised
(``ValueError: message; traceback tail: ...``), the error it reported (``bot error:
...``). The records (the organiser's file) and its entrant's own view keep all of it; a
served run's public pages, API and report show the referee's words alone
(docs/records.md, "Public details").

The cut is structural: every place the referee quotes a bot's words puts ``": "`` before
them, and the referee's own sentence before the first ``": "`` quotes none of them (it
names a stage, an exit status, a time, at most a value the bot sent on the protocol, which
its moves show anyway). So the public detail keeps the stage (``start failed``,
``end_deal failed``) and the referee's sentence up to its first colon, and of an exception
only its class's name, when it is one of Python's own (``ValueError``): a class the bot
defined is named by the bot.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["public_fault", "public_fault_detail", "public_record"]

_STAGES = ("start failed: ", "end_deal failed: ")
_BOT_ERROR = "bot error: "
_QUOTES = ("; output tail", "; traceback tail")
_NAME = re.compile(r"[^\W\d]\w*")


def _exception(name: str) -> str | None:
    """``name`` if it is the name of one of Python's own exceptions, else None."""
    found = getattr(builtins, name, None) if _NAME.fullmatch(name) else None
    return name if isinstance(found, type) and issubclass(found, BaseException) else None


def _balanced(text: str) -> str:
    """``text`` without a parenthesis it opens and does not close (and what follows it)."""
    while text.count("(") > text.count(")"):
        text = text[: text.rindex("(")].rstrip()
    return text


def public_fault_detail(detail: str, kind: str | None = None) -> str:
    """The referee's words of a fault's ``detail``, without the bot's: ``process exited
    without answering (exit code 1)`` of one that goes on ``; output tail: ...``,
    ``start failed: ValueError`` of a start whose code raised, ``bot error`` of an error the
    bot reported. The same for a detail already public.

    An ``illegal`` fault's detail is the referee's judgement of a move or cards the bot
    gave (``3H: does not beat the pile``), in the cards' own notation: it is kept whole (but
    for a tail the referee would quote after it)."""
    if kind == "illegal":
        for quote in _QUOTES:
            detail = detail.partition(quote + ": ")[0]
        return detail
    kept: list[str] = []
    text = detail
    for stage in _STAGES:
        if text.startswith(stage):
            kept.append(stage[:-2])
            text = text[len(stage):]
            break
    if text.startswith(_BOT_ERROR):  # the bot's own message, all of it (quoted as a repr)
        kept.append(_BOT_ERROR[:-2])
        name = _exception(text[len(_BOT_ERROR):].lstrip("'\"").partition(":")[0])
        kept += [name] if name else []
        return ": ".join(kept)
    head, colon, _ = text.partition(": ")
    if not colon:
        return detail
    if _NAME.fullmatch(head):  # ``Name: message``: an exception the bot's code raised
        kept.append(_exception(head) or "an exception")
    else:
        for quote in _QUOTES:
            head = head.removesuffix(quote)
        kept.append(_balanced(head))
    return ": ".join(part for part in kept if part)


def public_fault(fault: Mapping[str, Any]) -> dict[str, Any]:
    """A record's fault with its public detail (:func:`public_fault_detail`)."""
    out = dict(fault)
    if "detail" in out:
        out["detail"] = public_fault_detail(str(out["detail"] or ""), out.get("kind"))
    return out


def public_record(record: dict[str, Any]) -> dict[str, Any]:
    """A match record as the public may read it: each fault's detail public
    (:func:`public_fault`); of a record of a match the referee failed to play
    (``"type": "error"``), the public part of its error line (which may quote a bot's
    exception) and no traceback. ``record`` itself (not copied) when it has neither."""
    deals = record.get("deals") or ()
    if "error" not in record and not any(deal.get("faults") for deal in deals):
        return record
    out = {key: value for key, value in record.items() if key != "traceback"}
    if "error" in out:
        out["error"] = public_fault_detail(str(out["error"] or ""))
    if deals:
        out["deals"] = [{**deal, "faults": [public_fault(f) for f in deal["faults"]]}
                        if deal.get("faults") else deal for deal in deals]
    return out
