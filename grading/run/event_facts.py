"""FIDE's conditions on which events an Elo list rates (docs/rules.md part 4), from the database:
the facts of events as the engine's function reads them (grading.engine.event_conditions), for
a run's month and for the preview of an event before it is rated. No rule lives here.

The ratings used are each player's at the start of the event (section 10): their state before
the event's month, the period's own prior states for an event that began in the period.

What the pages show of them (the reasons a publication kept, the preview of an event before it is
rated) is read by grading.selectors.event_ratings.
"""

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

import numpy as np
from django.db.models import Value
from django.db.models.functions import Coalesce

from chess.months import Month
from chess.time_controls import TimeControl
from common.bulk import where_in
from events.models import Event
from grading.engine.arrays import distinct, find_sorted
from grading.engine.event_conditions import UNRATED, EventColumns, NotRated, events_not_rated
from grading.engine.method_change import ratings_used, states_for_method
from grading.engine.rate_of_play import is_blitz_band
from grading.engine.rule_sets import RuleSet
from grading.run.publishing import states_at_start


@lru_cache(maxsize=256)
def playing_time(time_control: str) -> tuple[Fraction | None, Fraction | None, int | None]:
    """Each player's minutes for 60 moves under an event's time control as stored; with more than
    one control the first's, and the moves it names (FIDE's 2024 rules ask at least 30 of them);
    None for what there is none of, or none that can be read."""
    control = TimeControl.from_text(time_control) if time_control else None
    if control is None:
        return None, None, None
    first = control.moves_first_session
    return (
        Fraction(control.minutes_per_player()),
        Fraction(control.minutes_per_player(first)) if first else None,
        first,
    )


ROUND_GIVEN = Coalesce("round", Value(0))  # NO_ROUND where the file gives none


# The ratings used at the start of the events that began in a month (a Month index), of the
# white and black players of games (ids): (white's, black's), UNRATED for none.
RatingsAtStart = Callable[[int, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def ratings_at_start(rating_list, rules: RuleSet, month: Month, prior_states, known=None) -> RatingsAtStart:
    """What players' ratings were at the start of an event that began in a given month: the
    period's ``prior_states`` (publishing.States) for ``month``, else their published states
    before that month. ``known`` (sorted player ids, their ratings used at the period's start)
    saves reading the period's own again: a run has them for the engine already. What is read
    of an earlier month is kept: a run asks for the same players twice (the conditions, then
    the Elo columns)."""
    read = {} if known is None else {month.index: known}

    def rated(states, began: Month, players: np.ndarray) -> np.ndarray:
        used = ratings_used(states_for_method(states.columns_for(players), rules, began))
        return np.where(used < 0, UNRATED, used)

    def ratings(start: int, white: np.ndarray, black: np.ndarray):
        start = min(start, month.index)  # an event cannot have begun after its games
        if start in read:
            ids, rating = read[start]
            (white_found, white_at), (black_found, black_at) = find_sorted(ids, white), find_sorted(ids, black)
            if white_found.all() and black_found.all():
                return rating[white_at], rating[black_at]
        players = distinct(np.concatenate([white, black]))
        began = Month.from_index(start)
        states = prior_states if start == month.index else states_at_start(rating_list, began, among=players)
        rating = rated(states, began, players)
        if start < month.index:  # the period's own stay those of ``known``
            read[start] = players, rating
        return rating[np.searchsorted(players, white)], rating[np.searchsorted(players, black)]

    return ratings


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
    """The facts of ``event_ids`` (in that order) the conditions read: EventColumns's columns by
    event."""
    condition, params = where_in("id", event_ids)
    rows = {
        pk: (start, end, time_control, rounds, approved, fast)
        for pk, start, end, time_control, rounds, approved, fast in Event.objects.extra(
            where=[condition], params=params
        ).values_list(
            "pk",
            "start_date",
            "end_date",
            "time_control",
            "scheduled_rounds",
            "length_approved_at",
            "fast_classic_approved_at",
        )
    }
    ordered = [rows[pk] for pk in event_ids]
    timing = [playing_time(row[2]) for row in ordered]
    return {
        "first_day": np.array([row[0] for row in ordered], dtype="datetime64[D]"),
        "last_day": np.array([row[1] for row in ordered], dtype="datetime64[D]"),
        "minutes_for_60": [minutes for minutes, _, _ in timing],
        "first_control_minutes": [first for _, first, _ in timing],
        "scheduled_rounds": [row[3] for row in ordered],
        "length_approved": [row[4] is not None for row in ordered],
        "first_control_moves": [moves for _, _, moves in timing],
        "fast_classic": [row[5] is not None for row in ordered],
    }


def decide(games: dict, used: np.ndarray, facts: dict, rules: RuleSet, blitz: bool = False) -> NotRated:
    """The engine's decision on ``games`` (columns ``event``, an index into ``facts``, ``white``,
    ``black``, ``white_halves``, ``round``, ``day``), each side's rating used at its event's start
    in ``used`` (sides_used), the events' ``facts`` (events_facts), on a list whose band is
    blitz or not (``is_blitz``)."""
    columns = EventColumns(**games, white_rating_used=used[0], black_rating_used=used[1], **facts)
    return events_not_rated(columns, rules, blitz=blitz)


def is_blitz(rating_list) -> bool:
    """Whether the list's band of time controls is blitz (FIDE's 2024 rules rate only blitz
    games on it, and only rapid games on another list rated by fide-2024-rapid)."""
    return is_blitz_band(rating_list.min_minutes, rating_list.max_minutes)
