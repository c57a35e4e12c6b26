"""Rating one period of one list from the database: load, rate, publish, explain.

No rule lives here: the engine (grading.engine) computes every number; this module only moves
data between the database and the engine's columns.
"""

from dataclasses import dataclass
from decimal import Decimal

import numpy as np
from django.utils import timezone

from events.models import Event, EventChange

from .bulk import insert_rows
from .engine import rate_period as engine_rate_period
from .engine.codes import CATEGORY_NAMES, METHOD_NAMES, NEW, TYPE_NAMES
from .engine.periods import Month
from .history import publish
from .loading import load_period, rated_games
from .models import PlayerRating, RatedGame, RatingPeriod

SIX_PLACES = Decimal("0.000001")
BREAKDOWN_FIELDS = [
    "rating_id", "game_id", "opponent_id", "colour", "score", "opponent_rating", "opponent_type",
    "pass1_opponent_rating", "increment",
]


@dataclass
class PeriodOutcome:
    period: RatingPeriod
    games: int
    players: int
    revision: int | None  # None: the result was the one already published


def rate_one_period(period: RatingPeriod, run, progress=lambda stage: None) -> PeriodOutcome:
    """Rate ``period`` and publish it, unless the result is what is already published."""
    progress(f"{period}: reading games and prior ratings")
    data = load_period(period)
    progress(f"{period}: rating {len(data.game_ids)} games")
    result = engine_rate_period(data.inputs)
    rows = rating_rows(result)
    players = len(rows)
    if period.revision is not None and same_as_published(period, rows, data.game_ids):
        return PeriodOutcome(period, len(data.game_ids), players, None)
    progress(f"{period}: writing {players} ratings")
    revision, rating_ids = publish(period, run, rows, data.prior)
    insert_rows(RatedGame, BREAKDOWN_FIELDS, breakdown_rows(result, data, rating_ids))
    mark_events_rated(period)
    return PeriodOutcome(period, len(data.game_ids), players, revision)


def rating_rows(result) -> list[dict]:
    """The new states of the rated players, as dicts of history.RATING_FIELDS."""
    p = result.players
    rated = np.flatnonzero(p.rated)
    month = str(result.period)
    rows = []
    for position in rated.tolist():
        k_rated = METHOD_NAMES[p.method[position]] == "K"
        rows.append({
            "player_id": int(result.player_ids[position]),
            "rating": int(p.rating[position]),
            "type": TYPE_NAMES[p.type[position]],
            "games": int(p.state_games[position]),
            "opponents_total": int(p.state_opponents_total[position]),
            "points": Decimal(int(p.state_points_halves[position])) / 2,
            "last_played": month,
            "category": CATEGORY_NAMES[p.category[position]],
            "method": METHOD_NAMES[p.method[position]],
            "prior_rating": int(p.prior_rating[position]) or None,
            "dummy_rating": None if k_rated else int(p.dummy[position]),
            "pass1": None if k_rated else int(p.pass1[position]),
            "pass2": None if k_rated else int(p.pass2[position]),
            "k_factor": (Decimal(int(p.k_num[position])) / Decimal(int(p.k_den[position]))).quantize(SIX_PLACES)
            if k_rated else None,
            "age": int(p.age[position]) if p.age[position] >= 0 else None,
        })
    return rows


def breakdown_rows(result, data, rating_ids):
    """Two lines a game, one for each player: what the engine used and what it gave."""
    g, p = result.games, result.players
    player_ids = np.asarray(result.player_ids)
    opponent = g.opponent
    # The rating a P-rated player's opponent counted for in pass 1 (RULES.md section 5).
    pass1_opponent = np.where(p.category[opponent] == NEW, p.dummy[opponent], p.prior_rating[opponent])
    for game in range(len(data.game_ids)):
        for side, colour in ((0, "w"), (1, "b")):
            player = g.player[game, side]
            k_rated = bool(g.has_increment[game, side])
            yield (
                rating_ids[int(player_ids[player])],
                int(data.game_ids[game]),
                int(player_ids[opponent[game, side]]),
                colour,
                Decimal(int(g.halves[game, side])) / 2,
                int(g.opponent_rating[game, side]),
                TYPE_NAMES[g.opponent_type[game, side]],
                None if k_rated else int(pass1_opponent[game, side]),
                Decimal(int(g.increment_micro[game, side])).scaleb(-6) if k_rated else None,
            )


def same_as_published(period, rows, game_ids) -> bool:
    """Whether the new result is exactly the period's current publication, games included."""
    current = PlayerRating.objects.filter(period=period, superseded_at=None)
    published = {
        row["player_id"]: row
        for row in current.values("player_id", "rating", "type", "games", "opponents_total", "points", "category", "method")
    }
    if len(published) != len(rows):
        return False
    for row in rows:
        old = published.get(row["player_id"])
        if old is None or any(old[name] != row[name] for name in old):
            return False
    rated = set(RatedGame.objects.filter(rating__in=current).values_list("game_id", flat=True))
    return rated == set(game_ids.tolist())


def mark_events_rated(period):
    """Approved events with games in the period are now rated."""
    events = Event.objects.filter(
        pk__in=rated_games(period.rating_list, Month.parse(period.month)).values("event_id"),
        status=Event.Status.APPROVED,
    )
    now = timezone.now()
    changed = list(events)
    events.update(status=Event.Status.RATED, status_changed_at=now, status_changed_by=None)
    EventChange.objects.bulk_create(
        [EventChange(event=event, status=Event.Status.RATED, at=now, note=f"rated in {period}") for event in changed]
    )


