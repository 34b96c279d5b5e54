"""Sequential A/B test: a generalized SPRT on per-set scores (the question fishtest answers).

Each duplicate set yields one score in [0, 1]: the share of comparisons the challenger won
against its reference bots (see :func:`set_score`). Under the logistic Elo model a mean score s
is worth ``400 * log10(s / (1 - s))`` Elo. H0 says the challenger's mean score is s0 = L(elo0),
H1 says s1 = L(elo1). The generalized SPRT does not model how set scores vary: each hypothesis
gets the distribution that explains the observed sets best under its mean. For set scores
modelled as normal with unknown variance that gives the log-likelihood ratio

    LLR = N/2 * log(r0 / r1),   r(s) = mean over sets of (score - s)^2

(fishtest's ``LLR_alt``, there applied to pentanomial game pairs; here duplicate sets play the
pairs' role). It costs O(1) per set and needs no assumption about the spread of set scores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

from ._results import RatingsError, natural_key

# A pseudo-set of weight 0.02, split between the scores 0 and 1, joins the sets: after one or
# two sets whose scores happen to agree, the spread estimate would otherwise be near zero and the
# LLR could leap past a bound. Its weight is gone after a few sets. Planted-strength runs with
# this weight keep both error rates at or a little under alpha and beta across set-score
# variances from 0.001 to 0.06 (weight 0: up to 0.4; weight 1: far too cautious, 0.003).
_PRIOR_WEIGHT = 0.02


def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` logistic Elo points stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of a mean score (clamped to +-2400 at scores 0 and 1)."""
    s = min(max(score, 1e-6), 1.0 - 1e-6)
    return 400.0 * math.log10(s / (1.0 - s))


@dataclass(frozen=True)
class SprtStatus:
    """Where a sequential test stands; every field is plain data."""

    decision: str  # "H1" (challenger stronger), "H0" (not stronger), "continue", "inconclusive"
    sets: int
    llr: float
    lower: float  # accept H0 at or below
    upper: float  # accept H1 at or above
    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_sets: int | None
    score: float  # mean per-set score (NaN before the first set)
    score_low: float  # confidence interval of the mean score (normal approximation)
    score_high: float
    elo: float  # the same three in logistic Elo
    elo_low: float
    elo_high: float
    confidence: float

    @property
    def finished(self) -> bool:
        """True once the test has stopped (a decision, or the maximum number of sets)."""
        return self.decision != "continue"

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form (NaN becomes None)."""
        return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in asdict(self).items()}

    def summary(self) -> str:
        """One line for people: the decision, the estimate and its interval."""
        verdict = {
            "H1": f"H1 accepted: challenger is stronger (elo >= {self.elo1:g})",
            "H0": f"H0 accepted: challenger is not stronger (elo <= {self.elo0:g})",
            "continue": "no decision yet",
            "inconclusive": f"no decision after the maximum of {self.max_sets} sets",
        }[self.decision]
        if self.sets == 0:
            return f"{verdict}; no sets played"
        return (
            f"{verdict}; {self.sets} sets, LLR {self.llr:+.2f} [{self.lower:+.2f}, "
            f"{self.upper:+.2f}], elo {self.elo:+.1f} "
            f"[{self.elo_low:+.1f}, {self.elo_high:+.1f}] ({self.confidence:.0%})"
        )


class Sprt:
    """A generalized sequential probability ratio test of ``elo >= elo1`` against ``elo <= elo0``.

    Feed one score per duplicate set with :meth:`update`; read :meth:`status`. The test stops
    (``status().finished``) when the LLR leaves ``(lower, upper)``, or after ``max_sets`` sets;
    later updates are refused so a decision cannot drift.
    """

    def __init__(
        self,
        elo0: float = 0.0,
        elo1: float = 20.0,
        alpha: float = 0.05,
        beta: float = 0.05,
        max_sets: int | None = None,
        confidence: float = 0.95,
    ) -> None:
        if not elo0 < elo1:
            raise ValueError(f"elo0 ({elo0}) must be below elo1 ({elo1})")
        for name, value in (("alpha", alpha), ("beta", beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, not {value}")
        if max_sets is not None and max_sets < 1:
            raise ValueError(f"max_sets must be at least 1, not {max_sets}")
        self.elo0 = float(elo0)
        self.elo1 = float(elo1)
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.max_sets = max_sets
        self.confidence = confidence
        self.lower = math.log(beta / (1.0 - alpha))
        self.upper = math.log((1.0 - beta) / alpha)
        self._z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
        self._s0 = elo_to_score(elo0)
        self._s1 = elo_to_score(elo1)
        self._n = 0
        self._sum = 0.0
        self._sum_sq = 0.0
        self._decision = "continue"
        self._llr = 0.0

    @property
    def llr(self) -> float:
        """The current log-likelihood ratio of H1 against H0."""
        return self._llr

    @property
    def sets(self) -> int:
        """Number of set scores taken."""
        return self._n

    def update(self, set_score: float) -> SprtStatus:
        """Take one duplicate set's score (0..1) and return the new status."""
        if self._decision != "continue":
            raise RuntimeError(f"the test has already stopped ({self._decision})")
        x = float(set_score)
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"a set score must be between 0 and 1, not {set_score}")
        self._n += 1
        self._sum += x
        self._sum_sq += x * x
        self._llr = self._compute_llr()
        if self._llr >= self.upper:
            self._decision = "H1"
        elif self._llr <= self.lower:
            self._decision = "H0"
        elif self.max_sets is not None and self._n >= self.max_sets:
            self._decision = "inconclusive"
        return self.status()

    def _compute_llr(self) -> float:
        # r(s) = mean of (x - s)^2: the variance each hypothesis needs to explain the sets
        w = _PRIOR_WEIGHT
        m1 = (self._sum + 0.5 * w) / (self._n + w)
        m2 = (self._sum_sq + 0.5 * w) / (self._n + w)
        s0, s1 = self._s0, self._s1
        r0 = m2 - 2.0 * s0 * m1 + s0 * s0
        r1 = m2 - 2.0 * s1 * m1 + s1 * s1
        return 0.5 * self._n * math.log(r0 / r1)

    def status(self) -> SprtStatus:
        """The decision so far, the LLR and its bounds, the estimate and its interval."""
        n = self._n
        if n:
            mean = self._sum / n
            var = max(self._sum_sq / n - mean * mean, 0.0)
            half = self._z * math.sqrt(var / max(n - 1, 1))
            low, high = max(mean - half, 0.0), min(mean + half, 1.0)
            elo, elo_low, elo_high = score_to_elo(mean), score_to_elo(low), score_to_elo(high)
        else:
            mean = low = high = elo = elo_low = elo_high = float("nan")
        return SprtStatus(
            decision=self._decision,
            sets=n,
            llr=self._llr,
            lower=self.lower,
            upper=self.upper,
            elo0=self.elo0,
            elo1=self.elo1,
            alpha=self.alpha,
            beta=self.beta,
            max_sets=self.max_sets,
            score=mean,
            score_low=low,
            score_high=high,
            elo=elo,
            elo_low=elo_low,
            elo_high=elo_high,
            confidence=self.confidence,
        )


