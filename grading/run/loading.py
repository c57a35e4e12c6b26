"""From the database to the engine's columnar input, in a handful of bulk queries.

docs/rules.md section 2 is applied here, in the queries: a period rates the played games (``rated``)
of approved events on the list whose date falls in the month, between two identified players.
"""

from dataclasses import dataclass, field

import numpy as np
from django.db.models import Case, IntegerField, Q, Value, When

import players.models
from chess.months import Month
from common.bulk import fetch_columns, table
from events.models import IN_RATING, Event, Game
from grading.engine import RULE_SETS
from grading.engine.arrays import distinct
from grading.engine.codes import RESULT_WHITE_HALVES, UNRATED_USED, USED_AT_START
from grading.engine.event_conditions import UNRATED, NotRated
from grading.engine.inputs.forms import ColumnarInputs
from grading.engine.method_change import ratings_used, states_for_method
from grading.engine.rule_sets import RuleSet, lists_read
from grading.engine.rules.adjustment import REASON
from grading.models import RatingList, RatingPeriod
from grading.run.event_facts import (
    ROUND_GIVEN,
    RatingsAtStart,
    decide,
    events_facts,
    is_blitz,
    ratings_at_start,
    sides_used,
)
from grading.run.publishing import Adjusted, States, latest_states, with_fide_adjustment
from players.models import Player

_EPOCH = 1970 * 12  # the index of numpy's month 0, 1970-01


def month_indexes(days: np.ndarray) -> np.ndarray:
    """Month.index of each of ``days`` (datetime64)."""
    return days.astype("datetime64[M]").astype(np.int64) + _EPOCH


def rated_games(rating_list: RatingList, month: Month):
    """The games a period of a list rates (docs/rules.md section 2), as a queryset."""
    return Game.objects.rated_between_records().filter(
        event__rating_list=rating_list,
        event__status__in=IN_RATING,
        date__gte=month.first_day(),
        date__lte=month.last_day(),
    )


@dataclass
class PeriodData:
    """What a run of one period reads: the engine's input and what it needs to write back."""

    inputs: ColumnarInputs
    game_ids: np.ndarray  # Game primary keys, by game position
    event_ids: list  # the events of the month's games, those FIDE's conditions left out included
    prior: States  # every player's state on the list before the period
    notes: list  # what the run held out of the engine's input, for its message
    not_rated: list = field(default_factory=list)  # (Game id, why), games FIDE's conditions leave out
    adjusted: Adjusted | None = None  # FIDE's adjustment at the month's start: whom it raised


def sql_of(queryset):
    return queryset.query.sql_with_params()


def load_period(
    period: RatingPeriod,
    prior: States | None = None,
    others: dict | None = None,
    rules: RuleSet | None = None,
    adjust: bool | None = None,
) -> PeriodData:
    """What a period of a list rates, from ``prior`` (every player's state before it) and
    ``others`` ({list code: States} of the lists its rules read); by default the published
    ones. Live ratings chain unpublished months from their own; a simulation gives ``rules``
    too (a variant), where a run reads the period's rule set, and says whether the month begins
    with FIDE's adjustment (``adjust``), where a run reads the list's change of rule set. The
    states given are as stored: the adjustment is made here, on the list's and those read."""
    rating_list, month = period.rating_list, Month.parse(period.month)
    games = rated_games(rating_list, month)
    rules = rules or RULE_SETS[period.rule_set]
    if prior is None:
        prior = latest_states(rating_list, month)
    adjusted = None
    if rating_list.adjusted_in(str(month)) if adjust is None else adjust:
        prior, adjusted = with_fide_adjustment(prior)
    # In the order they were played: each rating's breakdown lists its games in this order. The
    # Elo method reads their events' first days and rounds too (what the ECF method does without).
    elo_only = ("event__start_date", "round_given") if rules.is_elo else ()
    columns = games.order_by().annotate(white_halves=WHITE_HALVES, round_given=ROUND_GIVEN)
    game_ids, white_ids, black_ids, white_halves, event_ids, dates, *elo_read = fetch_columns(
        *sql_of(columns.values_list("pk", "white_id", "black_id", "white_halves", "event_id", "date", *elo_only)),
        [np.int64, np.int64, np.int64, np.int8, np.int64, "datetime64[D]"]
        + ["datetime64[D]", np.int64][: len(elo_only)],
        order=(5, 0),  # date, then id
    )
    events_read = distinct(event_ids).tolist()
    player_ids = distinct(np.concatenate([white_ids, black_ids]))
    own = states_for_method(prior.columns_for(player_ids), rules, month)
    not_rated, notes = [], []
    if rules.is_elo:
        # Part 4: the games of events that FIDE's conditions leave out are not read further.
        used = ratings_used(own)
        ratings = ratings_at_start(rating_list, rules, month, prior, (player_ids, np.where(used < 0, UNRATED, used)))
        month_games = {"white": white_ids, "black": black_ids, "white_halves": white_halves, "event": event_ids}
        month_games |= {"date": dates, "round": elo_read[1]}
        decided = month_not_rated(month_games, month, rules, ratings, is_blitz(rating_list))
        left_out = decided.left_out
        if left_out.any():
            not_rated = list(zip(game_ids[left_out].tolist(), map(decided.texts.__getitem__, decided.reason[left_out])))
            notes.append(
                f"{len(not_rated)} games of {len(distinct(event_ids[left_out]))} events not rated: FIDE's "
                "conditions on their events are not met (docs/rules.md part 4)"
            )
            game_ids, white_ids, black_ids, white_halves, event_ids, dates, elo_read[0] = (
                column[~left_out]
                for column in (game_ids, white_ids, black_ids, white_halves, event_ids, dates, elo_read[0])
            )
            player_ids = distinct(np.concatenate([white_ids, black_ids]))
            own = states_for_method(prior.columns_for(player_ids), rules, month)
    birth_date, title = birth_dates_and_titles(player_ids)
    birth_date, held_out = hold_out_impossible_birth_dates(player_ids, birth_date, month)
    notes = held_out + notes + held_for_review(rating_list, month)

    states = {rating_list.code: own}
    for other in lists_read(rating_list.code, rules):
        other_list = RatingList.objects.filter(code=other).first()
        if other_list is None or (others is not None and other not in others):
            continue
        read = others[other] if others is not None else latest_states(other_list, month)
        if other_list.adjusted_in(str(month)):
            read = with_fide_adjustment(read)[0]
        states[other] = states_for_method(read.columns_for(player_ids), rules, month)
    white, black = np.searchsorted(player_ids, white_ids), np.searchsorted(player_ids, black_ids)
    elo = elo_columns(month, player_ids, white, black, dates, elo_read[0], ratings) if rules.is_elo else {}

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
    if adjusted is not None:
        notes.append(f"{REASON} at the start of {month}: {len(adjusted)} ratings under 2000 raised")
    return PeriodData(inputs, game_ids, events_read, prior, notes, not_rated, adjusted)


