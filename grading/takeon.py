"""Taking on a federation's published ratings from the system it used before.

The file holds one row per player, or on a list the Elo method rates, a pending player's rows:
one per month of games towards a first rating. What a row may be depends on the method that
rates the list in the month taken on; every state is checked by the engine's own check
(``check_state``), the one every run of the list puts it through.
"""

import json
import re
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from chess.months import Month
from chess.numbers import read_whole_number
from common.locking import lock_row
from grading.engine import (
    RULE_SETS,
    EngineInputError,
    PendingMonth,
    RatingState,
    RuleSet,
    StateColumns,
    check_state,
)
from grading.engine.codes import ELO_TYPE_CODES, STATE_TYPE_CODES, TYPE_CODES
from grading.engine.numbers import points as points_text
from grading.models import PlayerRating, RatingList, RatingPeriod, RatingRun
from grading.run.publishing import RunRefused, as_columns, lock_list, publish
from players.csvfiles import FileRefused, read_fields, read_records
from players.models import Player

RATING_COLUMNS = ["code", "rating", "type", "games", "opponents_total", "points", "last_played"]
OPTIONAL_COLUMNS = ["peak", "wins", "draws", "events3"]  # peak and lifetime counters (docs/rules.md 14)
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


@dataclass(frozen=True)
class TakenOn:
    """The month taken on, and the rule set that rates it: its method decides what a row may be."""

    list_code: str
    period: Month
    rules: RuleSet

    def rated_by(self) -> str:
        return f"the {self.rules.method_name}, which rates {self.list_code} in {self.period} ({self.rules.name})"


def whole_number(column, low=0, high=None):
    def read(value):
        try:
            return read_whole_number(value, low, high)
        except ValueError as wrong:
            raise ValueError(f"{column}: {wrong}") from None

    return read


def optional(read):
    return lambda value: read(value) if value else None


def points(value):
    if not re.fullmatch(r"[0-9]{1,7}(?:\.[0-9]{1,3})?", value):
        raise ValueError(f"points: {value!r} is not a number of points such as 12 or 12.5")
    number = Decimal(value)
    if (number * 2) % 1:
        raise ValueError(f"points: {value} is not a multiple of 0.5")
    return number


def rating_type(taken: TakenOn):
    kinds = ELO_TYPE_CODES if taken.rules.is_elo else TYPE_CODES
    choices = " or ".join(sorted(kinds))

    def read(value):
        kind = value.lower()
        if kind in kinds:
            return kind
        if kind in STATE_TYPE_CODES:
            raise ValueError(f"type: {kind} is not a state of {taken.rated_by()}: {choices}")
        raise ValueError(f"type: {value!r} is not {choices}")

    return read


def peak(value):
    return whole_number("peak", 100, HIGHEST_RATING)(value) if value else None


def counter(column):
    read = whole_number(column, 0, MOST_GAMES)
    return lambda value: read(value) if value else 0


def last_played(period, required=False):
    def read(value):
        if required and not value:
            raise ValueError("last_played: empty: a pending row gives the month of its games, YYYY-MM")
        try:
            month = Month.parse(value) if value else None
        except ValueError as error:
            raise ValueError(f"last_played: {error}") from None
        if month and month > period:
            raise ValueError(f"last_played: {value} is later than the period {period}")
        return str(month) if month else ""

    return read


def read_state(row, taken: TakenOn):
    """One row as a state's fields; a pending row as one month of a state (its games, points and
    opponents' total, ``last_played`` the month), with no rating."""
    pending = row["type"].lower() == "pending"
    rating = whole_number("rating", 100, HIGHEST_RATING)
    state = read_fields(
        row,
        {
            "code": ("code", str),
            # A rating given on a pending row is refused by the engine's check, which says why.
            "rating": ("rating", optional(rating) if pending else rating),
            "type": ("type", rating_type(taken)),
            "games": ("games", whole_number("games", 1 if pending else 0, MOST_GAMES)),
            "opponents_total": ("opponents_total", whole_number("opponents_total", 0, MOST_GAMES * HIGHEST_RATING)),
            "points": ("points", points),
            "last_played": ("last_played", last_played(taken.period, required=pending)),
            "peak": ("peak", peak),
            **{name: (name, counter(name)) for name in StateColumns.COUNTERS},
        },
    )
    if state["points"] > state["games"]:
        raise ValueError(f"points: {state['points']} is more than the {state['games']} games")
    if state["wins"] + state["draws"] > MOST_GAMES:
        raise ValueError(f"wins, draws: {state['wins'] + state['draws']} games is more than anyone plays")
    check_row(state, taken)
    return state


