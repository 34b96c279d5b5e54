"""What an entrant's page shows (docs/competition.md, "A page per entrant").

Public, to anyone: the entrant's versions with their state, the first line that explains
it and their submission time; each version's league strength and interval (the rows of
``/api/standings``); its strengths over the rounds (:mod:`._history`); its recent matches
with their links; its faults, counted by kind, and the flag of a version that faults in
most of its matches (``arena.records.BotFaults.flagged``). Private, to the entrant's token
alone: its submissions' logs (:meth:`Store.logs`) and the details of its own faults in its
own matches (the referee's words and its bot's output tail), never another's, and only once
a match's duplicate set is complete (as the match's record itself).

An entrant is a registered name (its labels are its submissions'), or an organiser's entry
of the league's field (its versions are the field's, ``LABEL``, ``LABEL@2``, ...).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.records import FaultLog, public_fault_detail
from arena.tournament import LEAGUE_LOG

from ._store import CompetitionError, Store, Submission

__all__ = ["MAX_MATCHES", "EntrantView", "league_field", "public_detail"]

MAX_MATCHES = 20
"""The recent matches an entrant's page lists."""
MAX_FAULTS = 50
"""The latest faults whose details the entrant's private view lists."""
_STRENGTH = ("rank", "strength", "strength_low", "strength_high", "sets", "deals", "active",
             "anchor", "matches")

Record = Callable[[str], "Mapping[str, Any] | None"]


def league_field(out: Path) -> list[dict[str, Any]]:
    """The league's field as its latest round chose it: the last line of ``league.jsonl``
    (each entrant's ``label``, ``base``, ``bot``, ``active``, ``anchor``); [] before it."""
    path = out / LEAGUE_LOG
    try:
        with path.open("rb") as file:
            end = file.seek(0, os.SEEK_END)
            size = min(end, 1 << 16)
            while True:  # read back from the end until a whole last line is in hand
                file.seek(end - size)
                lines = file.read(size).rstrip(b"\n").split(b"\n")
                if len(lines) > 1 or size == end:
                    break
                size = min(end, size * 4)
        field = json.loads(lines[-1]).get("field")
    except (OSError, ValueError, AttributeError):
        return []
    return [e for e in field if isinstance(e, dict)] if isinstance(field, list) else []


@dataclass(frozen=True)
class EntrantView:
    """One entrant's versions, each with its league label once the league's field has it."""

    name: str
    registered: bool
    versions: list[dict[str, Any]]

    @classmethod
    def find(cls, name: str, store: Store, field: Sequence[Mapping[str, Any]]) -> EntrantView:
        """The entrant ``name``: a registered entrant (or the owner of the label ``name``),
        else an entry of the field; a :class:`CompetitionError` (404) for neither."""
        owner = store.owner(name)
        if owner is not None:
            mine = [s for s in store.submissions() if s.entrant == owner]
            return cls(owner, True, [_submitted(s, field) for s in mine])
        versions = [e for e in field if e.get("base") == name]
        if not versions:
            raise CompetitionError(f"no entrant {name[:40]!r} in this league", 404)
        return cls(name, False, [
            {"label": name, "version": number, "league_label": e.get("label"),
             "state": "entered" if e.get("active") else "retired", "detail": "",
             "submitted": None} for number, e in enumerate(versions, start=1)])

    @property
    def labels(self) -> list[str]:
        """Its league labels, oldest version first."""
        return [v["league_label"] for v in self.versions if v["league_label"]]

    def public(self, standings: Sequence[Mapping[str, Any]],
               matches: Sequence[Mapping[str, Any]], record: Record,
               strengths: Callable[[int | None], Mapping[str, Any]]) -> dict[str, Any]:
        """The page's public document (``GET /api/entrants/NAME``); ``strengths(since)``:
        the league's history from the round ``since`` on (``RatingHistory.get``)."""
        rows = {row.get("label"): row for row in standings}
        mine = set(self.labels)
        played = [m for m in matches if mine & set(m.get("labels") or ())
                  and not m.get("people")]
        since = min((m["round"] for m in played if isinstance(m.get("round"), int)),
                    default=None)
        history = strengths(since)
        faults = FaultLog(self.labels)
        faults.extend(r for m in played if (r := record(str(m["id"]))) is not None)
        versions = []
        for version in self.versions:
            row = rows.get(version["league_label"], {})
            bot = faults.bots.get(version["league_label"] or "")
            versions.append({**version, "detail": public_detail(version["state"],
                                                                 version["detail"]),
                             **{k: row.get(k) for k in _STRENGTH},
                             "faulted_matches": bot.faulted if bot else 0,
                             "faults": _kinds(bot.by_kind if bot else {}),
                             "flagged": bool(bot and bot.flagged)})
        return {"name": self.name, "registered": self.registered, "versions": versions,
                "flagged": any(v["flagged"] for v in versions),
                "history": {"rounds": history.get("rounds", []),
                            "entrants": {label: history.get("entrants", {}).get(label)
                                         for label in self.labels}},
                "matches": [_match(m, mine, record) for m in played[::-1][:MAX_MATCHES]]}

    def private(self, store: Store, matches: Sequence[Mapping[str, Any]],
                record: Record) -> dict[str, Any]:
        """What its token alone reads (``GET /api/entrants/NAME/private``): the logs of its
        submissions and its own faults' details in its finished matches, latest first."""
        logs = [{"label": v["label"], "version": v["version"], "state": v["state"],
                 "detail": v["detail"],
                 "logs": [log.to_dict() for log in store.logs(v["id"])]}
                for v in self.versions if "id" in v]
        mine = set(self.labels)
        details: list[dict[str, Any]] = []
        for match in reversed(matches):
            if match.get("state") != "finished" or not mine & set(match.get("labels") or ()):
                continue
            found = record(str(match["id"]))
            details += [] if found is None else _own_faults(found, mine)
            if len(details) >= MAX_FAULTS:
                break
        return {"name": self.name, "logs": logs, "faults": details[:MAX_FAULTS]}


