"""From the database to the engine's columnar input, in a handful of bulk queries.

RULES.md section 2 is applied here, in the queries: a period rates the played games (``rated``)
of approved events on the list whose date falls in the month, between two identified players.
"""

from dataclasses import dataclass

import numpy as np
from django.db.models import F

from events import results
from events.models import Event, Game
from players.models import Player

from .engine import RULE_SETS
from .engine.codes import RESULT_WHITE_HALVES, TYPE_CODES
from .engine.inputs import ColumnarInputs, StateColumns
from .engine.periods import Month
from .engine.rulesets import RAPID_LIST, STANDARD_LIST
from .history import latest_states
from .models import RatingList, RatingPeriod

CHUNK = 5000
RATED_STATUSES = [Event.Status.APPROVED, Event.Status.RATED]


def rated_games(rating_list: RatingList, month: Month):
    """The games a period of a list rates (RULES.md section 2), as a queryset."""
    return Game.objects.filter(
        event__rating_list=rating_list,
        event__status__in=RATED_STATUSES,
        date__gte=month.first_day(),
        date__lte=month.last_day(),
        rated=True,
        result__in=results.PLAYED,
        white__isnull=False,
        black__isnull=False,
    ).exclude(white=F("black"))


@dataclass
class PeriodData:
    """What a run of one period reads: the engine's input and what it needs to write back."""

    inputs: ColumnarInputs
    game_ids: np.ndarray  # Game primary keys, by game position
    prior: dict  # every player's current state on the list before the period (history.latest_states)


def chunked(values, size=CHUNK):
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start : start + size]


def load_period(period: RatingPeriod) -> PeriodData:
    rating_list, month = period.rating_list, Month.parse(period.month)
    games = list(rated_games(rating_list, month).order_by("pk").values_list("pk", "white_id", "black_id", "result", "date"))
    game_ids = np.array([game[0] for game in games], dtype=np.int64)
    white_ids = np.array([game[1] for game in games], dtype=np.int64)
    black_ids = np.array([game[2] for game in games], dtype=np.int64)
    player_ids = np.unique(np.concatenate([white_ids, black_ids])) if games else np.array([], dtype=np.int64)

    details = {}
    for chunk in chunked(player_ids.tolist()):
        details.update((pk, (born, title)) for pk, born, title in
                       Player.objects.filter(pk__in=chunk).values_list("pk", "birth_date", "fide_title"))
    prior = latest_states(rating_list, month)
    states = {rating_list.code: state_columns(prior, player_ids)}
    for other in (STANDARD_LIST, RAPID_LIST):
        if other != rating_list.code:
            other_list = RatingList.objects.filter(code=other).first()
            found = latest_states(other_list, month, player_ids.tolist()) if other_list else {}
            states[other] = state_columns(found, player_ids)

    inputs = ColumnarInputs(
        rules=RULE_SETS[period.rule_set],
        list_code=rating_list.code,
        period=month,
        player_ids=player_ids,
        birth_date=np.array([details[pk][0] or np.datetime64("NaT") for pk in player_ids.tolist()], dtype="datetime64[D]"),
        title=[details[pk][1] or None for pk in player_ids.tolist()],
        states=states,
        white=np.searchsorted(player_ids, white_ids),
        black=np.searchsorted(player_ids, black_ids),
        white_halves=np.array([RESULT_WHITE_HALVES[game[3]] for game in games], dtype=np.int8),
        adjustment_a=period.adjustment_a,
        adjustment_b=period.adjustment_b,
        game_date=np.array([game[4] for game in games], dtype="datetime64[D]"),
    )
    return PeriodData(inputs, game_ids, prior)


def state_columns(states: dict, player_ids: np.ndarray) -> StateColumns:
    columns = StateColumns.empty(len(player_ids))
    for position, pk in enumerate(player_ids.tolist()):
        state = states.get(pk)
        if state is None:
            continue
        columns.type[position] = TYPE_CODES[state["type"]]
        columns.rating[position] = state["rating"]
        columns.games[position] = state["games"]
        columns.opponents_total[position] = state["opponents_total"]
        columns.points_halves[position] = int(state["points"] * 2)
        columns.last_played[position] = Month.parse(state["last_played"]).index if state["last_played"] else -1
    return columns
