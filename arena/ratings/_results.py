"""Deal results: the compact, columnar form every statistic is computed from.

Records are large (hands, moves, timings); ratings need only who sat where, the finishing order,
the points and the faults of each deal. ``Results`` streams records in, keeps just that in flat
arrays (a million deals fit in a few tens of megabytes), and hands numpy views to the statistics.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt


class RatingsError(ValueError):
    """Records that cannot be rated, with a message naming the record and what is wrong."""


_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders ``r2`` before ``r10``: match ids carry round and table numbers."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in _DIGITS.split(text) if p)


@dataclass(frozen=True)
class LeagueEntrant:
    """One entrant of a league's field as a record carries it."""

    label: str
    active: bool  # in the matchmaking (False: retired, or replaced by a newer version)
    anchor: bool  # the strengths are centred on the anchors


@dataclass(frozen=True)
class LeagueField:
    """A league's field and stopping rule as the latest round's records carry them."""

    round: int
    entrants: tuple[LeagueEntrant, ...]
    top: int = 3
    confident: float | None = None

    @classmethod
    def parse(cls, data: Any, round_: int, where: str) -> LeagueField:
        """From a record's ``league`` field; :class:`RatingsError` naming ``where`` if it is
        not one."""
        problem = f"{where}: 'league' must be an object with 'entrants' (label, active, anchor)"
        if not isinstance(data, Mapping) or not isinstance(data.get("entrants"), list):
            raise RatingsError(problem)
        entrants = []
        for item in data["entrants"]:
            if not (isinstance(item, Mapping) and isinstance(item.get("label"), str)
                    and isinstance(item.get("active"), bool)
                    and isinstance(item.get("anchor"), bool)):
                raise RatingsError(problem)
            entrants.append(LeagueEntrant(item["label"], item["active"], item["anchor"]))
        top, confident = data.get("top", 3), data.get("confident")
        if not isinstance(top, int) or isinstance(top, bool) or top < 1 or not (
                confident is None or (isinstance(confident, float) and 0 < confident < 1)):
            raise RatingsError(f"{where}: 'league' has a bad 'top' or 'confident'")
        return cls(round_, tuple(entrants), top, confident)

    def to_dict(self) -> dict[str, Any]:
        """As a record carries it (without the round, which is the record's own)."""
        return {"entrants": [asdict(e) for e in self.entrants], "top": self.top,
                "confident": self.confident}


@dataclass(frozen=True)
class Arrays:
    """Numpy views of the results, one row per seat of every deal, deals in rating order."""

    labels: list[str]
    deal_start: npt.NDArray[np.int64]  # per deal: first row; rows of a deal are best..worst
    deal_size: npt.NDArray[np.int64]  # per deal: seats at the table
    deal_cluster: npt.NDArray[np.int64]  # per deal: duplicate set (or match) index
    label: npt.NDArray[np.int64]  # per row: bot index (rows follow the deals' order)
    place: npt.NDArray[np.int64]  # per row: 0 for first
    points: npt.NDArray[np.float64]  # per row: points scored in the deal
    score: npt.NDArray[np.float64]  # per row: points rescaled to 0 (worst) .. 1 (best)
    matches: npt.NDArray[np.int64]  # per bot: matches played
    faults: npt.NDArray[np.int64]  # per bot: faults committed
    timeouts: npt.NDArray[np.int64]  # per bot: faults of kind timeout (time losses)
    clusters: int
    cluster_kind: str  # "set" (all matches in duplicate sets), "match" (none) or "mixed"


