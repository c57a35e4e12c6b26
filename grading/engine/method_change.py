"""Prior states as a period's method reads them, whichever method wrote them: what lets a list
change its rule set from a month on (docs/decisions.md, "Rating methods"; docs/rules.md
section 9 for what the Elo method counts as a rating)."""

from dataclasses import replace

import numpy as np

from chess.months import Month
from grading.engine.codes import FULL, NO_STATE, PARTIAL, PENDING, UNRATED_USED
from grading.engine.inputs.forms import PendingColumns, StateColumns
from grading.engine.rule_sets import RuleSet


def states_for_method(states: StateColumns, rules: RuleSet, month: Month) -> StateColumns:
    """``states`` as ``rules`` read them in ``month``. Under Elo, a Full rating at or above the
    floor is a rating; a Partial one, or a Full one below the floor, is a pending month (its
    last-played month, games, opponents' total and points), or nothing if it has no games before
    the month. Under the ECF method a pending state is no state."""
    if not rules.is_elo:
        return replace(states, type=np.where(states.type == PENDING, NO_STATE, states.type).astype(np.int8))
    not_a_rating = ((states.type == FULL) & (states.rating < rules.rating_floor)) | (states.type == PARTIAL)
    converted = not_a_rating & (states.games > 0) & (states.last_played >= 0) & (states.last_played < month.index)
    dropped = not_a_rating & ~converted
    at = np.flatnonzero(converted)
    pending = states.pending if states.pending is not None else PendingColumns.empty()
    months = PendingColumns(
        at, states.last_played[at], states.games[at], states.opponents_total[at], states.points_halves[at]
    )
    return StateColumns(
        np.select([converted, dropped], [PENDING, NO_STATE], states.type).astype(np.int8),
        *(
            np.where(not_a_rating, 0, getattr(states, name))
            for name in ("rating", "games", "opponents_total", "points_halves")
        ),
        np.where(dropped, -1, states.last_played),
        peak=np.where(not_a_rating, 0, states.peak),
        pending=pending.plus(months),
        **{name: getattr(states, name) for name in StateColumns.COUNTERS},
    )


def ratings_used(states: StateColumns) -> np.ndarray:
    """Each player's rating as the Elo method counts an opponent at (section 10): their rating
    if they have one, else UNRATED_USED."""
    return np.where(states.type == FULL, states.rating, UNRATED_USED)
