"""The leaderboard: per-bot statistics, OpenSkill ratings, bootstrap intervals and ranks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.seeds import bootstrap_rng

from ._bootstrap import balanced_strata, bootstrap_ratio
from ._defaults import CONFIDENCE, RESAMPLES, SEED
from ._head_to_head import HeadToHead, head_to_head_arrays
from ._league_board import StrengthBoard, rate_league
from ._plackett_luce import PlackettLuceParams, Z, rate_deals
from ._results import Arrays, Results
from ._scan import read_results


@dataclass(frozen=True)
class BotRating:
    """One bot's line of the leaderboard (all plain numbers; see docs/ratings.md)."""

    label: str
    rank: int  # 1 = best by mean score
    rank_best: int  # best rank the confidence intervals allow
    rank_worst: int  # worst rank the confidence intervals allow
    matches: int
    deals: int
    mean_place: float  # 1 = first
    mean_points: float  # points per deal, as the rules score them
    first_rate: float  # share of deals finished first
    faults: int
    score: float  # mean per-deal score, 0 (always last) .. 1 (always first)
    score_low: float  # confidence interval of score (bootstrap over sets or matches)
    score_high: float
    mu: float  # OpenSkill Plackett-Luce rating
    sigma: float
    ordinal: float  # mu - 3 sigma: a conservative skill estimate
    timeouts: int = 0  # faults of kind timeout: time losses (also counted in faults)

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form."""
        return asdict(self)


@dataclass(frozen=True)
class Leaderboard:
    """Ratings of every bot in some records, best first, with the head-to-head table."""

    bots: list[BotRating]
    head_to_head: HeadToHead
    matches: int
    deals: int
    clusters: int  # resampling units of the bootstrap
    cluster_kind: str  # "set", "match" or "mixed"
    confidence: float
    resamples: int
    duplicates: int  # records skipped because their match id was seen before
    strengths: StrengthBoard | None = None  # a league's records: its own leaderboard

    def bot(self, label: str) -> BotRating:
        """The line of one bot (KeyError if absent)."""
        for line in self.bots:
            if line.label == label:
                return line
        raise KeyError(f"no bot labelled {label!r} in these records")

    @property
    def ranking(self) -> str:
        """What the primary ranking is: ``"league"`` (a league's records: its strengths) or
        ``"deal_score"`` (the mean deal score, for every other run)."""
        return "league" if self.strengths is not None else "deal_score"

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict per bot, best first by mean deal score: ready for
        ``pandas.DataFrame(board.rows())``."""
        return [line.to_dict() for line in self.bots]

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form of the whole leaderboard.

        ``bots`` is the primary ranking, which ``ranking`` names: a league's entrants best
        first by strength (``StrengthLine``: rank among the active ones, strength, interval,
        sets, deals, active, anchor), else the mean-deal-score lines. ``deal_scores`` always
        holds the mean-deal-score lines (``BotRating``), best first by deal score."""
        deal_scores = self.rows()
        league = self.strengths.to_dict() if self.strengths is not None else None
        return {
            "ranking": self.ranking,
            "matches": self.matches,
            "deals": self.deals,
            "clusters": self.clusters,
            "cluster_kind": self.cluster_kind,
            "confidence": self.confidence,
            "resamples": self.resamples,
            "duplicates": self.duplicates,
            "bots": league["entrants"] if league is not None else deal_scores,
            "deal_scores": deal_scores,
            "head_to_head": self.head_to_head.to_dict(),
            "league": league,
        }


def rate(
    records: Iterable[Mapping[str, Any]],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    params: PlackettLuceParams | None = None,
) -> Leaderboard:
    """Rate the bots of an iterable of match records (streamed: one record in memory at a time).

    ``confidence`` and ``resamples`` shape the bootstrap; ``seed`` makes it reproducible.
    Raises :class:`RatingsError` naming the first malformed record.
    """
    results = Results()
    results.extend(records)
    return rate_results(
        results, confidence=confidence, resamples=resamples, seed=seed, params=params
    )


def rate_files(
    *paths: str | Path,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    params: PlackettLuceParams | None = None,
    on_skip: Callable[[str], None] | None = None,
) -> Leaderboard:
    """Rate the records of one or more record files, streamed one record at a time (only
    the fields ratings use are decoded).

    Lines that are not whole records are skipped and reported to ``on_skip(message)``.
    """
    return rate_results(
        read_results(paths, on_skip),
        confidence=confidence,
        resamples=resamples,
        seed=seed,
        params=params,
    )


def rate_results(
    results: Results,
    *,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    params: PlackettLuceParams | None = None,
) -> Leaderboard:
    """Rate already accumulated :class:`Results` (see :func:`rate`)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    data = results.arrays()
    bots = len(data.labels)
    deals, mean_place, mean_points, firsts, score = _means(data)
    played = [i for i in range(bots) if deals[i] > 0]
    mu, sigma = rate_deals(bots, data.label, data.deal_start, data.deal_size, params)
    intervals = _intervals(data, confidence, resamples, seed)

    ordinal = [mu[i] - Z * sigma[i] for i in range(bots)]
    ranked = sorted(played, key=lambda i: (-score[i], -ordinal[i], data.labels[i]))
    lows, highs = _widened(intervals, score, played)
    lines = []
    for position, i in enumerate(ranked, start=1):
        better = sum(1 for j in played if j != i and lows[j] > highs[i])
        worse = sum(1 for j in played if j != i and highs[j] < lows[i])
        lines.append(
            BotRating(
                label=data.labels[i],
                rank=position,
                rank_best=better + 1,
                rank_worst=len(played) - worse,
                matches=int(data.matches[i]),
                deals=int(deals[i]),
                mean_place=float(mean_place[i]),
                mean_points=float(mean_points[i]),
                first_rate=float(firsts[i]),
                faults=int(data.faults[i]),
                timeouts=int(data.timeouts[i]),
                score=float(score[i]),
                score_low=lows[i],
                score_high=highs[i],
                mu=mu[i],
                sigma=sigma[i],
                ordinal=ordinal[i],
            )
        )
    return Leaderboard(
        bots=lines,
        head_to_head=head_to_head_arrays(data, ranked),
        matches=results.matches,
        deals=len(data.deal_size),
        clusters=data.clusters,
        cluster_kind=data.cluster_kind,
        confidence=confidence,
        resamples=resamples,
        duplicates=results.duplicates,
        strengths=rate_league(results, confidence=confidence, resamples=resamples, seed=seed),
    )


def _means(data: Arrays) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64],
                                  npt.NDArray[np.float64], npt.NDArray[np.float64],
                                  npt.NDArray[np.float64]]:
    """Per bot (by label): its deals, and its mean place (1 the best), points, rate of first
    places and score over them (0 for a bot that played no deal)."""
    bots = len(data.labels)
    deals = np.bincount(data.label, minlength=bots)
    safe = np.maximum(deals, 1)
    return (deals,
            np.bincount(data.label, weights=data.place + 1, minlength=bots) / safe,
            np.bincount(data.label, weights=data.points, minlength=bots) / safe,
            np.bincount(data.label[data.place == 0], minlength=bots) / safe,
            np.bincount(data.label, weights=data.score, minlength=bots) / safe)


