"""Deals reduced to what a Plackett-Luce fit reads (arena/ratings/_strength.py): the choice
sets ("stages") of each finishing order, who won them, per cluster.

A deal's finishing order ``a > b > c > d`` is three stages: ``a`` wins among ``{a, b, c,
d}``, ``b`` among ``{b, c, d}``, ``c`` among ``{c, d}``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class StageCounts:
    """Deals reduced to what the fit reads: choice sets, who won them, per cluster."""

    bots: int
    clusters: int
    members: npt.NDArray[np.float64]  # (choice sets, bots): 1 where the bot is in the set
    pair_cluster: npt.NDArray[np.int64]  # per (cluster, choice set) pair: the cluster
    pair_set: npt.NDArray[np.int64]  # ... the choice set
    pair_count: npt.NDArray[np.float64]  # ... how many stages of that cluster it holds
    wins: npt.NDArray[np.float64]  # (clusters, bots): stages won
    deals: npt.NDArray[np.int64]  # (bots,): deals played
    cluster_deals: npt.NDArray[np.int64]  # (clusters, bots): deals played per cluster
    total_deals: int  # deals, each counted once


def stage_counts(
    bots: int,
    label: npt.NDArray[np.int64],
    deal_start: npt.NDArray[np.int64],
    deal_size: npt.NDArray[np.int64],
    deal_cluster: npt.NDArray[np.int64],
) -> StageCounts:
    """Reduce deals (rows ``label[start:start+size]`` best first, as in
    :class:`~arena.ratings.Results`' arrays) to stage counts per cluster."""
    clusters = int(deal_cluster.max()) + 1 if len(deal_cluster) else 0
    width = int(deal_size.max()) if len(deal_size) else 0
    rows: list[npt.NDArray[np.int64]] = []
    winners: list[npt.NDArray[np.int64]] = []
    owners: list[npt.NDArray[np.int64]] = []
    cluster_deals = np.zeros((clusters, bots), dtype=np.int64)
    for size in np.unique(deal_size).tolist():
        chosen = np.flatnonzero(deal_size == size)
        orders = label[deal_start[chosen][:, None] + np.arange(size)]  # (deals, size)
        owner = deal_cluster[chosen]
        np.add.at(cluster_deals, (np.repeat(owner, size), orders.reshape(-1)), 1)
        for j in range(size - 1):
            padded = np.full((len(chosen), width), -1, dtype=np.int64)
            padded[:, : size - j] = np.sort(orders[:, j:], axis=1)
            rows.append(padded)
            winners.append(orders[:, j])
            owners.append(owner)
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return StageCounts(bots, clusters, np.zeros((0, bots)), empty, empty,
                           np.zeros(0), np.zeros((clusters, bots)), np.zeros(bots, np.int64),
                           cluster_deals, 0)
    stage_rows = np.concatenate(rows)
    winner = np.concatenate(winners)
    owner = np.concatenate(owners)
    sets, choice = np.unique(stage_rows, axis=0, return_inverse=True)
    choice = np.asarray(choice, dtype=np.int64).reshape(-1)
    members = np.zeros((len(sets), bots + 1))
    members[np.repeat(np.arange(len(sets)), width), np.where(sets >= 0, sets, bots).reshape(-1)] = 1
    pairs, pair_count = np.unique(owner * len(sets) + choice, return_counts=True)
    wins = np.zeros((clusters, bots))
    np.add.at(wins, (owner, winner), 1.0)
    return StageCounts(
        bots=bots,
        clusters=clusters,
        members=members[:, :bots],
        pair_cluster=pairs // len(sets),
        pair_set=pairs % len(sets),
        pair_count=pair_count.astype(np.float64),
        wins=wins,
        deals=cluster_deals.sum(axis=0),
        cluster_deals=cluster_deals,
        total_deals=len(deal_size),
    )
