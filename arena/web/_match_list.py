"""The match list of a served run, kept as it grows: what changed, not the whole list.

Each finished match's entry is computed once, and again only when its duplicate set moves
(a record of the set added, a match of the set begun or gone, the run's config read); the
matches in play, a few hundred at most, are computed when asked, at most every ``LIVE_S``
while no match begins or ends (a deal's scores in the list are that late at most). So the
list of a run of a million records costs what changed, the ``matches`` topic publishes that
alone (:meth:`MatchIndex.changes`), and the API answers the same list with the same bytes
until it moves (:attr:`MatchIndex.stamp`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from arena.tournament import TournamentConfig

    from ._in_play import InPlay

__all__ = ["LATEST", "LIVE_S", "STATES", "MatchIndex"]

STATES = ("finished", "waiting", "error", "playing", "held")
"""A match's states in the list (docs/web.md, ``/api/matches``)."""
LATEST = 200
"""The finished matches the ``matches`` topic's first message holds (the latest)."""
LIVE_S = 0.1
"""How old the list's entries of the matches in play may be (their scores after a deal)
while none begins or ends: 200 tables of instant bots end a deal every few milliseconds."""


class Matches(Protocol):
    """What the list reads of a run folder (``arena.web.RunFolder``)."""

    @property
    def generation(self) -> int: ...

    @property
    def added(self) -> Sequence[str]: ...

    @property
    def records(self) -> Mapping[str, dict[str, Any]]: ...

    @property
    def people_added(self) -> Sequence[str]: ...

    @property
    def people(self) -> Mapping[str, dict[str, Any]]: ...

    @property
    def live(self) -> Mapping[str, InPlay]: ...

    @property
    def config(self) -> TournamentConfig | None: ...

    def waiting_for_set(self, match_id: str) -> bool: ...

    def held(self, match_id: str) -> bool: ...

    def recorded(self, match_id: str) -> bool: ...


