"""Short ways to write a federation's month in a test."""

from __future__ import annotations

import datetime
from decimal import Decimal

from grading.engine import Game, Month, PeriodInputs, Player, RatingState, rate_period

PERIOD = Month.parse("2026-10")
LISTS = {"standard": "otb-standard", "rapid": "otb-rapid", "online": "online"}


def full(
    rating: int, games: int = 50, last: str | None = "2026-09", opponents_total: int | None = None, points="25"
) -> RatingState:
    return RatingState(
        rating,
        "full",
        games,
        rating * games if opponents_total is None else opponents_total,
        Decimal(points),
        None if last is None else Month.parse(last),
    )


def partial(rating: int, games: int, opponents_total: int, points, last: str | None = "2026-09") -> RatingState:
    return RatingState(
        rating, "partial", games, opponents_total, Decimal(points), None if last is None else Month.parse(last)
    )


def player(pid: str, born: str | None = None, title: str | None = None, **ratings: RatingState) -> Player:
    """``player("a", standard=full(1500), rapid=...)``: keyword names are LISTS' keys."""
    return Player(
        pid,
        None if born is None else datetime.date.fromisoformat(born),
        title,
        {LISTS[name]: state for name, state in ratings.items()},
    )


def game(white: str, black: str, result: str = "1-0", day: int = 4, period: Month = PERIOD) -> Game:
    return Game(white, black, result, datetime.date(period.year, period.month, day))


def month(
    players, games, rules: str = "ecf-2024", list_code: str = "otb-standard", a="0", b="0", period: Month = PERIOD
) -> PeriodInputs:
    return PeriodInputs(rules, list_code, period, list(players), list(games), Decimal(a), Decimal(b))


def rate(players, games, **options):
    return rate_period(month(players, games, **options))


def rating_of(result, pid: str) -> int:
    return result.player_by_id(pid).rating