def check_row(state, taken: TakenOn):
    """Refuse a row the list's method cannot read: the engine's check of the state it is (or, Elo,
    of a pending state of that one month), as the run of the next month will read it."""
    last = Month.parse(state["last_played"]) if state["last_played"] else None
    numbers = (state["games"], state["opponents_total"], state["points"])
    counters = {name: state[name] for name in StateColumns.COUNTERS}
    if state["type"] == "pending":
        month = (PendingMonth(last, *numbers),)
        kept = RatingState(state["rating"], "pending", 0, 0, 0, last, state["peak"], month, **counters)
    else:
        kept = RatingState(state["rating"], state["type"], *numbers, last, state["peak"], **counters)
    try:
        check_state(kept, taken.period + 1, taken.rules)
    except EngineInputError as error:
        # The engine names the fields of the state; a pending month's are this row's columns.
        field = error.field.removeprefix("pending[0].")
        raise ValueError(f"{'last_played' if field == 'month' else field}: {error.message}") from None


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


def do_import_ratings(
    data: bytes, rating_list: RatingList, month: Month, *, acting_user=None, today=None
) -> RatingsImported:
    """Store the players' states as published for ``month`` on a list, all or nothing: the take-on
    run (its record, started by ``acting_user``) and its list, under the list's lock."""
    taken = TakenOn(rating_list.code, month, RULE_SETS[rating_list.rule_set_for(str(month))])
    records, errors = read_records(data, RATING_COLUMNS, lambda row: read_state(row, taken), OPTIONAL_COLUMNS)
    codes = list({record["code"]: None for _, record in records})
    player_ids = {}
    for start in range(0, len(codes), BATCH):
        player_ids.update(Player.objects.filter(code__in=codes[start : start + BATCH]).values_list("code", "pk"))
    errors += check_players(records, player_ids)

    with transaction.atomic():
        try:
            lock_list(rating_list)
        except RunRefused as busy:
            raise FileRefused([str(busy)]) from None
        if refusal := take_on_refusal(rating_list, month, today):
            raise FileRefused([refusal])
        period, _ = RatingPeriod.objects.get_or_create(rating_list=rating_list, month=str(month))
        period = lock_row(RatingPeriod.objects.filter(pk=period.pk))
        if period.ratings.exclude(method=PlayerRating.Method.IMPORTED).exists():
            errors.append(f"{period} was rated by this system: ratings cannot be imported over it")
        if period.rule_set != taken.rules.name:
            # The file was read before the list was locked: a change of rule set came in between.
            errors.append(f"--period: {period} is rated by {period.rule_set} now: import the file again")
        if errors:
            raise FileRefused(errors)
        rows = taken_on_rows(records, player_ids, taken.rules)
        replaced = set(period.ratings.filter(superseded_at=None).values_list("player_id", flat=True))
        existing = len(replaced.intersection(row["player_id"] for row in rows))
        # A re-import replaces the period's rows: those it leaves out keep their earlier state.
        publish_taken_on(period, rows, f"{len(rows)} ratings imported ({existing} replaced)", acting_user)
    return RatingsImported(period=period, created=len(rows) - existing, updated=existing)


def check_players(records, player_ids) -> list[str]:
    """The problems of lines that break "a known player, with one row or one pending row a month"."""
    errors, first, months = [], {}, {}
    for line, record in records:
        code, kind = record["code"], record["type"]
        if code not in player_ids:
            errors.append(f"line {line}: code: no player has the code {code!r} (import the players first)")
            continue
        earlier, earlier_kind = first.setdefault(code, (line, kind))
        if earlier != line and kind != earlier_kind and "pending" in (kind, earlier_kind):
            errors.append(
                f"line {line}: code: {code} is also on line {earlier} ({earlier_kind}): "
                "a player has one full row or pending rows, not both"
            )
        elif earlier != line and kind != "pending":
            errors.append(f"line {line}: code: {code} is also on line {earlier}")
        elif kind == "pending":
            month = record["last_played"]
            if (same := months.setdefault((code, month), line)) != line:
                errors.append(f"line {line}: last_played: {code} has a pending row for {month} on line {same}")
    return errors


def taken_on_rows(records, player_ids, rules: RuleSet) -> list[dict]:
    """One state per player, as a run would store it. A rating without a peak (a Full one, on an
    ECF list) has itself as its peak; a player's pending rows become one pending state, its
    months in order, as grading/run/elo_results.py stores one: no rating, 0 games, the latest month
    as last played, and the counters of its latest row."""
    rows, pending = [], {}
    for _, record in records:
        player = player_ids[record.pop("code")]
        if record["type"] == "pending":
            pending.setdefault(player, []).append(record)
            continue
        if record["peak"] is None and (rules.is_elo or record["type"] == "full"):
            record["peak"] = record["rating"]
        rows.append({"player_id": player, **record})
    for player, months in pending.items():
        months.sort(key=lambda month: month["last_played"])
        entries = [
            {
                "month": month["last_played"],
                "games": month["games"],
                "opponents_total": month["opponents_total"],
                "points": points_text(int(month["points"] * 2)),
            }
            for month in months
        ]
        rows.append(
            {
                "player_id": player,
                "rating": None,
                "type": "pending",
                "games": 0,
                "opponents_total": 0,
                "points": Decimal(0),
                "last_played": months[-1]["last_played"],
                "pending": json.dumps(entries),
                **{name: months[-1][name] for name in StateColumns.COUNTERS},
            }
        )
    return rows