def _widened(intervals: Sequence[tuple[float, float]], score: npt.NDArray[np.float64],
             played: list[int]) -> tuple[dict[int, float], dict[int, float]]:
    """The score intervals of the bots that played, as ``(lows, highs)``: the bootstrap sums
    the clusters in another order than the mean score: its estimate can differ from the score
    in the last bit, so each interval is widened to the score shown beside it."""
    return ({i: min(intervals[i][0], float(score[i])) for i in played},
            {i: max(intervals[i][1], float(score[i])) for i in played})


def _intervals(
    data: Arrays, confidence: float, resamples: int, seed: int
) -> list[tuple[float, float]]:
    """Per bot: bootstrap interval of its mean score over the clusters it played in."""
    bots = len(data.labels)
    cluster = np.repeat(data.deal_cluster, data.deal_size)
    key = cluster * bots + data.label
    totals = np.bincount(key, weights=data.score, minlength=data.clusters * bots)
    counts = np.bincount(key, minlength=data.clusters * bots).astype(np.float64)
    totals = totals.reshape(data.clusters, bots) if data.clusters else totals.reshape(0, bots)
    counts = counts.reshape(data.clusters, bots) if data.clusters else counts.reshape(0, bots)
    # each cluster's table: the set of bots seated in it, as one integer id
    seated = counts > 0
    _, table = np.unique(seated, axis=0, return_inverse=True) if data.clusters else (
        None, np.zeros(0, dtype=np.int64))
    table = np.asarray(table, dtype=np.int64).reshape(-1)
    out = []
    for i in range(bots):
        mine = seated[:, i]
        # one generator per bot, seeded by (seed, bot index): intervals do not shift when
        # another bot is added to the records
        rng = bootstrap_rng(seed, i)
        out.append(bootstrap_ratio(totals[mine, i], counts[mine, i], resamples, confidence, rng,
                                   balanced_strata(table[mine])))
    return out