def _submitted(submission: Submission, field: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    league_label = next((e.get("label") for e in field if e.get("base") == submission.label
                         and (e.get("bot") or {}).get("version") == submission.version), None)
    return {"id": submission.id, "label": submission.label, "version": submission.version,
            "league_label": league_label, "state": submission.state,
            "detail": submission.detail, "submitted": submission.created,
            "kind": submission.kind, "sha256": submission.sha256}


def public_detail(state: str, detail: str) -> str:
    """What anyone may read of a submission's detail: all of it, but for a version that
    played its trial (``tried``, ``entered``) the bot's own words quoted after its counts
    (``played 5 deals, 68 moves, 2 faults``), and for a ``failed`` one the build log's line
    or the bot's error quoted after the step that failed (``the build failed (exit status
    1)``, ``made no move in its trial``), which are its entrant's alone."""
    if state in ("tried", "entered"):
        return detail.split(" (", 1)[0]
    return public_fault_detail(detail) if state == "failed" else detail


def _kinds(by_kind: Mapping[tuple[str, bool], int]) -> dict[str, int]:
    """Matches with each kind of fault (at the start or later alike)."""
    out: dict[str, int] = {}
    for (kind, _), count in by_kind.items():
        out[kind] = out.get(kind, 0) + count
    return out


def _match(match: Mapping[str, Any], mine: set[str], record: Record) -> dict[str, Any]:
    labels = list(match.get("labels") or ())
    seat = next(i for i, label in enumerate(labels) if label in mine)
    ranking = match.get("ranking") or []
    found = record(str(match["id"])) if match.get("state") in ("finished", "waiting") else None
    faults = sum(1 for deal in (found or {}).get("deals") or () for f in deal.get("faults") or ()
                 if f.get("seat") == seat)
    link = (f"/report/#match={match['id']}&deal=1&move=0" if match.get("state") == "finished"
            else f"/match?id={match['id']}" if match.get("state") == "playing" else None)
    return {"id": match["id"], "state": match.get("state"), "round": match.get("round"),
            "labels": labels, "scores": match.get("scores"), "seat": seat,
            "label": labels[seat], "place": ranking.index(seat) if seat in ranking else None,
            "faults": faults, "link": link}


def _own_faults(record: Mapping[str, Any], mine: set[str]) -> list[dict[str, Any]]:
    labels = [str(s.get("label")) for s in record.get("seats") or ()]
    return [{"match": record.get("match_id"), "label": labels[f["seat"]],
             "deal": deal.get("deal"), "move": f.get("move"), "stage": f.get("stage"),
             "kind": f.get("kind"), "detail": f.get("detail")}
            for deal in record.get("deals") or () for f in deal.get("faults") or ()
            if isinstance(f.get("seat"), int) and 0 <= f["seat"] < len(labels)
            and labels[f["seat"]] in mine]