class MatchIndex:
    """The entries of ``run``'s match list (``/api/matches``), kept up to date."""

    def __init__(self, run: Matches) -> None:
        self.run = run
        self._entries: dict[str, dict[str, Any]] = {}  # the run's records, in order
        self._people: dict[str, dict[str, Any]] = {}
        # the keys of each in order, for a page's entries by position, and how many entries
        # of the two are in each state, for a filtered page's total: a page costs its own
        # entries, not the list's
        self._order: list[str] = []
        self._people_order: list[str] = []
        self._states: dict[str, int] = {}
        self._members: dict[str, list[str]] = {}  # set id -> its recorded matches
        self._seen = (-1, 0, 0)  # (generation, records read, people's read)
        self._configured = False
        self._live_sets: dict[str, str | None] = {}
        self._changed: dict[str, None] = {}
        self._sent: dict[str, dict[str, Any]] = {}  # matches in play as last published
        self._moved = 0  # counts the updates that moved the list, but for a deal's scores
        self._live: dict[str, dict[str, Any]] = {}  # the entries of the matches in play
        self._live_at = (-1, float("-inf"))  # (self._moved, monotonic time) they were made
        self._live_version = 0  # counts the changes of the entries of the matches in play

    def _update(self) -> None:
        run = self.run
        generation, done, people = self._seen
        dirty: set[str] = set()
        if (generation, done, people) != (run.generation, len(run.added),
                                          len(run.people_added)):
            self._moved += 1
        if generation != run.generation:
            self._entries.clear()
            self._people.clear()
            self._members.clear()
            self._order.clear()
            self._people_order.clear()
            self._states.clear()
            done = people = 0
        for match_id in run.added[done:]:
            record = run.records[match_id]
            set_id = record.get("set")
            if set_id is not None:
                self._members.setdefault(str(set_id), []).append(match_id)
                dirty.add(str(set_id))
            self._put(self._entries, self._order, match_id,
                      self._record_entry(match_id, record))
            self._changed[match_id] = None
        for match_id in run.people_added[people:]:
            self._put(self._people, self._people_order, match_id,
                      _people_entry(match_id, run.people[match_id]))
            self._changed[match_id] = None
        self._seen = (run.generation, len(run.added), len(run.people_added))
        live = {match_id: match.set for match_id, match in run.live.items()}
        if live.keys() != self._live_sets.keys() or (
                run.config is not None and not self._configured):
            self._moved += 1
        for match_id in live.keys() ^ self._live_sets.keys():
            set_id = live.get(match_id, self._live_sets.get(match_id))
            if set_id is not None:
                dirty.add(str(set_id))
        self._live_sets = live
        if run.config is not None and not self._configured:  # every set's size now known
            self._configured = True
            dirty |= set(self._members)
        for set_id in dirty:
            for match_id in self._members.get(set_id, ()):
                self._put(self._entries, self._order, match_id,
                          self._record_entry(match_id, run.records[match_id]))
                self._changed[match_id] = None

    def _put(self, entries: dict[str, dict[str, Any]], order: list[str], match_id: str,
             entry: dict[str, Any]) -> None:
        """Set ``match_id``'s entry in ``entries`` (a new one last in ``order``), counting
        its state."""
        old = entries.get(match_id)
        if old is None:
            order.append(match_id)
        else:
            self._states[old["state"]] -= 1
        self._states[entry["state"]] = self._states.get(entry["state"], 0) + 1
        entries[match_id] = entry

    def _record_entry(self, match_id: str, record: dict[str, Any]) -> dict[str, Any]:
        if record.get("type") == "error":
            state = "error"
        else:
            state = "waiting" if self.run.waiting_for_set(match_id) else "finished"
        return {"id": match_id, "state": state, "set": record.get("set"),
                "round": record.get("round"),
                "labels": [s.get("label") for s in record.get("seats") or ()],
                "scores": record.get("scores"), "ranking": record.get("ranking")}

    def _live_entries(self, fresh: bool = False) -> dict[str, dict[str, Any]]:
        """The matches in play's entries: made again when the list moved, when ``fresh``,
        or ``LIVE_S`` after they were last made."""
        now = time.monotonic()
        moved, at = self._live_at
        if fresh or moved != self._moved or now >= at + LIVE_S:
            run, last = self.run, self._live
            live = {match_id: _live_entry(match_id, match, run.held(match_id),
                                          last.get(match_id))
                    for match_id, match in run.live.items()}
            if live != self._live:
                self._live = live
                self._live_version += 1
            self._live_at = (self._moved, now)
        return self._live

    @property
    def stamp(self) -> tuple[int, int]:
        """Names the list as it is now (brought up to date): the same stamp, the same
        list (an answer of it may be kept until the stamp changes)."""
        self._update()
        self._live_entries()
        return self._moved, self._live_version

    def entries(self, states: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Every match, in the records' order, then the matches in play, then the people's
        tables' finished matches; only those in ``states`` when given."""
        self._update()
        every = [*self._entries.values(), *self._live_entries().values(),
                 *self._people.values()]
        if states is None:
            return every
        wanted = set(states)
        return [entry for entry in every if entry["state"] in wanted]

    def page(self, states: Iterable[str] | None = None, offset: int = 0,
             limit: int | None = None, last: int | None = None
             ) -> tuple[list[dict[str, Any]], int]:
        """``entries(states)`` cut to its ``last`` entries when given, then from ``offset``
        to at most ``limit`` of them, and how many there were once cut to ``last``
        (``/api/matches``' ``matches`` and ``total``), without building the whole list: the
        entries are found by position, each state's count kept, so a page of a list of a
        million costs its own entries (a filtered page walks from the nearer end past the
        entries of other states)."""
        self._update()
        live = self._live_entries()
        parts = [(self._order, self._entries), (list(live), live),
                 (self._people_order, self._people)]
        wanted = None if states is None else set(states)
        if wanted is None:
            count = sum(len(order) for order, _ in parts)
        else:
            count = sum(self._states.get(state, 0) for state in wanted) + sum(
                1 for entry in live.values() if entry["state"] in wanted)
        base = count - min(last, count) if last is not None else 0
        total = count - base
        low = base + min(offset, total)
        high = count if limit is None else min(count, low + limit)
        if low >= high:
            return [], total
        if wanted is not None:
            return _walk(parts, wanted, low, high, count), total
        out = []
        for position in range(low, high):
            for order, entries in parts:
                if position < len(order):
                    out.append(entries[order[position]])
                    break
                position -= len(order)
        return out, total

    def total(self) -> int:
        """How many matches the list holds."""
        self._update()
        return len(self._entries) + len(self.run.live) + len(self._people)

    def latest(self) -> list[dict[str, Any]]:
        """The ``matches`` topic's state now: the latest ``LATEST`` finished matches (the
        run's and the people's tables) and every match in play (a subscriber's first message;
        :meth:`changes` follows, for every subscriber alike)."""
        self._update()
        return [*_last(self._entries, LATEST), *self._live_entries().values(),
                *_last(self._people, LATEST)]

    def changes(self) -> tuple[list[dict[str, Any]], list[str]]:
        """What changed since the last :meth:`latest` or :meth:`changes`: the entries new or
        changed, and the ids of the matches in play that went unrecorded."""
        self._update()
        live = self._live_entries(fresh=True)
        changed = [self._entries.get(i) or self._people[i] for i in self._changed
                   if i in self._entries or i in self._people]
        changed += [entry for match_id, entry in live.items()
                    if self._sent.get(match_id) != entry]
        gone = [i for i in self._sent if i not in live and not self.run.recorded(i)]
        self._changed.clear()
        self._sent = live
        return changed, gone


def _walk(parts: Sequence[tuple[Sequence[str], Mapping[str, dict[str, Any]]]],
          wanted: set[str], low: int, high: int, count: int) -> list[dict[str, Any]]:
    """The entries at positions ``low`` to ``high`` of the ``count`` entries of ``parts``
    (each its keys in order and their entries) whose state is ``wanted``, walking from the
    nearer end."""

    def forwards() -> Iterator[dict[str, Any]]:
        for order, entries in parts:
            yield from (entries[key] for key in order)

    def backwards() -> Iterator[dict[str, Any]]:
        for order, entries in reversed(parts):
            yield from (entries[key] for key in reversed(order))

    out = []
    if low <= count - high:
        position = 0
        for entry in forwards():
            if entry["state"] in wanted:
                if position >= low:
                    out.append(entry)
                position += 1
                if position == high:
                    break
        return out
    position = count
    for entry in backwards():
        if entry["state"] in wanted:
            position -= 1
            if position < high:
                out.append(entry)
            if position == low:
                break
    return out[::-1]


def _last(entries: dict[str, dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The last ``count`` values of ``entries``, in order, without walking the rest."""
    out: list[dict[str, Any]] = []
    for key in reversed(entries):
        if len(out) == count:
            break
        out.append(entries[key])
    return out[::-1]


def _live_entry(match_id: str, match: InPlay, held: bool,
                last: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match in play's entry; ``last``, its entry as last made, when nothing changed."""
    state = "held" if held else "playing"
    scores = None if held else _scores(match)
    if last is not None and last["scores"] is scores and last["state"] == state:
        return last  # (the same totals are the same list: _scores makes one per deal's end)
    return {"id": match_id, "state": state, "set": match.set, "round": match.round,
            "labels": match.labels, "scores": scores, "ranking": None}


def _people_entry(match_id: str, record: dict[str, Any]) -> dict[str, Any]:
    """A people's table's finished match: over, so public; no set, no standings."""
    return {"id": match_id, "state": "finished", "people": True, "set": None, "round": None,
            "labels": [s.get("name") or s.get("label") for s in record.get("seats") or ()],
            "scores": record.get("scores"), "ranking": record.get("ranking")}


def _scores(match: InPlay) -> list[int] | None:
    """The totals after the match's last deal (None before its first ended), from the
    events that came since the last look only (the list of 200 tables' matches is made
    again every 0.1 s; a deal's events were read back to its start each time)."""
    events = match.events
    seen, scores = match.scores
    for index in range(len(events) - 1, seen - 1, -1):
        if events[index].get("type") == "deal_end":
            scores = list(events[index].get("scores") or [])
            break
    match.scores = (len(events), scores)
    return scores
