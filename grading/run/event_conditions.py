"""FIDE's conditions on which events an Elo list rates (docs/rules.md part 4), from the database:
the facts of events as the engine's function reads them (grading.engine.event_conditions), for
a run's month and for the pages that show an event before it is rated. No rule lives here.

The ratings used are each player's at the start of the event (section 10): their state before
the event's month, the period's own prior states for an event that began in the period.

The pages' reads (selectors) are at the end: the reasons a publication kept (GameNotRated, by
game of an event and by player of a rating) and the preview of an event before it is rated,
the engine's answer with today's ratings.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from django.db.models import F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from chess import results
from chess.months import Month
from chess.names import full_name
from chess.time_controls import TimeControl
from common.bulk import where_in
from events.models import Event, Game
from events.standings import RESULT_LABELS, score_symbol
from grading.engine import RULE_SETS
from grading.engine.arrays import distinct
from grading.engine.codes import RESULT_WHITE_HALVES
from grading.engine.event_conditions import NO_ROUND, UNRATED, EventColumns, NotRated, events_not_rated
from grading.engine.method_change import ratings_used, states_for_method
from grading.engine.rulesets import RuleSet
from grading.models import GameNotRated
from grading.run.periods import latest_published
from grading.run.publishing import find_sorted, latest_states


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
        states = prior_states if start == month.index else latest_states(rating_list, began, among=players)
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
        pk: (start, end, time_control, rounds, approved)
        for pk, start, end, time_control, rounds, approved in Event.objects.extra(
            where=[condition], params=params
        ).values_list("pk", "start_date", "end_date", "time_control", "scheduled_rounds", "length_approved_at")
    }
    ordered = [rows[pk] for pk in event_ids]
    timing = [playing_time(row[2]) for row in ordered]
    return {
        "first_day": np.array([row[0] for row in ordered], dtype="datetime64[D]"),
        "last_day": np.array([row[1] for row in ordered], dtype="datetime64[D]"),
        "minutes_for_60": [minutes for minutes, _ in timing],
        "first_control_minutes": [first for _, first in timing],
        "scheduled_rounds": [row[3] for row in ordered],
        "length_approved": [row[4] is not None for row in ordered],
    }


def decide(games: dict, used: np.ndarray, facts: dict, rules: RuleSet) -> NotRated:
    """The engine's decision on ``games`` (columns ``event``, an index into ``facts``, ``white``,
    ``black``, ``white_halves``, ``round``, ``day``), each side's rating used at its event's start
    in ``used`` (sides_used), the events' ``facts`` (events_facts)."""
    return events_not_rated(EventColumns(**games, white_rating_used=used[0], black_rating_used=used[1], **facts), rules)


# What the pages show (selectors): the reasons a publication kept, and the preview of an event.

# The reasons kept by the run that published its period's current revision (the list as it
# stands): a revision's run writes them all again, an earlier run's are history.
PUBLISHED = Q(run__revision=F("run__period__revision"))


def published_reason():
    """Why a game (the outer query's Game row) was not rated by the publication in force, or
    None: an expression to annotate games with (the event page and the API, in their query)."""
    return Subquery(GameNotRated.objects.filter(PUBLISHED, game=OuterRef("pk")).values("reason")[:1])


def published_reasons(event) -> dict[int, str]:
    """{game id: why it was not rated} of ``event``'s games the publications in force left out."""
    return dict(GameNotRated.objects.filter(PUBLISHED, game__event=event).values_list("game_id", "reason"))


@dataclass(frozen=True)
class GameNotRatedShown:
    """A player's game a publication did not rate, from their side, with why."""

    date: datetime.date
    event_code: str
    event_name: str
    round: int | None
    colour: str  # "w" or "b"
    opponent_code: str
    opponent_name: str
    score: str  # "1", "½", "0"
    reason: str


