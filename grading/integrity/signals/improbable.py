"""Improbable results: a player's score in an event against the score their ratings expected
(docs/integrity.md). Each game's expected score is the method's own (the D offset table, as
grading.engine.rules.elo reads it: PD = (100 + offset in tenths) / 200); the probability of
scoring at least as much is grading.integrity.signals.tails's. A score whose probability is at
most IMPROBABLE is flagged.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import dense_index, is_in
from grading.engine.rules.elo import PD_UNITS, expected_units
from grading.integrity.signals.tails import score_tails

IMPROBABLE = 1e-4  # one ordinary score in ten thousand is this far above its expectation
UNRATED = 0  # a rating used of 0: no rating, the game tells nothing of expectation
# A player's form: rating points for each point a game above expectation in their other events
# (near evens, the table's expected score moves about 0.0014 a point), shrunk as if ten more
# games had been played at expectation, and at most 400 either way.
FORM_POINTS = 700
FORM_PRIOR_GAMES = 10
FORM_CAP = 400


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

    def take(self, positions) -> "RatedGames":
        """The games at ``positions`` (or where a mask is true)."""
        return RatedGames(*(getattr(self, name)[positions] for name in RatedGames.__dataclass_fields__))

    def sides(self):
        """Each game twice, once from each player's side: (event, player, opponent, rating,
        opponent's rating, half points), games with an unrated player left out. Worked out once
        (every signal asks), kept beside the columns."""
        if "_sides" not in self.__dict__:
            self.__dict__["_sides"] = self._both_sides()
        return self.__dict__["_sides"]

    def _both_sides(self):
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
    average, the rating points their form added (``form``, 0 read without it), expected and
    actual half points, and the probability of scoring at least (``upper``) and at most
    (``lower``) what they did."""

    event: np.ndarray
    player: np.ndarray
    games: np.ndarray
    rating: np.ndarray
    opponents: np.ndarray
    form: np.ndarray
    expected_halves: np.ndarray
    halves: np.ndarray
    upper: np.ndarray
    lower: np.ndarray

    def flagged(self, threshold: float = IMPROBABLE) -> np.ndarray:
        return self.upper <= threshold

    def joined(self, other: "EventScores") -> "EventScores":
        """These rows and ``other``'s (of other events)."""
        return EventScores(
            *(np.concatenate((getattr(self, name), getattr(other, name))) for name in EventScores.__dataclass_fields__)
        )


def expected_score(rating: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    return expected_units(rating - opponents) / PD_UNITS


def event_scores(games: RatedGames, form: bool = True, scope: np.ndarray | None = None) -> EventScores:
    """Each player's score in each event and its tails. With ``form``, each game's expected
    score counts both players at their rating plus their form in their other events of the games
    given (``form_shifts``): a junior who beats expectation everywhere is stronger than their
    rating, not a beneficiary of one event's gifts. With ``scope`` (event ids, sorted), only the
    rows of those events: a player's form still reads all their games given, summed player by
    player without sorting them, so that a month is scored against its year at little more than
    the month's cost."""
    event, player, opponent, rating, opponents, halves = games.sides()
    expected = surplus = None
    if form and len(event):
        expected = expected_score(rating, opponents)
        surplus = halves / 2 - expected
        index, size = dense_index(player)
        totals = np.bincount(index, weights=surplus, minlength=size), np.bincount(index, minlength=size)
    if scope is not None:
        kept = is_in(event, scope)
        event, player, opponent, rating, opponents, halves = (
            column[kept] for column in (event, player, opponent, rating, opponents, halves)
        )
        index = index[kept] if expected is not None else None
        expected = None  # worked out again for the rows kept alone
    if expected is None:
        expected = expected_score(rating, opponents)
        surplus = halves / 2 - expected
    keys = row_keys(event, player)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    event, player, opponent, halves = event[order], player[order], opponent[order], halves[order]
    rating, opponents, expected, surplus = rating[order], opponents[order], expected[order], surplus[order]
    new = np.ones(len(event), dtype=bool)
    new[1:] = (event[1:] != event[:-1]) | (player[1:] != player[:-1])
    group = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    games = np.diff(np.append(starts, len(event)))
    shift = np.zeros(len(starts), dtype=np.int64)
    if form and len(event):
        at = index[order][starts]
        row_surplus = np.add.reduceat(surplus, starts)
        shift = form_shifts(totals[0][at] - row_surplus, totals[1][at] - games)
        opponent_row = np.searchsorted(keys[starts], row_keys(event, opponent))  # the opponent's row
        expected = expected_score(rating + shift[group], opponents + shift[opponent_row])
    upper, lower = score_tails(group, expected, halves)
    return EventScores(
        event=event[starts],
        player=player[starts],
        games=games,
        rating=rating[starts],
        opponents=np.add.reduceat(opponents, starts) / games if len(starts) else np.zeros(0),
        form=shift,
        expected_halves=np.add.reduceat(2 * expected, starts) if len(starts) else np.zeros(0),
        halves=np.add.reduceat(halves, starts) if len(starts) else np.zeros(0, dtype=np.int64),
        upper=upper,
        lower=lower,
    )


def form_shifts(other_surplus: np.ndarray, other_games: np.ndarray) -> np.ndarray:
    """For each row (a player in an event), the player's form in their other events, in rating
    points, from their points above expectation there and their games: FORM_POINTS a point,
    shrunk by FORM_PRIOR_GAMES games of no surplus, at most FORM_CAP either way."""
    shift = FORM_POINTS * other_surplus / (other_games + FORM_PRIOR_GAMES)
    return np.clip(np.rint(shift), -FORM_CAP, FORM_CAP).astype(np.int64)


def row_keys(event: np.ndarray, player: np.ndarray) -> np.ndarray:
    """One number for each (event, player), in their order: ids are far below 2**31."""
    return event.astype(np.int64) << 31 | player.astype(np.int64)


def key_parts(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two ids of each of ``row_keys``'s numbers."""
    return keys >> 31, keys & (2**31 - 1)
