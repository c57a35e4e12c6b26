"""From the database to the detectors' columns: a list's games of a window of months, each side at
its rating used at its event's start, as the run reads them (grading.run.event_facts).

The window is the month scanned and the eleven before it (WINDOW_MONTHS): a year of a player's
form, of a pair's meetings and of a pool's games. Its games are those of events submitted,
approved, rated or held, between two federation records (docs/rules.md section 2): what a run
would rate, and what is waiting for a decision.
"""

from dataclasses import dataclass

import numpy as np
from django.db.models import Q
from django.db.models.functions import Coalesce

from chess.months import Month
from common.bulk import fetch_columns, where_in
from events.models import Event, Game
from grading.engine import RULE_SETS
from grading.engine.arrays import distinct
from grading.integrity.detectors.improbable import RatedGames
from grading.integrity.detectors.watch import Events
from grading.run.event_facts import ratings_at_start, sides_used
from grading.run.loading import WHITE_HALVES, month_indexes, sql_of
from grading.run.publishing import states_at_start
from players.models import Player

WINDOW_MONTHS = 12
JUNIOR_AGE = 20
SCANNED = (Event.Status.SUBMITTED, Event.Status.APPROVED, Event.Status.RATED, Event.Status.HELD)


@dataclass(frozen=True)
class Window:
    """A window's games as the detectors read them, with their ids, and their events."""

    month: Month  # the last month of the window
    games: RatedGames
    game_month: np.ndarray  # each game's month index
    game_ids: np.ndarray
    events: Events
    juniors: np.ndarray  # the players under JUNIOR_AGE at the window's end (sorted ids)

    def __len__(self):
        return len(self.game_ids)


def window_games(rating_list, month: Month, players=None, event: Event | None = None) -> Window:
    """The window ending with ``month`` of ``rating_list``: every game, or only those of
    ``players`` (ids); with ``event``, its games too, whatever its status (an event being
    checked, before it is submitted)."""
    first = month - (WINDOW_MONTHS - 1)
    chosen = Q(event__status__in=SCANNED)
    if event is not None:
        chosen |= Q(event=event)
    games = Game.objects.rated_between_records().filter(
        chosen, event__rating_list=rating_list, date__gte=first.first_day(), date__lte=month.last_day()
    )
    if players is not None:
        condition, params = where_in("white_id", players)
        other, more = where_in("black_id", players)
        games = games.extra(where=[f"({condition} OR {other})"], params=params + more)
    columns = games.order_by().annotate(white_halves=WHITE_HALVES)
    game_ids, white, black, halves, event_ids, dates, starts = fetch_columns(
        *sql_of(
            columns.values_list("pk", "white_id", "black_id", "white_halves", "event_id", "date", "event__start_date")
        ),
        [np.int64, np.int64, np.int64, np.int64, np.int64, "datetime64[D]", "datetime64[D]"],
        order=(5, 0),
    )
    start_month = np.minimum(month_indexes(starts), month.index)
    used = ratings_used_at_start(rating_list, month, start_month, white, black)
    games = RatedGames(event_ids, white, black, used[0], used[1], halves)
    juniors = juniors_among(distinct(np.concatenate([white, black])), month)
    return Window(month, games, month_indexes(dates), game_ids, events_of(event_ids), juniors)


def juniors_among(players: np.ndarray, month: Month) -> np.ndarray:
    """Those of ``players`` (sorted ids) under JUNIOR_AGE on the window's last day: their strength
    runs ahead of their rating (docs/integrity.md)."""
    last = month.last_day()
    born_after = last.replace(year=last.year - JUNIOR_AGE, day=min(last.day, 28) if last.month == 2 else last.day)
    condition, params = where_in("id", players)
    juniors = Player.objects.extra(where=[condition], params=params).filter(birth_date__gt=born_after)
    return np.array(sorted(juniors.values_list("pk", flat=True)), dtype=np.int64)


def ratings_used_at_start(rating_list, month: Month, start_month, white, black) -> np.ndarray:
    """Each side's rating used at its event's start (0: unrated), as the list's rules read it."""
    rules = RULE_SETS[rating_list.rule_set_for(str(month))]
    players = distinct(np.concatenate([white, black]))
    prior = states_at_start(rating_list, month, among=players)
    return sides_used(ratings_at_start(rating_list, rules, month, prior), start_month, white, black)


def events_of(event_ids: np.ndarray) -> Events:
    """The events of ``event_ids``: each one's month (of its first day) and arbiter (0 for none)."""
    condition, params = where_in("id", distinct(event_ids))
    events = Event.objects.extra(where=[condition], params=params).annotate(arbiter_or_none=Coalesce("arbiter", 0))
    ids, starts, arbiters = fetch_columns(
        *sql_of(events.order_by().values_list("pk", "start_date", "arbiter_or_none")),
        [np.int64, "datetime64[D]", np.int64],
        order=(0,),
    )
    return Events(id=ids, month=month_indexes(starts), arbiter=arbiters)