def held_for_review(rating_list, month: Month) -> list[str]:
    """What the run says of the events with games in ``month`` that officers hold from rating
    (the integrity watch): they never stop a run, which rates the month without them."""
    codes = list(
        Event.objects.filter(
            rating_list=rating_list,
            status=Event.Status.HELD,
            games__date__gte=month.first_day(),
            games__date__lte=month.last_day(),
        )
        .distinct()
        .order_by("code")
        .values_list("code", flat=True)
    )
    if not codes:
        return []
    named = ", ".join(codes[:10]) + (", ..." if len(codes) > 10 else "")
    return [f"{len(codes)} event{'s' if len(codes) != 1 else ''} awaiting review left out: {named}"]


def games_of_events_elsewhere(event_ids: list, month: Month) -> list[np.ndarray]:
    """The rated games (section 2) of ``event_ids`` outside ``month``, as columns: id, white,
    black, white's halves, event, date, round (0: none)."""
    if not event_ids:
        return [np.zeros(0, dtype=np.int64)] * 5 + [np.zeros(0, dtype="datetime64[D]"), np.zeros(0, dtype=np.int64)]
    games = (
        Game.objects.rated_between_records()
        .filter(event__in=event_ids)
        .exclude(Q(date__gte=month.first_day()) & Q(date__lte=month.last_day()))
        .order_by()
        .annotate(white_halves=WHITE_HALVES, round_given=ROUND_GIVEN)
    )
    return fetch_columns(
        *sql_of(games.values_list("pk", "white_id", "black_id", "white_halves", "event_id", "date", "round_given")),
        [np.int64, np.int64, np.int64, np.int8, np.int64, "datetime64[D]", np.int64],
        order=(0,),
    )


def month_not_rated(
    games: dict, month: Month, rules: RuleSet, ratings: RatingsAtStart, blitz: bool = False
) -> NotRated:
    """Why games of a month are not rated, each of their events decided whole. ``games`` holds the
    month's game columns (``white``, ``black``, ``white_halves``, ``event``, ``date``,
    ``round``); the games of those events in other months are read here."""
    event_ids = distinct(games["event"])
    facts = events_facts(event_ids.tolist())
    outside = (facts["first_day"] < np.datetime64(month.first_day())) | (
        facts["last_day"] > np.datetime64(month.last_day())
    )
    spanning = event_ids[outside].tolist()
    _, white, black, halves, event, date, rounds = games_of_events_elsewhere(spanning, month)
    every = {
        "white": np.concatenate([games["white"], white]),
        "black": np.concatenate([games["black"], black]),
        "white_halves": np.concatenate([games["white_halves"], halves]).astype(np.int64),
        "event": np.searchsorted(event_ids, np.concatenate([games["event"], event])),
        "day": np.concatenate([games["date"], date]),
        "round": np.concatenate([games["round"], rounds]),
    }
    start_month = month_indexes(facts["first_day"])[every["event"]]
    result = decide(every, sides_used(ratings, start_month, every["white"], every["black"]), facts, rules, blitz)
    return NotRated(result.reason[: len(games["white"])], result.texts)


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


def elo_columns(month: Month, player_ids, white, black, dates, starts, ratings: RatingsAtStart) -> dict:
    """What only the Elo method reads: the games' dates, and for a game of an event
    that began before the period, each player's rating at the start of that event (their latest
    state before the event's month: a rating if it is one under section 9, else unrated)."""
    used = np.full((2, len(white)), USED_AT_START, dtype=np.int64)
    start_month = month_indexes(starts)
    earlier = np.flatnonzero(start_month < month.index)
    then = sides_used(ratings, start_month[earlier], player_ids[white[earlier]], player_ids[black[earlier]])
    used[:, earlier] = np.where(then == UNRATED, UNRATED_USED, then)
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
