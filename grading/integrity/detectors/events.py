"""Events and arbiters (docs/integrity.md): an event whose players are mostly flagged, or whose
players are all of one flagged closed pool (a ring playing only itself); and, per arbiter, the
share of their events flagged against the federation's.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import find_sorted
from grading.integrity.detectors.pools import Pools

MOSTLY = 0.5  # of an event's players flagged by any detector
ARBITER_RATIO = 3.0  # an arbiter's share of flagged events against the federation's
ARBITER_MIN_FLAGGED = 2


@dataclass(frozen=True)
class EventFlags:
    """One row an event: its players, how many of them a detector flagged, and whether all its
    players are of one closed pool (they mostly play only each other)."""

    event: np.ndarray
    players: np.ndarray
    flagged_players: np.ndarray
    isolated: np.ndarray

    def flagged(self) -> np.ndarray:
        return (self.flagged_players >= MOSTLY * self.players) | self.isolated


def event_flags(event: np.ndarray, player: np.ndarray, flagged: np.ndarray, pools: Pools) -> EventFlags:
    """``event``, ``player``: one row a player of an event (as EventScores gives them);
    ``flagged``: whether any detector flagged that player in that event."""
    events, index = np.unique(event, return_inverse=True)
    players = np.bincount(index, minlength=len(events))
    flagged_players = np.bincount(index, weights=flagged, minlength=len(events)).astype(np.int64)
    pool = pool_of(player, pools)
    pool = np.where(
        pool >= 0, np.where(pools.flagged()[np.maximum(pool, 0)] if len(pools.start) else False, pool, -1), -1
    )
    # Isolated: every player of the event in a pool, and the same pool for all.
    lowest = np.full(len(events), np.iinfo(np.int64).max)
    highest = np.full(len(events), -1)
    np.minimum.at(lowest, index, pool)
    np.maximum.at(highest, index, pool)
    isolated = (lowest >= 0) & (lowest == highest)
    return EventFlags(events, players, flagged_players, isolated)


def pool_of(player: np.ndarray, pools: Pools) -> np.ndarray:
    """Each player's closed pool (its row in ``pools``), -1 for none."""
    member_pool = np.repeat(np.arange(len(pools.start)), np.diff(np.append(pools.start, len(pools.members))))
    order = np.argsort(pools.members, kind="stable")
    members, member_pool = pools.members[order], member_pool[order]
    found, at = find_sorted(members, player)
    return np.where(found, member_pool[at] if len(members) else -1, -1)


@dataclass(frozen=True)
class ArbiterShares:
    """One row an arbiter: their events, how many were flagged, and the federation's share."""

    arbiter: np.ndarray
    events: np.ndarray
    flagged_events: np.ndarray
    federation_share: float

    def flagged(self) -> np.ndarray:
        share = self.flagged_events / np.maximum(self.events, 1)
        return (self.flagged_events >= ARBITER_MIN_FLAGGED) & (share >= ARBITER_RATIO * self.federation_share)


def arbiter_shares(arbiter: np.ndarray, flagged: np.ndarray) -> ArbiterShares:
    """``arbiter``: each event's arbiter; ``flagged``: whether the event was flagged."""
    arbiters, index = np.unique(arbiter, return_inverse=True)
    return ArbiterShares(
        arbiter=arbiters,
        events=np.bincount(index, minlength=len(arbiters)),
        flagged_events=np.bincount(index, weights=flagged, minlength=len(arbiters)).astype(np.int64),
        federation_share=float(np.mean(flagged)) if len(flagged) else 0.0,
    )
