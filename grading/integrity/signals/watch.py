"""Every signal over a window of games (a year's), as the monthly scan, an event's scan and the
bench all run them (docs/integrity.md): one function, so that what the bench measures is what
officers see.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import find_sorted
from grading.integrity.signals.events import ArbiterShares, EventFlags, arbiter_shares, event_flags
from grading.integrity.signals.improbable import EventScores, RatedGames, event_scores
from grading.integrity.signals.pairings import Pairings, repeated_pairings
from grading.integrity.signals.pools import Pools, closed_pools
from grading.integrity.signals.sandbagging import Sandbagging, sandbagging


@dataclass(frozen=True)
class Events:
    """The events of the games: ids (sorted), each one's month index and arbiter (0 for none)."""

    id: np.ndarray
    month: np.ndarray
    arbiter: np.ndarray

    def at(self, event: np.ndarray) -> np.ndarray:
        """The rows of ``event`` (ids, every one of them among these)."""
        return find_sorted(self.id, event)[1]


@dataclass(frozen=True)
class Findings:
    scores: EventScores  # the players read at their form: improbable results
    plain: EventScores  # read at their ratings alone: sandbagging's drops and rebounds
    pairings: Pairings
    sandbagging: Sandbagging
    pools: Pools
    events: EventFlags
    arbiters: ArbiterShares


def watch(games: RatedGames, month: np.ndarray, events: Events) -> Findings:
    """Every signal over ``games``, ``month`` each game's month index, ``events`` theirs."""
    scores = event_scores(games)
    pairs = repeated_pairings(games)
    plain = event_scores(games, form=False)
    sandbags = sandbagging(plain, events.month[events.at(plain.event)])
    pools = closed_pools(games, month)
    flagged = scores.flagged() | sandbagged_rows(scores, sandbags) | paired_rows(scores, games, pairs)
    by_event = event_flags(scores.event, scores.player, flagged, pools)
    arbiters = arbiter_shares(events.arbiter[events.at(by_event.event)], by_event.flagged())
    return Findings(scores, plain, pairs, sandbags, pools, by_event, arbiters)


def sandbagged_rows(scores: EventScores, sandbags: Sandbagging) -> np.ndarray:
    """Whether each row (a player in an event) is a flagged drop or rebound."""
    keys = row_keys(scores.event, scores.player)
    found = np.concatenate(
        (row_keys(sandbags.drop_event, sandbags.player), row_keys(sandbags.rebound_event, sandbags.player))
    )
    return np.isin(keys, found)


def paired_rows(scores: EventScores, games: RatedGames, pairs: Pairings) -> np.ndarray:
    """Whether each row (a player in an event) played a flagged pair's game in that event."""
    flagged = pairs.flagged()
    wanted = pair_keys(pairs.first[flagged], pairs.second[flagged])
    met = np.isin(pair_keys(games.white, games.black), wanted)
    found = np.concatenate((row_keys(games.event[met], games.white[met]), row_keys(games.event[met], games.black[met])))
    return np.isin(row_keys(scores.event, scores.player), found)


def row_keys(event: np.ndarray, player: np.ndarray) -> np.ndarray:
    """One number for each (event, player): ids are far below 2**31."""
    return event.astype(np.int64) << 31 | player.astype(np.int64)


def pair_keys(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One number for each pair of players, whichever comes first."""
    return row_keys(np.minimum(a, b), np.maximum(a, b))
