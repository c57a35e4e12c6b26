"""P rating: performance against the opponents plus one dummy draw (docs/rules.md section 4)."""

from __future__ import annotations

import numpy as np

from .codes import FULL, PARTIAL
from .rulesets import RuleSet
from .tables import DP_ARRAY


def p_rating(
    games: np.ndarray, opponents_total: np.ndarray, points_halves: np.ndarray, dummy: np.ndarray, rules: RuleSet
) -> tuple[np.ndarray, np.ndarray]:
    """(rating, type code) from the accumulators without the dummy draw, in exact integers.

    With G = games + 1, T = opponents_total + dummy and S = points + 1/2 (2S = points_halves + 1):
    p in hundredths = floor(100 S / G + 1/2) = (100 * 2S + G) // (2G) and
    rating = floor(T / G + dp + 1/2) = (2T + 2 dp G + G) // (2G).
    """
    g = games + 1
    t = opponents_total + dummy
    percent = (100 * (points_halves + 1) + g) // (2 * g)
    dp = DP_ARRAY[percent]
    rating = np.maximum((2 * t + 2 * dp * g + g) // (2 * g), rules.rating_floor)
    kind = np.where(games >= rules.full_rating_games, FULL, PARTIAL).astype(np.int8)
    return rating, kind
