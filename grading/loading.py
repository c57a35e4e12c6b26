"""From the database to the engine's columnar input, in a handful of bulk queries.

docs/rules.md section 2 is applied here, in the queries: a period rates the played games (``rated``)
of approved events on the list whose date falls in the month, between two identified players.
"""

from dataclasses import dataclass

import numpy as np
from django.db.models import Case, F, IntegerField, Value, When

import players.models
from events.models import IN_RATING, Game
from players.models import Player

from .bulk import fetch_columns, table
from .engine import RULE_SETS
from .engine.codes import RESULT_WHITE_HALVES, USED_AT_START
from .engine.inputs import ColumnarInputs
from .engine.method_change import ratings_used, states_for_method
from .engine.periods import Month, month_indexes
from .engine.rulesets import RuleSet, lists_read
from .models import RatingList, RatingPeriod
from .publishing import States, latest_states


def rated_games(rating_list: RatingList, month: Month):
    """The games a period of a list rates (docs/rules.md section 2), as a queryset."""
    return (
        Game.objects.rated()
        .filter(
            event__rating_list=rating_list,
            event__status__in=IN_RATING,
            date__gte=month.first_day(),
            date__lte=month.last_day(),
            white__isnull=False,
            black__isnull=False,
        )
        .exclude(white=F("black"))
    )


@dataclass
class PeriodData:
    """What a run of one period reads: the engine's input and what it needs to write back."""

    inputs: ColumnarInputs
    game_ids: np.ndarray  # Game primary keys, by game position
    event_ids: list  # the events of those games
    prior: States  # every player's state on the list before the period
    notes: list  # what the run held out of the engine's input, for its message


def sql_of(queryset):
    return queryset.query.sql_with_params()


def load_period(
    period: RatingPeriod, prior: States | None = None, others: dict | None = None, rules: RuleSet | None = None
) -> PeriodData:
    """What a period of a list rates, from ``prior`` (every player's state before it) and
    ``others`` ({list code: States} of the lists its rules read); by default the published
    ones. Live ratings chain unpublished months from their own; a simulation gives ``rules``
    too (a variant), where a run reads the period's rule set."""
    rating_list, month = period.rating_list, Month.parse(period.month)
    games = rated_games(rating_list, month)
    rules = rules or RULE_SETS[period.rule_set]
    # In the order they were played: each rating's breakdown lists its games in this order. The
    # Elo method reads their events' first days too (a join the ECF method's national month does
    # without).
    started = ("event__start_date",) if rules.is_elo else ()
    columns = games.order_by().annotate(white_halves=WHITE_HALVES)
    game_ids, white_ids, black_ids, white_halves, event_ids, *days = fetch_columns(
        *sql_of(columns.values_list("pk", "white_id", "black_id", "white_halves", "event_id", "date", *started)),
        [np.int64, np.int64, np.int64, np.int8, np.int64] + ["datetime64[D]"] * (1 + len(started)),
        order=(5, 0),  # date, then id
    )
    if not rules.is_elo:
        days = []
    player_ids = np.unique(np.concatenate([white_ids, black_ids]))
    birth_date, title = birth_dates_and_titles(player_ids)
    birth_date, notes = hold_out_impossible_birth_dates(player_ids, birth_date, month)

    if prior is None:
        prior = latest_states(rating_list, month)
    states = {rating_list.code: states_for_method(prior.columns_for(player_ids), rules, month)}
    for other in lists_read(rating_list.code, rules):
        if others is not None:
            if other in others:
                states[other] = states_for_method(others[other].columns_for(player_ids), rules, month)
            continue
        other_list = RatingList.objects.filter(code=other).first()
        if other_list:
            read = latest_states(other_list, month).columns_for(player_ids)
            states[other] = states_for_method(read, rules, month)
    white, black = np.searchsorted(player_ids, white_ids), np.searchsorted(player_ids, black_ids)
    elo = elo_columns(rating_list, month, rules, player_ids, white, black, *days) if rules.is_elo else {}

    inputs = ColumnarInputs(
        rules=rules,
        list_code=rating_list.code,
        period=month,
        player_ids=player_ids,
        birth_date=birth_date,
        title=title,
        states=states,
        white=white,
        black=black,
        white_halves=white_halves,
        adjustment_a=period.adjustment_a,
        adjustment_b=period.adjustment_b,
        # Each game's event: the lifetime counters count events of three games (section 14),
        # and the Elo method's first-event rule reads them.
        event=np.unique(event_ids, return_inverse=True)[1].astype(np.int64),
        **elo,
    )
    return PeriodData(inputs, game_ids, sorted(set(event_ids.tolist())), prior, notes)