def _opponents(record: Mapping[str, Any], challenger: str,
               baseline: str | Sequence[str] | None) -> tuple[list[int], list[int]]:
    labels = [str(seat["label"]) for seat in record["seats"]]
    mine = [s for s, label in enumerate(labels) if label == challenger]
    if baseline is None:
        theirs = [s for s, label in enumerate(labels) if label != challenger]
    else:
        wanted = {baseline} if isinstance(baseline, str) else set(baseline)
        theirs = [s for s, label in enumerate(labels) if _is_reference(label, wanted)]
    return mine, theirs


def _is_reference(label: str, wanted: set[str]) -> bool:
    """A reference label, or a copy of one as ``arena ab`` names them (``greedy#2``)."""
    if label in wanted:
        return True
    base, sep, number = label.rpartition("#")
    return bool(sep) and number.isdigit() and base in wanted


def _comparisons(record: Mapping[str, Any], challenger: str,
                 baseline: str | Sequence[str] | None) -> tuple[float, int]:
    """(sum of per-deal scores, deals compared) of one match record."""
    try:
        mine, theirs = _opponents(record, challenger, baseline)
        if not mine or not theirs:
            return 0.0, 0
        total = 0.0
        deals = 0
        for deal in record["deals"]:
            place = {seat: i for i, seat in enumerate(deal["finish_order"])}
            won = sum(1 for c in mine for o in theirs if place[c] < place[o])
            total += won / (len(mine) * len(theirs))
            deals += 1
    except (KeyError, TypeError, IndexError) as exc:
        raise RatingsError(
            f"match {record.get('match_id')!r}: malformed record ({type(exc).__name__}: {exc})"
        ) from None
    return total, deals


def set_score(
    records: Iterable[Mapping[str, Any]],
    challenger: str,
    baseline: str | Sequence[str] | None = None,
) -> float | None:
    """Score of one duplicate set for the challenger, in [0, 1]; None if nothing compares.

    Per deal, the share of reference bots the challenger finished ahead of (the reference bots
    are the ``baseline`` label or labels and their copies ``LABEL#2``, ``LABEL#3``...; with
    ``baseline=None``, every other seat: the challenger against a fixed field). The set's score
    is the mean over its deals.
    """
    total = 0.0
    deals = 0
    for record in records:
        t, d = _comparisons(record, challenger, baseline)
        total += t
        deals += d
    return total / deals if deals else None


def sprt_from_records(
    records: Iterable[Mapping[str, Any]],
    challenger: str,
    baseline: str | Sequence[str] | None = None,
    *,
    elo0: float = 0.0,
    elo1: float = 20.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_sets: int | None = None,
) -> SprtStatus:
    """Replay a finished or running A/B test from its records, sets in set-id order.

    The test stops at the first set where a live run would have stopped, so the answer is the
    one the run gave, whatever extra sets finished after it. Records without a ``set`` count as
    one set per match.
    """
    per_set: dict[str, list[float]] = {}
    seen: set[tuple[str, str]] = set()
    for record in records:
        if record.get("type", "match") != "match":
            continue
        match = (str(record.get("tournament") or ""), str(record.get("match_id")))
        if match in seen:
            continue
        seen.add(match)
        key = record.get("set")
        key = str(key) if key is not None else f"match:{record.get('match_id')}"
        t, d = _comparisons(record, challenger, baseline)
        acc = per_set.setdefault(key, [0.0, 0.0])
        acc[0] += t
        acc[1] += d
    test = Sprt(elo0, elo1, alpha, beta, max_sets)
    for key in sorted(per_set, key=natural_key):
        total, deals = per_set[key]
        if deals and not test.status().finished:
            test.update(total / deals)
    return test.status()
