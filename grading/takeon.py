"""Taking on a federation's published ratings from the system it used before."""

import re
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from events.formats.base import read_whole_number
from grading.engine.periods import Month
from players.csvfiles import FileRefused, read_fields, read_records
from players.models import Player

from .models import PlayerRating, RatingList, RatingPeriod, RatingRun
from .publishing import RunRefused, as_columns, lock_list, publish

RATING_COLUMNS = ["code", "rating", "type", "games", "opponents_total", "points", "last_played"]
BATCH = 2000
HIGHEST_RATING = 4000
# More games than anyone plays in a lifetime: a larger count is a broken file, refused here
# rather than overflowing the database's integers.
MOST_GAMES = 1_000_000


@dataclass
class RatingsImported:
    period: RatingPeriod
    created: int
    updated: int


def whole_number(column, low=0, high=None):
    def read(value):
        try:
            return read_whole_number(value, low, high)
        except ValueError as wrong:
            raise ValueError(f"{column}: {wrong}") from None

    return read


def points(value):
    if not re.fullmatch(r"[0-9]{1,7}(?:\.[0-9]{1,3})?", value):
        raise ValueError(f"points: {value!r} is not a number of points such as 12 or 12.5")
    number = Decimal(value)
    if (number * 2) % 1:
        raise ValueError(f"points: {value} is not a multiple of 0.5")
    return number


def rating_type(value):
    if value.lower() not in ("full", "partial"):
        raise ValueError(f"type: {value!r} is not full or partial")
    return value.lower()


def last_played(period):
    def read(value):
        try:
            month = Month.parse(value) if value else None
        except ValueError as error:
            raise ValueError(f"last_played: {error}") from None
        if month and month > period:
            raise ValueError(f"last_played: {value} is later than the period {period}")
        return str(month) if month else ""

    return read


def read_state(row, period: Month):
    state = read_fields(
        row,
        {
            "code": ("code", str),
            "rating": ("rating", whole_number("rating", 100, HIGHEST_RATING)),
            "type": ("type", rating_type),
            "games": ("games", whole_number("games", 0, MOST_GAMES)),
            "opponents_total": ("opponents_total", whole_number("opponents_total", 0, MOST_GAMES * HIGHEST_RATING)),
            "points": ("points", points),
            "last_played": ("last_played", last_played(period)),
        },
    )
    if state["points"] > state["games"]:
        raise ValueError(f"points: {state['points']} is more than the {state['games']} games")
    return state


def take_on_refusal(rating_list, month: Month, today=None) -> str | None:
    """Why ``month`` cannot be taken on, if it cannot. A take-on is a month the previous system
    published: one that is over, before any month this system has rated (which read it)."""
    today = today or timezone.localdate()
    if month >= Month.of(today):
        return f"--period: {month} is not over yet: take on a month the previous system published"
    rated = (
        RatingPeriod.objects.published()
        .filter(rating_list=rating_list, month__gt=str(month))
        .exclude(runs__trigger=RatingRun.IMPORT)
        .order_by("month")
        .values_list("month", flat=True)
        .first()
    )
    if rated:
        return (
            f"--period: {rating_list.code} has been rated by this system from {rated}, which read the "
            f"ratings before it: a take-on for {month} would change them underneath"
        )
    return None


def publish_taken_on(period: RatingPeriod, rows: list[dict], message: str, started_by=None) -> RatingRun:
    """Publish states kept by an earlier system (``player_id`` and the state's fields) as the
    period's take-on: a run that calculated nothing, and its list."""
    now = timezone.now()
    run = RatingRun.objects.create(
        period=period,
        started_by=started_by,
        trigger=RatingRun.IMPORT,
        started_at=now,
        finished_at=now,
        outcome=RatingRun.Outcome.SUCCEEDED,
        players_rated=len(rows),
        message=message,
    )
    imported = {"category": PlayerRating.Category.IMPORTED, "method": PlayerRating.Method.IMPORTED}
    publish(period, run, as_columns([{**row, **imported} for row in rows]))
    return run


def import_ratings(data: bytes, rating_list: RatingList, month: Month, started_by=None, today=None) -> RatingsImported:
    """Store the players' states as published for ``month`` on a list, all or nothing."""
    records, errors = read_records(data, RATING_COLUMNS, lambda row: read_state(row, month))
    codes = [record["code"] for _, record in records]
    player_ids = {}
    for start in range(0, len(codes), BATCH):
        player_ids.update(Player.objects.filter(code__in=codes[start : start + BATCH]).values_list("code", "pk"))
    first_line = {}
    for line, record in records:
        code = record["code"]
        if code not in player_ids:
            errors.append(f"line {line}: code: no player has the code {code!r} (import the players first)")
        elif code in first_line:
            errors.append(f"line {line}: code: {code} is also on line {first_line[code]}")
        first_line.setdefault(code, line)

    with transaction.atomic():
        try:
            lock_list(rating_list)
        except RunRefused as busy:
            raise FileRefused([str(busy)]) from None
        if refusal := take_on_refusal(rating_list, month, today):
            raise FileRefused([refusal])
        period, _ = RatingPeriod.objects.select_for_update().get_or_create(
            rating_list=rating_list, month=str(month), defaults={"rule_set": rating_list.rule_set_for(str(month))}
        )
        if period.ratings.exclude(method=PlayerRating.Method.IMPORTED).exists():
            errors.append(f"{period} was rated by this system: ratings cannot be imported over it")
        if errors:
            raise FileRefused(errors)
        replaced = set(period.ratings.filter(superseded_at=None).values_list("player_id", flat=True))
        existing = len(replaced.intersection(player_ids[code] for code in codes))
        # A re-import replaces the period's rows: those it leaves out keep their earlier state.
        rows = [{"player_id": player_ids[record.pop("code")], **record} for _, record in records]
        publish_taken_on(period, rows, f"{len(records)} ratings imported ({existing} replaced)", started_by)
    return RatingsImported(period=period, created=len(records) - existing, updated=existing)
