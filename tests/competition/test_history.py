"""An entrant's strengths over the rounds: the league's own fit after each chosen round, the
last point the leaderboard's, a round's fit computed once while its records stay."""

from __future__ import annotations

from typing import Any

import pytest

from arena.competition import _history
from arena.competition._history import MAX_POINTS, RatingHistory, chosen
from arena.ratings import Results, rate_league, read_many
from tests.league_run import run_league


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = run_league(tmp_path_factory.mktemp("history"))
    return list(read_many([out / "records.jsonl"]))


@pytest.mark.parametrize("count", [1, 2, 39, 40, 41, 100, 1000])
def test_the_chosen_rounds_are_few_and_stay_chosen(count: int) -> None:
    picked = chosen(count)
    assert len(picked) <= MAX_POINTS and picked[0] == 0 and picked[-1] == count - 1
    later = chosen(count + 1)  # one round more: the earlier points stay, unless the step grew
    if len(picked) > 2 and len(later) > 2 and later[1] == picked[1]:
        assert set(picked[:-1]) <= set(later)


def test_the_last_point_is_the_leaderboard_and_fits_are_kept(
        records: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    fits: list[int] = []
    lines = _history._lines

    def counted(results: Results) -> dict[str, Any]:
        fits.append(len(results))
        return lines(results)

    monkeypatch.setattr(_history, "_lines", counted)
    last = max(r["round"] for r in records)
    history = RatingHistory()
    first = history.get([r for r in records if r["round"] < last])
    assert first["rounds"] == list(range(last)) and len(fits) == last
    now = history.get(records)
    assert now["rounds"] == list(range(last + 1))
    assert len(fits) == last + 1  # only the new round was fitted
    assert history.get(records) == now and len(fits) == last + 1
    results = Results()
    results.extend(records)
    board = rate_league(results)
    assert board is not None
    for line in board.lines:  # the leaderboard's numbers, to 4 decimals
        assert now["entrants"][line.label][-1] == [round(line.strength, 4),
                                                  round(line.low, 4), round(line.high, 4)]
    assert now["entrants"]["highest@2"][0] is None  # before it entered


def test_an_entrants_rounds_count_from_its_first(records: list[dict[str, Any]]) -> None:
    last = max(r["round"] for r in records)
    since = RatingHistory().get(records, since=last - 2)
    assert since["rounds"] == [last - 2, last - 1, last]
