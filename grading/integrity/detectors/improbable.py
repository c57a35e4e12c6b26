"""Improbable results: a player's score in an event against the score their strength makes
likely (docs/integrity.md). Each game's chances are the game model's (grading.integrity.detectors.
model), the player read at their rating used and their form, as strong as they plausibly are;
the probability of scoring at least as much is grading.integrity.detectors.tails's. A score whose
probability is at most IMPROBABLE (or the list's threshold) is flagged.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import dense_index, is_in
from grading.integrity.detectors import model
from grading.integrity.detectors.tails import score_tails

IMPROBABLE = 1e-4  # one ordinary score in ten thousand is this far above its expectation
UNRATED = 0  # a rating used of 0: no rating, the game tells nothing of expectation
# A player's form: rating points for each point a game above expectation in their other events
# (near evens, the expected score moves about 1/694 a point: 1 / (4 x 173.7)), shrunk as if ten more
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
        (every detector asks), kept beside the columns."""
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

    def sides_month(self, month: np.ndarray) -> np.ndarray:
        """Each game's ``month`` in the order of ``sides``."""
        both = (self.white_rating != UNRATED) & (self.black_rating != UNRATED)
        return np.concatenate((month[both], month[both]))

    def side_positions(self) -> np.ndarray:
        """The position of each of ``sides``'s games among these (kept beside the columns)."""
        if "_positions" not in self.__dict__:
            both = np.flatnonzero((self.white_rating != UNRATED) & (self.black_rating != UNRATED))
            self.__dict__["_positions"] = np.concatenate((both, both))
        return self.__dict__["_positions"]


@dataclass(frozen=True)
class EventScores:
    """One row a player of an event: their rated games, their rating used and their opponents'
    average, the rating points their form added (``form``, 0 read without it), their strength's
    uncertainty (``spread``), expected and actual half points at their reading (rating used and
    form), and the probability of scoring at least (``upper``) and at most (``lower``) what they
    did, read GENEROUS spreads in their favour (stronger for the upper tail, weaker for the
    lower). ``game`` and ``game_expected``: each row's games (positions among the games given,
    ``first_game`` where each row's begin) and the player's expected score in each."""

    event: np.ndarray
    player: np.ndarray
    games: np.ndarray
    rating: np.ndarray
    opponents: np.ndarray
    form: np.ndarray
    spread: np.ndarray
    expected_halves: np.ndarray
    halves: np.ndarray
    upper: np.ndarray
    lower: np.ndarray
    first_game: np.ndarray
    game: np.ndarray
    game_expected: np.ndarray

    def flagged(self, threshold: float = IMPROBABLE) -> np.ndarray:
        return self.upper <= threshold

    def games_of(self, row: int) -> tuple[np.ndarray, np.ndarray]:
        """The positions of ``row``'s games among the games given, and the player's expected score in each."""
        end = self.first_game[row + 1] if row + 1 < len(self.first_game) else len(self.game)
        return self.game[self.first_game[row] : end], self.game_expected[self.first_game[row] : end]

    def joined(self, other: "EventScores") -> "EventScores":
        """These rows and ``other``'s (of other events)."""
        columns = {
            name: np.concatenate((getattr(self, name), getattr(other, name)))
            for name in EventScores.__dataclass_fields__
        }
        columns["first_game"] = np.concatenate((self.first_game, other.first_game + len(self.game)))
        return EventScores(**columns)


def expected_score(rating: np.ndarray, opponents: np.ndarray, spread=0.0) -> np.ndarray:
    """The expected score at ``rating`` against ``opponents``, the game model's (model.expected)."""
    return model.expected(np.asarray(rating, dtype=float) - opponents, spread)


def player_spreads(games: RatedGames, month: np.ndarray | None, juniors: np.ndarray | None) -> model.Uncertainty:
    """The players' uncertainty (model.Uncertainty), from every side of ``games``."""
    return model.Uncertainty(
        np.concatenate((games.white, games.black)),
        np.concatenate((games.white_rating, games.black_rating)),
        None if month is None else np.concatenate((month, month)),
        juniors,
        UNRATED,
    )