class Results:
    """Accumulates match records one at a time; duplicates (same match id) are counted once.

    Rating order must not depend on the order records reach the file (workers finish in any
    order), so deals are kept per match and replayed in match-id order by :meth:`arrays`.
    """

    def __init__(self) -> None:
        self._label_index: dict[str, int] = {}
        self._labels: list[str] = []
        self._seen: set[tuple[str, str]] = set()
        self._match_keys: list[tuple[Any, ...]] = []
        self._tournament_keys: dict[str, tuple[tuple[int, int | str], ...]] = {}
        self._match_rows: list[tuple[int, int]] = []  # (first deal, deal count) per match
        self._match_cluster: list[int] = []
        self._cluster_index: dict[tuple[str, str], int] = {}
        self._deal_size = array("q")
        self._label = array("q")
        self._points = array("d")
        self._matches: list[int] = []
        self._faults: list[int] = []
        self._timeouts: list[int] = []
        self.duplicates = 0
        self.skipped = 0
        self._with_set = 0
        self.league: LeagueField | None = None
        """A league's field as its latest round's records carry it (``None``: no league)."""

    def __len__(self) -> int:
        """Number of deals held."""
        return len(self._deal_size)

    @property
    def matches(self) -> int:
        """Number of distinct matches held."""
        return len(self._match_keys)

    def _label_id(self, label: str) -> int:
        index = self._label_index.get(label)
        if index is None:
            index = len(self._labels)
            self._label_index[label] = index
            self._labels.append(label)
            self._matches.append(0)
            self._faults.append(0)
            self._timeouts.append(0)
        return index

    def extend(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Add every record of an iterable (see :meth:`add`)."""
        for record in records:
            self.add(record)

    def add(self, record: Mapping[str, Any]) -> None:
        """Add one match record; raise :class:`RatingsError` naming the match if it is malformed.

        Records of another ``type`` than ``"match"`` are skipped (a file may carry other kinds).
        """
        if not isinstance(record, Mapping):
            raise RatingsError(f"record is a {type(record).__name__}, not a JSON object")
        kind = record.get("type", "match")
        if kind != "match":
            self.skipped += 1
            return
        match_id = record.get("match_id")
        where = f"match {match_id!r}"
        if not isinstance(match_id, str) or not match_id:
            raise RatingsError("record without a 'match_id' string")
        tournament = str(record.get("tournament") or "")
        key = (tournament, match_id)
        if key in self._seen:
            self.duplicates += 1
            return
        seats = record.get("seats")
        deals = record.get("deals")
        if not isinstance(seats, list) or not seats:
            raise RatingsError(f"{where}: 'seats' must be a non-empty list")
        if not isinstance(deals, list):
            raise RatingsError(f"{where}: 'deals' must be a list")
        try:
            labels = [str(seat["label"]) for seat in seats]
        except (TypeError, KeyError):
            raise RatingsError(f"{where}: every seat needs a 'label'") from None
        ids = [self._label_id(label) for label in labels]
        rows, points_column, faults, timeouts = _deal_rows(deals, ids, where)
        self.note_league(record.get("league"), record.get("round"), where)
        self._label.extend(rows)
        self._points.extend(points_column)
        self._store(key, record.get("set"), ids, len(deals), faults, timeouts)

    def note_league(self, data: Any, round_: Any, where: str) -> None:
        """Keep a league record's field if its round is the latest seen (docs/records.md,
        ``league``); ``None`` (no league) is passed over."""
        if data is None:
            return
        number = round_ if isinstance(round_, int) and not isinstance(round_, bool) else -1
        if self.league is None or number > self.league.round:
            self.league = LeagueField.parse(data, number, where)

    def _store(
        self, key: tuple[str, str], set_id: Any, ids: list[int], deals: int, faults: list[int],
        timeouts: Sequence[int],
    ) -> None:
        """Everything of a checked match but its rows (label and points per seat, best first),
        which the caller appends: one match of ``deals`` deals at a table of ``len(ids)``
        bots, ``faults`` the bot index of each fault, ``timeouts`` of each timeout fault."""
        tournament, match_id = key
        first_deal = len(self._deal_size)
        self._deal_size.extend([len(ids)] * deals)
        if set_id is None:
            cluster_key = ("match", f"{tournament}\0{match_id}")
        else:
            cluster_key = ("set", f"{tournament}\0{set_id}")
            self._with_set += 1
        cluster = self._cluster_index.setdefault(cluster_key, len(self._cluster_index))
        self._seen.add(key)
        for index in set(ids):
            self._matches[index] += 1
        for index in faults:
            self._faults[index] += 1
        for index in timeouts:
            self._timeouts[index] += 1
        tournament_key = self._tournament_keys.get(tournament)
        if tournament_key is None:
            tournament_key = self._tournament_keys[tournament] = natural_key(tournament)
        self._match_keys.append((tournament_key, natural_key(match_id)))
        self._match_rows.append((first_deal, deals))
        self._match_cluster.append(cluster)

    def arrays(self) -> Arrays:
        """Columnar numpy views with deals reordered by (tournament, match id)."""
        deal_size = _as_int(self._deal_size)
        deal_start = np.cumsum(deal_size) - deal_size
        order = sorted(range(len(self._match_keys)), key=self._match_keys.__getitem__)
        deal_order: list[int] = []
        cluster_of_deal = np.zeros(len(deal_size), dtype=np.int64)
        for m in order:
            first, count = self._match_rows[m]
            deal_order.extend(range(first, first + count))
            cluster_of_deal[first : first + count] = self._match_cluster[m]
        index = np.asarray(deal_order, dtype=np.int64)
        starts = deal_start[index]
        sizes = deal_size[index]
        new_starts = np.cumsum(sizes) - sizes
        # rows of the reordered deals, kept contiguous: row r of the result is old row rows[r]
        rows = np.repeat(starts - new_starts, sizes) + np.arange(int(sizes.sum()), dtype=np.int64)
        place = rows - np.repeat(starts, sizes)
        points = _as_float(self._points)[rows]
        # bots by label and clusters by first use in rating order: then nothing (not even the
        # bootstrap's draws) depends on the order records came in
        by_name = sorted(range(len(self._labels)), key=self._labels.__getitem__)
        new_id = np.empty(len(by_name), dtype=np.int64)
        new_id[by_name] = np.arange(len(by_name), dtype=np.int64)
        clusters = cluster_of_deal[index]
        _, first_use = np.unique(clusters, return_index=True)
        cluster_rank = np.empty(len(self._cluster_index), dtype=np.int64)
        used = clusters[np.sort(first_use)]
        cluster_rank[used] = np.arange(len(used), dtype=np.int64)
        return Arrays(
            labels=[self._labels[i] for i in by_name],
            deal_start=new_starts.astype(np.int64),
            deal_size=sizes,
            deal_cluster=cluster_rank[clusters] if len(clusters) else clusters,
            label=new_id[_as_int(self._label)[rows]] if len(rows) else _as_int(self._label),
            place=place,
            points=points,
            score=_scores(points, new_starts, sizes, place),
            matches=np.asarray([self._matches[i] for i in by_name], dtype=np.int64),
            faults=np.asarray([self._faults[i] for i in by_name], dtype=np.int64),
            timeouts=np.asarray([self._timeouts[i] for i in by_name], dtype=np.int64),
            clusters=len(self._cluster_index),
            cluster_kind=_cluster_kind(self._with_set, len(self._match_keys)),
        )


def _deal_rows(deals: list[Any], ids: list[int], where: str,
               ) -> tuple[list[int], array[float], list[int], list[int]]:
    """The deals of the match at ``where`` seated ``ids`` (label ids by seat): each one's
    finishing order as label ids, the best first; their points in the same order; the label
    ids of its faults and of its timeouts. :class:`RatingsError` names a malformed deal."""
    n = len(ids)
    seats_range = list(range(n))
    rows: list[int] = []
    points_rows: list[float] = []
    faults: list[int] = []
    timeouts: list[int] = []
    try:
        for number, deal in enumerate(deals):
            order = deal["finish_order"]
            points = deal["points"]
            if sorted(order) != seats_range or len(points) != n:
                raise RatingsError(
                    f"{where}, deal {number}: 'finish_order' must list each of the {n} seats"
                    f" once and 'points' must have {n} entries"
                )
            rows.extend([ids[s] for s in order])
            points_rows.extend([points[s] for s in order])
            for fault in deal.get("faults") or ():
                faults.append(ids[fault["seat"]])
                if fault.get("kind") == "timeout":
                    timeouts.append(ids[fault["seat"]])
        points_column = array("d", points_rows)
    except RatingsError:  # a ValueError too: keep its own message
        raise
    except (TypeError, KeyError, IndexError, ValueError) as exc:
        raise RatingsError(f"{where}: malformed deal ({type(exc).__name__}: {exc})") from None
    return rows, points_column, faults, timeouts


def _as_int(column: array[int]) -> npt.NDArray[np.int64]:
    return np.frombuffer(column, dtype=np.int64).copy() if column else np.zeros(0, np.int64)


def _as_float(column: array[float]) -> npt.NDArray[np.float64]:
    return np.frombuffer(column, dtype=np.float64).copy() if column else np.zeros(0, np.float64)


def _cluster_kind(with_set: int, matches: int) -> str:
    if with_set == 0:
        return "match"
    return "set" if with_set == matches else "mixed"


def _scores(
    points: npt.NDArray[np.float64],
    starts: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    place: npt.NDArray[np.int64],
) -> npt.NDArray[np.float64]:
    """Each seat's points rescaled within its deal to 0 (fewest) .. 1 (most); a points table
    that gives everyone the same falls back on places (first 1, last 0)."""
    if len(points) == 0:
        return np.zeros(0, dtype=np.float64)
    low = np.repeat(np.minimum.reduceat(points, starts), sizes)
    span = np.repeat(np.maximum.reduceat(points, starts), sizes) - low
    by_place = (np.repeat(sizes, sizes) - 1 - place) / np.maximum(np.repeat(sizes, sizes) - 1, 1)
    safe = np.where(span > 0, span, 1.0)
    return np.where(span > 0, (points - low) / safe, by_place)