def rating_games_not_rated(rating) -> list[GameNotRatedShown]:
    """The games of ``rating``'s player (a PlayerRating) that the run publishing it left out
    (FIDE's conditions on their events), in the order they were played."""
    player = rating.player_id
    rows = (
        GameNotRated.objects.filter(Q(game__white_id=player) | Q(game__black_id=player), run_id=rating.run_id)
        .order_by("game__date", "game__round", "game_id")
        .values_list(
            "game__date", "game__event__code", "game__event__name", "game__round", "game__result",
            "game__white_id", "game__white__code", "game__white__surname", "game__white__forenames",
            "game__black__code", "game__black__surname", "game__black__forenames", "reason",
        )
    )  # fmt: skip
    shown = []
    for date, code, name, number, result, white, *sides, reason in rows:
        mine = white == player
        opponent = sides[3:6] if mine else sides[0:3]
        score = score_symbol(result, results.scores(result)[0 if mine else 1])
        colour = "w" if mine else "b"
        shown.append(
            GameNotRatedShown(date, code, name, number, colour, opponent[0], full_name(*opponent[1:]), score, reason)
        )
    return shown


@dataclass(frozen=True)
class GameLeftOut:
    """A game as the pages list those left out: its players' names as the file gives them."""

    pk: int
    round: int | None
    date: datetime.date
    white: str  # the names as the file gives them
    black: str
    result: str  # as the pages write it: "1-0", "½-½"


@dataclass(frozen=True)
class Preview:
    """What FIDE's conditions would do to an event's rated games with today's ratings: the Elo
    rule set read, the latest month of the list published (whose ratings are used; None: none
    yet), how many games were read, and the games left out, by reason in the engine's words."""

    rule_set: str
    ratings_of: Month | None
    games: int
    reasons: list[tuple[str, list[GameLeftOut]]]

    @property
    def not_rated(self) -> int:
        return sum(len(games) for _, games in self.reasons)


def preview(event) -> Preview | None:
    """Which of ``event``'s rated games (section 2) FIDE's conditions would leave out, and why,
    if it went on its list now, on every player's latest published state there as the rating
    used: the engine's ``events_not_rated`` on the event alone. None for a list that the rule set
    in force for the event's first month does not rate by the Elo method (no such conditions),
    and for an event rated already (its public page says which games its runs left out).

    Before approval a player on no federation record yet is a new player, unrated (approval
    registers them); once the event is in rating, a game without both records is not rated
    (section 2) and is not read."""
    if event.status == Event.Status.RATED:
        return None
    start = Month.of(event.start_date)
    rule_set = event.rating_list.rule_set_for(str(start))
    rules = RULE_SETS[rule_set]
    if not rules.is_elo:
        return None
    games = []
    fields = (
        "pk", "white_id", "black_id", "white_entry_id", "black_entry_id", "result", "round", "date",
        "white_entry__surname", "white_entry__forenames", "black_entry__surname", "black_entry__forenames",
    )  # fmt: skip
    # In the order a run reads them (date, then id): the engine breaks ties of round and date by it.
    rated = Game.objects.rated().filter(event=event).order_by("date", "pk").values_list(*fields)
    for pk, white, black, white_entry, black_entry, result, number, date, *names in rated:
        if event.in_rating and (white is None or black is None):
            continue
        white, black = white or -white_entry, black or -black_entry  # a new player: their entry
        if white != black:
            shown = full_name(*names[:2]), full_name(*names[2:]), RESULT_LABELS[result]
            game = GameLeftOut(pk, number, date, *shown)
            games.append((white, black, RESULT_WHITE_HALVES[result], game))
    ratings_of = latest_published(event.rating_list)
    if not games:
        return Preview(rule_set, ratings_of, 0, [])
    white, black = (np.array([game[side] for game in games], dtype=np.int64) for side in (0, 1))
    records = np.unique(np.concatenate([white, black]))
    today = latest_states(event.rating_list, Month(9999, 12), among=records[records > 0])
    used = sides_used(
        ratings_at_start(event.rating_list, rules, start, today), np.full(len(games), start.index), white, black
    )
    facts = events_facts([event.pk])
    columns = {
        "event": np.zeros(len(games), dtype=np.int64),
        "white": white,
        "black": black,
        "white_halves": np.array([game[2] for game in games], dtype=np.int64),
        "round": np.array([game[3].round or NO_ROUND for game in games], dtype=np.int64),
        "day": np.array([game[3].date for game in games], dtype="datetime64[D]"),
    }
    decided = decide(columns, used, facts, rules)
    reasons: dict[str, list[GameLeftOut]] = {}
    for at, (*_, game) in enumerate(games):
        if (text := decided.text(at)) is not None:
            reasons.setdefault(text, []).append(game)
    return Preview(rule_set, ratings_of, len(games), list(reasons.items()))