def event_scores(
    games: RatedGames,
    form: bool = True,
    scope: np.ndarray | None = None,
    *,
    month: np.ndarray | None = None,
    juniors: np.ndarray | None = None,
    uncertainty: model.Uncertainty | None = None,
    lower: bool = True,
) -> EventScores:
    """Each player's score in each event and its tails. With ``form``, each player is read at
    their rating plus their form in their other events of the games given (``form_shifts``): a
    junior who beats expectation everywhere is stronger than their rating, not a beneficiary of
    one event's gifts. ``month`` (each game's month index) and ``juniors`` (player ids) widen a
    player's uncertainty (``player_spreads``). With ``scope`` (event ids, sorted), only the rows
    of those events: a player's form still reads all their games given, summed player by player
    without sorting them, so that a month is scored against its year at little more than the
    month's cost. ``uncertainty``: the players' (``player_spreads``), if worked out already;
    without ``lower``, the lower tails are not worked out (left at 1)."""
    uncertainty = uncertainty or player_spreads(games, month, juniors)
    event, player, opponent, rating, opponents, halves = games.sides()
    position = games.side_positions()
    index = totals = None
    if form and len(event):
        index, totals = form_totals(games)
    if scope is not None:
        kept = is_in(event, scope)
        event, player, opponent, rating, opponents, halves, position = (
            column[kept] for column in (event, player, opponent, rating, opponents, halves, position)
        )
        index = index[kept] if index is not None else None
    keys = row_keys(event, player)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    event, player, opponent, halves, position = (
        event[order],
        player[order],
        opponent[order],
        halves[order],
        position[order],
    )
    rating, opponents = rating[order], opponents[order]
    new = np.ones(len(event), dtype=bool)
    new[1:] = (event[1:] != event[:-1]) | (player[1:] != player[:-1])
    group = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    games_played = np.diff(np.append(starts, len(event)))
    shift = np.zeros(len(starts), dtype=np.int64)
    opponent_row = np.searchsorted(keys[starts], row_keys(event, opponent)) if len(event) else group
    if form and len(event):
        surplus = halves / 2 - expected_score(rating, opponents)
        row_surplus = np.add.reduceat(surplus, starts)
        at = index[order][starts]
        shift = form_shifts(totals[0][at] - row_surplus, totals[1][at] - games_played)
    row_month = None if month is None else np.maximum.reduceat(month[position], starts) if len(starts) else starts
    # Read with their form, a player is known by their other games too: their spread narrows.
    other = (totals[1][index[order][starts]] - games_played) if form and len(event) else None
    spread = {
        side: uncertainty.spread(player[starts], rating[starts], row_month, side, other) if len(starts) else np.zeros(0)
        for side in (1, -1)
    }
    mine = rating + shift[group]
    theirs = opponents + shift[opponent_row]
    level, opponent_spread = (mine + theirs) / 2, uncertainty.spread(opponent)
    tails = [np.ones(len(starts)), np.ones(len(starts))]
    for side in (1, -1) if lower else (1,):  # most generous: stronger for the upper tail, weaker for the lower
        win, draw = model.outcomes(mine + side * model.GENEROUS * spread[side][group] - theirs, level, opponent_spread)
        tails[0 if side == 1 else 1] = score_tails(group, win, draw, halves)[0 if side == 1 else 1]
    expected = expected_score(mine, theirs, opponent_spread)
    sums = (lambda column: np.add.reduceat(column, starts)) if len(starts) else (lambda column: np.zeros(0))
    return EventScores(
        event=event[starts],
        player=player[starts],
        games=games_played,
        rating=rating[starts],
        opponents=sums(opponents) / np.maximum(games_played, 1),
        form=shift,
        spread=spread[1],
        expected_halves=sums(2 * expected),
        halves=sums(halves).astype(np.int64),
        upper=tails[0],
        lower=tails[1],
        first_game=starts,
        game=position,
        game_expected=expected,
    )


def form_totals(games: RatedGames):
    """Each side's player as a place in ``totals`` (``dense_index``), and every player's points
    above expectation and rated games over all the games given: what their form is read from.
    Worked out once (the scores and the pairings both ask), kept beside the columns."""
    if "_form" not in games.__dict__:
        _, player, _, rating, opponents, halves = games.sides()
        surplus = halves / 2 - expected_score(rating, opponents)
        index, size = dense_index(player)
        games.__dict__["_form"] = (
            index,
            (
                np.bincount(index, weights=surplus, minlength=size),
                np.bincount(index, minlength=size),
            ),
        )
    return games.__dict__["_form"]


def form_of(games: RatedGames):
    """A function of player ids: their points above expectation and rated games over all the
    games given (``form_totals``), for reading a form without some of their games."""
    index, (surplus, count) = form_totals(games)
    _, player, _, _, _, _ = games.sides()
    if index is player:
        return lambda wanted: (surplus[wanted], count[wanted])
    ids = np.unique(player)
    return lambda wanted: (surplus[np.searchsorted(ids, wanted)], count[np.searchsorted(ids, wanted)])


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
