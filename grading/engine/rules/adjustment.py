"""FIDE's one-off adjustment of March 2024 (docs/rules.md section 18), offered when a list changes
from FIDE's 2017 rules to its 2024 ones: at the start of the first month under them, every rated
state under 2000 gains 0.4 x (2000 - rating), rounded half up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from grading.engine.codes import FULL
from grading.engine.inputs.forms import RatingState, StateColumns
from grading.engine.rule_sets import RULE_SETS

ADJUSTED_BELOW = 2000  # ratings under this are raised ...
ADJUSTMENT_TENTHS = 4  # ... by 4 tenths of their distance to it, rounded half up
REASON = "FIDE's adjustment of March 2024"

# The changes of rule set that carry it (by the sets' names without "+floors"): offered, ticked
# by default, from FIDE's 2017 rules to its 2024 ones of the same kind of play.
OFFERED = {("fide-2017", "fide-2024"), ("fide-2017", "fide-2025"), ("fide-2017-rapid", "fide-2024-rapid")}
TO_2024 = {"fide-2024", "fide-2025", "fide-2024-rapid"}


def adjusted_ratings(rating):
    """rating + round_half_up(0.4 x (2000 - rating)) under 2000, the rating itself from 2000 on
    (1500 -> 1700, 1000 -> 1400, 1998 -> 1999, 1999 -> 1999). In integers: round_half_up(4x / 10)
    is (4x + 5) // 10; 4x / 10 never ends in .5 for a whole x. Arrays or whole numbers."""
    distance = ADJUSTED_BELOW - rating
    return np.where(distance > 0, rating + (ADJUSTMENT_TENTHS * distance + 5) // 10, rating)


@dataclass(frozen=True)
class AdjustmentSteps:
    """One rating's adjustment as the pages write it: 1500 + 0.4 x (2000 - 1500) = 1500 + 200 = 1700."""

    before: int
    distance: int  # 2000 - before
    gain: int  # 0.4 x distance, rounded half up
    after: int

    reason = REASON
    factor = f"0.{ADJUSTMENT_TENTHS}"  # as the pages write it
    ceiling = ADJUSTED_BELOW

    @property
    def arithmetic(self) -> str:
        raised = f"{self.before} + {self.factor} × ({self.ceiling} − {self.before})"
        return f"{raised} = {self.before} + {self.gain} = {self.after}"

    @property
    def text(self) -> str:
        """The sum with its reason, as every page, mail and answer writes it."""
        return f"{REASON}: {self.arithmetic}"


def adjustment_steps(before: int) -> AdjustmentSteps:
    after = int(adjusted_ratings(before))
    return AdjustmentSteps(before, ADJUSTED_BELOW - before, after - before, after)


def adjusted_rating_columns(kind: np.ndarray, rating: np.ndarray, peak: np.ndarray):
    """(rating, peak) of states given as columns (type codes, ratings, peaks with 0 for none):
    each rated state under 2000 raised, its peak the higher of its peak and the new rating (a peak
    not given stood for the rating); the others as they were."""
    rated = kind == FULL
    raised = np.where(rated, adjusted_ratings(rating), rating)
    peak_before = np.where(peak > 0, peak, rating)
    return raised, np.where(rated & (raised != rating), np.maximum(peak_before, raised), peak)


def adjusted_states(states: StateColumns) -> StateColumns:
    """The states with FIDE's adjustment: each rated state under 2000 raised (adjusted_rating_columns);
    pending states, their pending months and every other column as they were."""
    states = states.as_int64()
    rating, peak = adjusted_rating_columns(states.type, states.rating, states.peak)
    return replace(states, rating=rating, peak=peak)


def adjusted_state(state: RatingState) -> RatingState:
    """One state with FIDE's adjustment (``adjusted_states`` for a RatingState)."""
    if state.type != "full" or state.rating is None or state.rating >= ADJUSTED_BELOW:
        return state
    rating = int(adjusted_ratings(state.rating))
    return replace(state, rating=rating, peak=max(state.peak or state.rating, rating))


def adjustment_offer(before: str, after: str) -> str | None:
    """Whether a change of rule set from ``before`` to ``after`` may carry the adjustment:
    "offered" (FIDE's own change, ticked by default), "if asked" (from the ECF method to a 2024
    set: the states are converted, then adjusted only if the officer asks), or None (refused)."""
    base = (RULE_SETS[before].name.removesuffix("+floors"), RULE_SETS[after].name.removesuffix("+floors"))
    if base in OFFERED:
        return "offered"
    if not RULE_SETS[before].is_elo and base[1] in TO_2024:
        return "if asked"
    return None
