"""Match seeds: a pure function of the tournament seed and a match's key."""

from __future__ import annotations

import hashlib


def match_seed(tournament_seed: int, key: str) -> int:
    """The seed of the match (or duplicate set) named ``key``, in 0..2**63-1.

    A hash, so a match's cards never depend on when or where it runs: the
    order of execution, the number of jobs and resuming change nothing.
    """
    digest = hashlib.blake2b(f"{tournament_seed}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & (2**63 - 1)
