"""FIDE's conditions on which events an Elo list rates (docs/rules.md part 4), from the database:
the facts of events as the engine's function reads them (grading.engine.event_conditions), for
a run's month and for the pages that show an event before it is rated. No rule lives here.

The ratings used are each player's at the start of the event (section 10): their state before
the event's month, the period's own prior states for an event that began in the period.
"""

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import numpy as np
from django.db.models import Value
from django.db.models.functions import Coalesce

from events.models import Event
from events.timecontrol import TimeControl

from .bulk import where_in
from .engine.arrays import distinct
from .engine.event_conditions import UNRATED
from .engine.method_change import ratings_used, states_for_method
from .engine.periods import Month
from .engine.rulesets import RuleSet
from .publishing import latest_states


@lru_cache(maxsize=256)
def playing_time(time_control: str) -> tuple[Fraction | None, Fraction | None]:
    """Each player's minutes for 60 moves under an event's time control as stored, and with
    more than one control the first's (None, None: none, or none that can be read)."""
    control = TimeControl.from_text(time_control) if time_control else None
    if control is None:
        return None, None
    first = control.moves_first_session
    return (
        Fraction(control.minutes_per_player()),
        Fraction(control.minutes_per_player(first)) if first else None,
    )


ROUND_GIVEN = Coalesce("round", Value(0))  # NO_ROUND where the file gives none


# The ratings used at the start of the events that began in a month (a Month index), of the
# white and black players of games (ids): (white's, black's), UNRATED for none.
RatingsAtStart = Callable[[int, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def ratings_at_start(rating_list, rules: RuleSet, month: Month, prior_states, known=None) -> RatingsAtStart:
    """What players' ratings were at the start of an event that began in a given month: the
    period's ``prior_states`` (publishing.States) for ``month``, else their published states
    before that month. ``known`` (sorted player ids, their ratings used at the period's start)
    saves reading the period's own again: a run has them for the engine already."""

    def rated(states, began: Month, players: np.ndarray) -> np.ndarray:
        used = ratings_used(states_for_method(states.columns_for(players), rules, began))
        return np.where(used < 0, UNRATED, used)

    def ratings(start: int, white: np.ndarray, black: np.ndarray):
        if start >= month.index and known is not None:
            white_at, black_at = found_in(known[0], white), found_in(known[0], black)
            if (white_at >= 0).all() and (black_at >= 0).all():
                return known[1][white_at], known[1][black_at]
        players = distinct(np.concatenate([white, black]))
        began = Month.from_index(start)
        states = prior_states if start >= month.index else latest_states(rating_list, began, among=players)
        rating = rated(states, began, players)
        return rating[np.searchsorted(players, white)], rating[np.searchsorted(players, black)]

    return ratings


def found_in(sorted_ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The position of each of ``wanted`` in ``sorted_ids``, -1 where it is not there."""
    if not len(sorted_ids):
        return np.full(len(wanted), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(sorted_ids, wanted), len(sorted_ids) - 1)
    return np.where(sorted_ids[at] == wanted, at, -1)


def sides_used(ratings: RatingsAtStart, start_month: np.ndarray, white: np.ndarray, black: np.ndarray):
    """Each side's rating used at its event's start, by game (UNRATED for none)."""
    used = np.full((2, len(white)), UNRATED, dtype=np.int64)
    if len(start_month) and (start_month == start_month[0]).all():  # most months: one start for all
        used[0], used[1] = ratings(int(start_month[0]), white, black)
        return used
    for start in distinct(start_month).tolist():
        games = np.flatnonzero(start_month == start)
        used[0, games], used[1, games] = ratings(start, white[games], black[games])
    return used


def events_facts(event_ids: list) -> dict:
    """The facts of ``event_ids`` (in that order) the conditions read, as lists."""
    condition, params = where_in("id", event_ids)
    rows = {
        pk: (start, end, time_control, rounds, approved)
        for pk, start, end, time_control, rounds, approved in Event.objects.extra(
            where=[condition], params=params
        ).values_list("pk", "start_date", "end_date", "time_control", "scheduled_rounds", "length_approved_at")
    }
    ordered = [rows[pk] for pk in event_ids]
    timing = [playing_time(row[2]) for row in ordered]
    return {
        "first_day": [row[0] for row in ordered],
        "last_day": [row[1] for row in ordered],
        "minutes_for_60": [minutes for minutes, _ in timing],
        "first_control_minutes": [first for _, first in timing],
        "scheduled_rounds": [row[3] for row in ordered],
        "length_approved": [row[4] is not None for row in ordered],
    }
