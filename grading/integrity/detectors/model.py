"""The watch's model of a game (docs/integrity.md): one model for every chance a detector states
and every expected score its evidence shows.

- **Expected score.** A logistic curve of the difference in rating points, 1 / (1 + 10^(-d/400)),
  whose tails are heavier than those of the normal curve behind the rating table: upsets are
  likelier, as published comparisons of the two with real results found. A player whose true
  strength is uncertain by ``spread`` points (normally distributed) has the curve flattened to
  what it averages to over that uncertainty (the probit approximation of a logistic averaged over
  a normal).
- **Draws.** By the players' level (the mean of their ratings) and the gap between them: the
  share of draws between equals rises with level (DRAW_LEVELS, DRAW_AT_EVENS) and falls with the
  gap as exp(-(gap / DRAW_GAP)²), halving at 250 points. A win is then E - draw / 2 and a loss
  1 - E - draw / 2, so that the expected score is E.
- **Strength.** A player's true strength is uncertain around the rating used: SPREAD points for
  everyone, widened for a player whose rating is recent (NEW_SPREAD), for a junior
  (JUNIOR_SPREAD) and for a rating that moved in the year (LAG_MONTHS months of its movement: the
  rating lags a player who is rising or falling). A chance is stated at the most generous
  plausible reading for the player: GENEROUS spreads in their favour.
"""

import numpy as np

from grading.engine.arrays import dense_index

LOGISTIC = 400 / np.log(10)  # the curve's scale: 173.7 rating points
# The share of draws between players of equal rating, by the mean of their ratings: 40% at 2200
# and 62% among the elite (Sonas, ChessBase 2011: FIDE-rated games of 2001-2011; chess-db.com's
# 8 million tournament games: 36% at 2200 with a 100-point gap), lower in club play. The lower
# levels are read on the low side: fewer draws make every score likelier, never less.
DRAW_LEVELS = np.array([1000.0, 1400.0, 1800.0, 2200.0, 2600.0, 2800.0])
DRAW_AT_EVENS = np.array([0.08, 0.14, 0.24, 0.40, 0.55, 0.62])
DRAW_GAP = 300.0  # draws fall as exp(-(gap / 300)²): half as many at 250 points, none at 800
# An established adult's rating around their true strength, one standard deviation: an Elo
# rating with K = 20 wanders sqrt(K v / (2 s)) = sqrt(20 x 0.2 / (2 / 694)) = 37 points around a
# steady player (v: a game's variance, about 0.2; s: the expected score's slope, 1/694 a point),
# and the player's strength itself drifts a little.
SPREAD = 45.0
NEW_SPREAD = 150.0  # a rating made in the year (the player was unrated in the year's first games)
JUNIOR_SPREAD = 100.0
# What one game tells of a strength, as a variance in squared rating points: a game's variance
# (about 0.2) over the squared slope of the expected score (1/694 a point): 0.2 x 694².
GAME_INFORMATION = 0.2 * 694**2
LAG_MONTHS = 6  # a rising or falling rating trails its player's strength by about this many months
MOST_TREND = 300.0
# A chance is stated with the player read this many spreads in their favour: as strong as one
# player in twenty of that rating and uncertainty is.
GENEROUS = 1.645


def expected(difference, spread=0.0) -> np.ndarray:
    """The expected score of a side ``difference`` points above its opponent, their difference
    uncertain by ``spread`` points (one standard deviation)."""
    scale = LOGISTIC * np.sqrt(1 + np.pi * np.square(spread) / (8 * LOGISTIC**2))
    return 1 / (1 + np.exp(-np.asarray(difference, dtype=float) / scale))


def draw_chance(level, gap) -> np.ndarray:
    """The chance of a draw between players whose ratings average ``level``, ``gap`` apart."""
    at_evens = np.interp(level, DRAW_LEVELS, DRAW_AT_EVENS)
    return at_evens * np.exp(-np.square(np.asarray(gap, dtype=float) / DRAW_GAP))


def outcomes(difference, level, spread=0.0) -> tuple[np.ndarray, np.ndarray]:
    """(win, draw) chances of a side ``difference`` points above its opponent at ``level``."""
    score = expected(difference, spread)
    draw = np.minimum(draw_chance(level, np.abs(difference)), 2 * np.minimum(score, 1 - score))
    return score - draw / 2, draw


class Uncertainty:
    """How uncertain each player's strength is, in rating points (one standard deviation): SPREAD,
    widened for a new rating (the player was unrated in a game given), for a junior, and for a
    rating on the move: LAG_MONTHS months of its movement a month from the player's first rating
    used among the games given to the rating used in the games read, and only in the direction
    it moves (a rising rating trails a stronger player, a falling one a weaker). The movement is
    read up to the games read, never after: a rating that a thrown event lowered does not make
    the thrown event itself look likely."""

    def __init__(self, player, rating, month=None, juniors=None, unrated=0):
        """``player``, ``rating``, ``month``: every side of the games given (``month`` None: no
        movement is read); ``juniors``: player ids."""
        index, size = dense_index(player)
        # Players found by id itself where ids are small (dense_index's table), else by rank.
        self.ids = None if index is player else np.unique(player)
        self.size = size
        self.new = np.bincount(index[rating == unrated], minlength=size) > 0  # (no float weights: fast)
        ids = np.arange(size) if self.ids is None else self.ids
        self.junior = np.isin(ids, juniors) if juniors is not None else np.zeros(size, dtype=bool)
        self.first_month = None
        if month is not None and size:
            rated = rating != unrated
            first = np.full(size, np.iinfo(np.int64).max)
            np.minimum.at(first, index[rated], np.asarray(month)[rated])
            at_first = rated & (month == first[index])
            ratings = np.bincount(index[at_first], weights=rating[at_first], minlength=size)
            self.first_rating = ratings / np.maximum(np.bincount(index[at_first], minlength=size), 1)
            self.first_month = first

    def is_junior(self, players) -> np.ndarray:
        players = np.asarray(players)
        if not self.size:
            return np.zeros(len(players), dtype=bool)
        at = players if self.ids is None else np.minimum(np.searchsorted(self.ids, players), self.size - 1)
        return self.junior[at]

    def spread(self, players, rating=None, month=None, direction=0, other_games=None) -> np.ndarray:
        """The spread of each of ``players``; with ``rating`` and ``month`` (those of the games
        read) and ``direction`` (+1 read stronger, -1 weaker), widened by the rating's movement
        that way; with ``other_games``, narrowed by what that many games besides those read tell
        of the player (read with their form: ``narrowed``)."""
        players = np.asarray(players)
        if not self.size:
            return np.full(len(players), SPREAD)
        at = players if self.ids is None else np.minimum(np.searchsorted(self.ids, players), self.size - 1)
        lag = 0.0
        if self.first_month is not None and rating is not None and direction:
            months = np.maximum(np.asarray(month) - self.first_month[at], 1)
            trend = (np.asarray(rating) - self.first_rating[at]) / months
            lag = np.clip(direction * LAG_MONTHS * trend, 0, MOST_TREND)
        variance = SPREAD**2 + self.new[at] * NEW_SPREAD**2 + self.junior[at] * JUNIOR_SPREAD**2
        if other_games is not None:
            variance = narrowed(variance, other_games)
        return np.sqrt(variance + np.square(lag))


def narrowed(variance, games) -> np.ndarray:
    """A strength's variance once ``games`` more games are known of it: each game tells
    1 / GAME_INFORMATION of it (its variance over the squared slope of the expected score), and
    the two add as precisions do."""
    return 1 / (1 / np.asarray(variance) + np.asarray(games) / GAME_INFORMATION)
