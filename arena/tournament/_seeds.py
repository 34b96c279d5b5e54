"""Match seeds: a pure function of the tournament seed and a match's key."""

from __future__ import annotations

from arena.seeds import derive


def match_seed(tournament_seed: int, key: str) -> int:
    """The seed of the match (or duplicate set) named ``key``, in 0..2**63-1.

    A keyed hash (``arena.seeds.derive``), so a match's cards never depend on
    when or where it runs (the order of execution, the number of jobs and
    resuming change nothing), and no match seed reveals the tournament seed.
    """
    return derive(tournament_seed, "match", key)