# White's score in half points, worked out by the database (a rated game has one of these results).
WHITE_HALVES = Case(
    *(When(result=result, then=Value(halves)) for result, halves in RESULT_WHITE_HALVES.items()),
    output_field=IntegerField(),
)
NO_DATE = "0001-01-01"  # a missing birth date, in a query that must have none


def birth_dates() -> tuple[np.ndarray, np.ndarray]:
    """Every player's id, in order, and birth date (NaT: unknown)."""
    ids, born = fetch_columns(
        f"SELECT id, COALESCE(birth_date, '{NO_DATE}') FROM {table(Player)} ORDER BY id",
        [],
        [np.int64, "datetime64[D]"],
        order=(0,),
    )
    born[born == np.datetime64(NO_DATE)] = np.datetime64("NaT")
    return ids, born


def birth_dates_of(player_ids: np.ndarray, month: Month, known=None) -> np.ndarray:
    """The birth dates of ``player_ids`` (in order) as a run of ``month`` reads them, an
    impossible one as unknown; from ``known`` (birth_dates(), read once for many months), or
    read now."""
    ids, born = known if known is not None else birth_dates()
    return hold_out_impossible_birth_dates(player_ids, born[np.searchsorted(ids, player_ids)], month)[0]


def birth_dates_and_titles(player_ids: np.ndarray) -> tuple[np.ndarray, list]:
    """Each player's birth date (NaT: unknown) and FIDE title (None: none). Every player's date
    is read, not those of ``player_ids``: a month's players are most of a federation, and naming
    them all in the query cost more than reading the rest."""
    ids, born = birth_dates()
    at = np.searchsorted(ids, player_ids)
    assert np.array_equal(ids[at], player_ids)
    titled = dict(
        zip(*fetch_columns(f"SELECT id, fide_title FROM {table(Player)} WHERE fide_title <> ''", [], [np.int64, None]))
    )
    return born[at], [titled.get(player) for player in player_ids.tolist()]


def elo_columns(rating_list, month, rules, player_ids, white, black, dates, starts) -> dict:
    """What only the Elo method reads: the games' dates, and for a game of an event
    that began before the period, each player's rating at the start of that event (their latest
    state before the event's month: a rating if it is one under section 9, else unrated)."""
    used = np.full((2, len(white)), USED_AT_START, dtype=np.int64)
    start_month = month_indexes(starts)
    earlier = start_month < month.index
    for index in np.unique(start_month[earlier]).tolist():
        began = Month.from_index(index)
        games = np.flatnonzero(earlier & (start_month == index))
        who = np.unique(np.concatenate([white[games], black[games]]))
        then = states_for_method(
            latest_states(rating_list, began, among=player_ids[who]).columns_for(player_ids), rules, began
        )
        rating_then = ratings_used(then)
        used[0, games] = rating_then[white[games]]
        used[1, games] = rating_then[black[games]]
    return {
        "game_date": dates,
        "white_rating_used": used[0],
        "black_rating_used": used[1],
    }


EARLIEST_BIRTH_DATE = np.datetime64(players.models.EARLIEST_BIRTH_DATE, "D")


def hold_out_impossible_birth_dates(player_ids, birth_date, month: Month):
    """Birth dates no player of the period can have (on or after its first day, or before 1900)
    rated as unknown, and a note naming them. Uploads and the admin refuse such dates where they
    enter; this is the last guard, so that one record cannot stop every run of a list."""
    bad = ~np.isnat(birth_date) & (
        (birth_date >= np.datetime64(month.first_day(), "D")) | (birth_date < EARLIEST_BIRTH_DATE)
    )
    if not bad.any():
        return birth_date, []
    codes = dict(Player.objects.filter(pk__in=player_ids[bad].tolist()).values_list("pk", "code"))
    named = [f"{codes[pk]} ({day})" for pk, day in zip(player_ids[bad].tolist(), birth_date[bad].tolist())]
    birth_date = birth_date.copy()
    birth_date[bad] = np.datetime64("NaT")
    return birth_date, [f"rated as of unknown age, their birth date being impossible: {', '.join(named)}"]
