"""Sandbagging: a rating lowered on purpose, through losses to much weaker players, shortly before
results far above the lowered rating (docs/integrity.md).

From the players' scores in events (grading.integrity.detectors.improbable), a *drop* is an event
whose score is at most THROWN likely from below (its lower tail, the player read as weak as they
plausibly are) against opponents on average at least WEAKER points below the player; a
*rebound* is a later event, at most WITHIN months on, played at a rating used at least FELL
points under the drop's (the drop cost them), whose score is at most REBOUND likely from above.
A drop and a rebound whose chances multiplied are at most JOINT are flagged, with both events: how improbable the
losses were and how far the rating fell are the flag's figures, not a fixed number of points.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import spans
from grading.integrity.detectors.improbable import EventScores

THROWN = 0.01
JOINT = 1e-4  # the drop's chance times the rebound's, at most
WEAKER = 150
FELL = 40
WITHIN = 3
REBOUND = 0.1


@dataclass(frozen=True)
class Sandbagging:
    """One row a drop followed by a rebound: the player, the drop's event and the rebound's,
    their months, and the ratings used in each."""

    player: np.ndarray
    drop_event: np.ndarray
    rebound_event: np.ndarray
    drop_month: np.ndarray
    rebound_month: np.ndarray
    drop_rating: np.ndarray
    rebound_rating: np.ndarray


def possible_drops(scores: EventScores) -> np.ndarray:
    """Whether each row is a possible drop: a score at most THROWN likely from below, against
    opponents WEAKER at least than the player. The one test of a drop, the scan's too (watch)."""
    return (scores.lower <= THROWN) & (scores.opponents <= scores.rating - WEAKER)


def possible_rebounds(scores: EventScores) -> np.ndarray:
    """Whether each row is a possible rebound: a score at most REBOUND likely from above."""
    return scores.upper <= REBOUND


def sandbagging(scores: EventScores, month: np.ndarray) -> Sandbagging:
    """``scores``: the players' scores at their ratings alone (``event_scores(games, form=False)``:
    a thrown event must not lower the form its rebound is read with); ``month``: each row's
    event's month, as a month index (chess.months.Month.index)."""
    drops = np.flatnonzero(possible_drops(scores))
    rebounds = np.flatnonzero(possible_rebounds(scores))
    # Each drop against each rebound of the same player: players with both are few.
    by_player = np.argsort(scores.player[rebounds], kind="stable")
    rebounds = rebounds[by_player]
    rebound_players = scores.player[rebounds]
    first = np.searchsorted(rebound_players, scores.player[drops], "left")
    last = np.searchsorted(rebound_players, scores.player[drops], "right")
    drop = np.repeat(drops, last - first)
    rebound = rebounds[spans(first, last)]
    later = (month[rebound] >= month[drop]) & (month[rebound] <= month[drop] + WITHIN)
    later &= scores.event[rebound] != scores.event[drop]
    lowered = scores.rating[rebound] <= scores.rating[drop] - FELL
    found = later & lowered & (scores.lower[drop] * scores.upper[rebound] <= JOINT)
    drop, rebound = drop[found], rebound[found]
    return Sandbagging(
        player=scores.player[drop],
        drop_event=scores.event[drop],
        rebound_event=scores.event[rebound],
        drop_month=month[drop],
        rebound_month=month[rebound],
        drop_rating=scores.rating[drop],
        rebound_rating=scores.rating[rebound],
    )
