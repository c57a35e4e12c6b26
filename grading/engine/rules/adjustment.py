"""FIDE's one-off adjustment of March 2024 (docs/rules.md section 18), offered when a list changes
from FIDE's 2017 rules to its 2024 ones: at the start of the first month under them, every rated
state under 2000 gains 0.4 x (2000 - rating), rounded half up.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from grading.engine.codes import FULL
from grading.engine.inputs.forms import RatingState, StateColumns

ADJUSTED_BELOW = 2000  # ratings under this are raised ...
ADJUSTMENT_TENTHS = 4  # ... by 4 tenths of their distance to it, rounded half up


def adjusted_ratings(rating):
    """rating + round_half_up(0.4 x (2000 - rating)) under 2000, the rating itself from 2000 on
    (1500 -> 1700, 1000 -> 1400, 1998 -> 1999, 1999 -> 1999). In integers: round_half_up(4x / 10)
    is (4x + 5) // 10; 4x / 10 never ends in .5 for a whole x. Arrays or whole numbers."""
    distance = ADJUSTED_BELOW - rating
    return np.where(distance > 0, rating + (ADJUSTMENT_TENTHS * distance + 5) // 10, rating)


def adjusted_states(states: StateColumns) -> StateColumns:
    """The states with FIDE's adjustment: each rated state under 2000 raised, its peak the higher
    of its peak and the new rating (a peak not given stood for the rating); pending states, their
    pending months and every other column as they were."""
    states = states.as_int64()
    rated = states.type == FULL
    rating = np.where(rated, adjusted_ratings(states.rating), states.rating)
    peak_before = np.where(states.peak > 0, states.peak, states.rating)
    peak = np.where(rated & (rating != states.rating), np.maximum(peak_before, rating), states.peak)
    return replace(states, rating=rating, peak=peak)


def adjusted_state(state: RatingState) -> RatingState:
    """One state with FIDE's adjustment (``adjusted_states`` for a RatingState)."""
    if state.type != "full" or state.rating is None or state.rating >= ADJUSTED_BELOW:
        return state
    rating = int(adjusted_ratings(state.rating))
    return replace(state, rating=rating, peak=max(state.peak or state.rating, rating))
