"""P rating: performance against the opponents plus one dummy draw (docs/rules.md section 4)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grading.engine.codes import FULL, PARTIAL
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.tables import DP_ARRAY


@dataclass(frozen=True)
class Performance:
    """Each step of the P rating, per player (arrays) or for one player (length-1 arrays)."""

    games: np.ndarray  # G, the dummy draw included
    total: np.ndarray  # T, the dummy's rating included
    points_halves: np.ndarray  # 2S, the dummy draw's half point included
    percent: np.ndarray  # p = S / G in hundredths, rounded half up
    dp: np.ndarray  # the performance table's dp for p
    rating: np.ndarray  # T / G + dp, rounded half up, at least the floor
    kind: np.ndarray  # type code: Full on enough games


def performance(
    games: np.ndarray, opponents_total: np.ndarray, points_halves: np.ndarray, dummy: np.ndarray, rules: RuleSet
) -> Performance:
    """The P rating from the accumulators without the dummy draw, in exact integers.

    With G = games + 1, T = opponents_total + dummy and S = points + 1/2 (2S = points_halves + 1):
    p in hundredths = floor(100 S / G + 1/2) = (100 * 2S + G) // (2G) and
    rating = floor(T / G + dp + 1/2) = (2T + 2 dp G + G) // (2G).
    """
    g = games + 1
    t = opponents_total + dummy
    s_halves = points_halves + 1
    percent = score_percent(s_halves, g)
    dp = DP_ARRAY[percent]
    rating = np.maximum(rounded_average_plus(t, g, dp), rules.rating_floor)
    kind = np.where(games >= rules.full_rating_games, FULL, PARTIAL).astype(np.int8)
    return Performance(g, t, s_halves, percent, dp, rating, kind)


def score_percent(points_halves, games):
    """The score as a percentage, rounded half up: floor(100 S / G + 1/2) = (100 * 2S + G) // (2G).
    Works on integers and on arrays alike."""
    return (100 * points_halves + games) // (2 * games)


def rounded_average_plus(total, games, plus):
    """round_half_up(T / G + plus) in integers: (2T + 2 plus G + G) // (2G). The P rating, a
    first Elo rating and the performance ratings are all an average moved by a bonus."""
    return (2 * total + 2 * plus * games + games) // (2 * games)


def p_rating(
    games: np.ndarray, opponents_total: np.ndarray, points_halves: np.ndarray, dummy: np.ndarray, rules: RuleSet
) -> tuple[np.ndarray, np.ndarray]:
    """(rating, type code): see ``performance``."""
    done = performance(games, opponents_total, points_halves, dummy, rules)
    return done.rating, done.kind
