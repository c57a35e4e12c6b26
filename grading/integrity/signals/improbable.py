"""Improbable results: a player's score in an event against the score their ratings expected
(docs/integrity.md). Each game's expected score is the method's own (the D offset table, as
grading.engine.rules.elo reads it: PD = (100 + offset in tenths) / 200); the probability of
scoring at least as much is grading.integrity.signals.tails's. A score whose probability is at
most IMPROBABLE is flagged.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.rules.elo import PD_UNITS, expected_units
from grading.integrity.signals.tails import score_tails

IMPROBABLE = 1e-4  # one ordinary score in ten thousand is this far above its expectation
UNRATED = 0  # a rating used of 0: no rating, the game tells nothing of expectation


@dataclass(frozen=True)
class RatedGames:
    """Games as columns: the event, the two players, each one's rating used (UNRATED for none)
    and white's half points (2 a win, 1 a draw, 0 a loss)."""

    event: np.ndarray
    white: np.ndarray
    black: np.ndarray
    white_rating: np.ndarray
    black_rating: np.ndarray
    white_halves: np.ndarray

    def sides(self):
        """Each game twice, once from each player's side: (event, player, opponent, rating,
        opponent's rating, half points), games with an unrated player left out."""
        both = (self.white_rating != UNRATED) & (self.black_rating != UNRATED)
        event = np.concatenate((self.event[both], self.event[both]))
        player = np.concatenate((self.white[both], self.black[both]))
        opponent = np.concatenate((self.black[both], self.white[both]))
        rating = np.concatenate((self.white_rating[both], self.black_rating[both]))
        opponents = np.concatenate((self.black_rating[both], self.white_rating[both]))
        halves = np.concatenate((self.white_halves[both], 2 - self.white_halves[both]))
        return event, player, opponent, rating, opponents, halves


@dataclass(frozen=True)
class EventScores:
    """One row a player of an event: their rated games, their rating used and their opponents'
    average, expected and actual half points, and the probability of scoring at least
    (``upper``) and at most (``lower``) what they did."""

    event: np.ndarray
    player: np.ndarray
    games: np.ndarray
    rating: np.ndarray
    opponents: np.ndarray
    expected_halves: np.ndarray
    halves: np.ndarray
    upper: np.ndarray
    lower: np.ndarray

    def flagged(self, threshold: float = IMPROBABLE) -> np.ndarray:
        return self.upper <= threshold


def expected_score(rating: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    return expected_units(rating - opponents) / PD_UNITS


def event_scores(games: RatedGames) -> EventScores:
    event, player, _, rating, opponents, halves = games.sides()
    order = np.lexsort((player, event))
    event, player, halves, rating, opponents = (
        event[order],
        player[order],
        halves[order],
        rating[order],
        opponents[order],
    )
    expected = expected_score(rating, opponents)
    new = np.ones(len(event), dtype=bool)
    new[1:] = (event[1:] != event[:-1]) | (player[1:] != player[:-1])
    group = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    upper, lower = score_tails(group, expected, halves)
    games = np.diff(np.append(starts, len(event)))
    return EventScores(
        event=event[starts],
        player=player[starts],
        games=games,
        rating=rating[starts],
        opponents=np.add.reduceat(opponents, starts) / games if len(starts) else np.zeros(0),
        expected_halves=np.add.reduceat(2 * expected, starts) if len(starts) else np.zeros(0),
        halves=np.add.reduceat(halves, starts) if len(starts) else np.zeros(0, dtype=np.int64),
        upper=upper,
        lower=lower,
    )
