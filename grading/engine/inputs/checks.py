"""The checks of single input values: numbers, points, states and birth dates, each refusal an
EngineInputError naming the field (convert.py checks whole inputs with them)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from fractions import Fraction

from chess.months import Month
from grading.engine.codes import ELO_TYPE_CODES, FULL, PENDING, TYPE_CODES
from grading.engine.inputs.forms import EngineInputError, PendingMonth, RatingState, StateColumns
from grading.engine.rule_sets import RuleSet
from grading.engine.variants import variant

# Bounds that keep every sum of the engine inside int64, far beyond any real value.
LARGEST_COUNT = 10**12
# The columns of a state row (state_row), StateColumns names.
STATE_ROW = (
    "type",
    "rating",
    "games",
    "opponents_total",
    "points_halves",
    "last_played",
    "peak",
    "wins",
    "draws",
    "events3",
)
LARGEST_ADJUSTMENT_A = 10**4
LARGEST_ADJUSTMENT_B = 1


def resolve_rules(rules) -> RuleSet:
    """A RuleSet, the name of one, or a variant ({"base": name, parameter: value, ...})."""
    if isinstance(rules, RuleSet):
        return rules
    return variant(rules)


def adjustment_value(value, largest: int, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise EngineInputError(field, f"{value!r} is not an integer or a Decimal")
    if isinstance(value, Decimal) and not value.is_finite():
        raise EngineInputError(field, f"{value} is not a finite number")
    if abs(value) > largest:
        raise EngineInputError(field, f"{value} is out of range (-{largest} to {largest})")
    return Decimal(value)


def whole_number(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineInputError(field, f"{value!r} is not a whole number")
    return value


def points_halves(points, field: str) -> int:
    if isinstance(points, bool) or not isinstance(points, (int, Decimal, Fraction)):
        raise EngineInputError(field, f"{points!r} is not a number")
    if isinstance(points, int):
        return 2 * points
    halves = 2 * points
    if isinstance(points, Decimal):
        if not points.is_finite() or halves != halves.to_integral_value():
            raise EngineInputError(field, f"{points} is not a multiple of 0.5")
    elif halves.denominator != 1:
        raise EngineInputError(field, f"{points} is not a multiple of 0.5")
    return int(halves)


def state_row(state: RatingState, period: Month, path: str, types: dict, pending_peak: bool = False) -> tuple:
    """The state as a row of StateColumns numbers, peak and counters (STATE_ROW); ``types`` are
    the type names it may have; ``pending_peak``: a pending state may keep the peak of a rating
    it lost (docs/rules.md section 17.1)."""
    if not isinstance(state, RatingState):
        raise EngineInputError(path, f"{state!r} is not a RatingState")
    if state.type not in types:
        raise EngineInputError(f"{path}.type", f"{state.type!r} is not {' or '.join(map(repr, types))}")
    code = types[state.type]
    rating, games, opponents_total, halves = _rating_and_totals(state, path, code == PENDING)
    last_played = _last_played_index(state, period, path)
    peak = _peak(state, path, code, rating, pending_peak)
    if state.pending and code != PENDING:
        raise EngineInputError(f"{path}.pending", f"a {state.type} state has no pending months")
    return (code, rating, games, opponents_total, halves, last_played, peak, *_counters(state, path))


def _count(value: int, field: str) -> int:
    """A whole number the engine may sum: 0 to LARGEST_COUNT - 1."""
    if not 0 <= value < LARGEST_COUNT:
        raise EngineInputError(field, f"{value} is out of range (0 to {LARGEST_COUNT - 1})")
    return value


def _rating_and_totals(state: RatingState, path: str, pending: bool) -> tuple[int, int, int, int]:
    """The rating (0 for a pending state, which has none) and the running totals: games, the
    opponents' total and the points in halves, at most two a game."""
    if pending and state.rating is not None:
        raise EngineInputError(f"{path}.rating", f"{state.rating!r}: a pending state has no rating")
    rating = 0 if pending else whole_number(state.rating, f"{path}.rating")
    games = whole_number(state.games, f"{path}.games")
    opponents_total = whole_number(state.opponents_total, f"{path}.opponents_total")
    halves = points_halves(state.points, f"{path}.points")
    for name, value in (("rating", rating), ("games", games), ("opponents_total", opponents_total)):
        _count(value, f"{path}.{name}")
    if not 0 <= halves <= 2 * games:
        raise EngineInputError(f"{path}.points", f"{state.points} is not between 0 and games ({games})")
    return rating, games, opponents_total, halves


def _last_played_index(state: RatingState, period: Month, path: str) -> int:
    """The Month.index of the last month played, not after ``period``; -1 for never."""
    last = state.last_played
    if last is None:
        return -1
    if not isinstance(last, Month):
        raise EngineInputError(f"{path}.last_played", f"{last!r} is not a Month")
    if last > period:
        raise EngineInputError(f"{path}.last_played", f"{last} is later than period {period}")
    return last.index


def _peak(state: RatingState, path: str, code: int, rating: int, pending_peak: bool = False) -> int:
    """The highest rating published on the list (docs/rules.md section 14), 0 for none: a
    pending state has none (but under FIDE's 2024 rules the one of a rating it lost), and a
    Full rating is never above its peak."""
    if state.peak is None:
        return 0
    if code == PENDING and not pending_peak:
        raise EngineInputError(f"{path}.peak", "a pending state has no peak")
    peak = _count(whole_number(state.peak, f"{path}.peak"), f"{path}.peak")
    if code == FULL and peak < rating:  # a Partial rating may pass an old Full peak
        raise EngineInputError(f"{path}.peak", f"{peak} is below the rating {rating}")
    return peak


def _counters(state: RatingState, path: str) -> list[int]:
    """The lifetime counters (docs/rules.md section 14) in StateColumns.COUNTERS order."""
    counters = []
    for name in StateColumns.COUNTERS:
        field = f"{path}.{name}"
        counters.append(_count(whole_number(getattr(state, name), field), field))
    return counters


def elo_state_row(state: RatingState, period: Month, path: str, rules: RuleSet) -> tuple[tuple, list]:
    """A state on the list an Elo rule set rates: rated at the floor or above, or pending."""
    row = state_row(state, period, path, ELO_TYPE_CODES, pending_peak=rules.elo_unrated_below_floor)
    if row[0] == FULL and row[1] < rules.rating_floor:
        raise EngineInputError(f"{path}.rating", f"{row[1]} is below the rating floor {rules.rating_floor}")
    if row[0] != PENDING:
        return row, []
    for name, value in (("games", row[2]), ("opponents_total", row[3]), ("points", row[4])):
        if value:
            raise EngineInputError(f"{path}.{name}", "a pending state keeps its games in its pending months: 0 here")
    return row, _pending_months(state, period, path)


def _pending_months(state: RatingState, period: Month, path: str) -> list[tuple]:
    """A pending state's months towards a first rating (docs/rules.md section 12), each before
    ``period`` and given once, as rows (Month.index, games, opponents' total, points in halves)."""
    if not isinstance(state.pending, (tuple, list)):
        raise EngineInputError(f"{path}.pending", f"{state.pending!r} is not a list of PendingMonth")
    months, seen = [], {}
    for j, entry in enumerate(state.pending):
        where = f"{path}.pending[{j}]"
        month = _pending_month(entry, period, where)
        if month in seen:
            raise EngineInputError(f"{where}.month", f"{month} is also {path}.pending[{seen[month]}]")
        seen[month] = j
        months.append((month.index, *_pending_totals(entry, where)))
    return months


def _pending_month(entry: PendingMonth, period: Month, where: str) -> Month:
    """The month a PendingMonth is for, before ``period``."""
    if not isinstance(entry, PendingMonth):
        raise EngineInputError(where, f"{entry!r} is not a PendingMonth")
    if not isinstance(entry.month, Month):
        raise EngineInputError(f"{where}.month", f"{entry.month!r} is not a Month")
    if entry.month >= period:
        raise EngineInputError(f"{where}.month", f"{entry.month} is not before period {period}")
    return entry.month


def _pending_totals(entry: PendingMonth, where: str) -> tuple[int, int, int]:
    """A pending month's games (at least one), opponents' total and points in halves."""
    games = whole_number(entry.games, f"{where}.games")
    total = whole_number(entry.opponents_total, f"{where}.opponents_total")
    halves = points_halves(entry.points, f"{where}.points")
    if not 1 <= games < LARGEST_COUNT:
        raise EngineInputError(f"{where}.games", f"{games} is out of range (1 to {LARGEST_COUNT - 1})")
    _count(total, f"{where}.opponents_total")
    if not 0 <= halves <= 2 * games:
        raise EngineInputError(f"{where}.points", f"{entry.points} is not between 0 and games ({games})")
    return games, total, halves


def check_state(state: RatingState, period: Month, rules: RuleSet | str) -> None:
    """Refuse a prior state that ``rules`` cannot read on the list it rates at the start of
    ``period``, as rating that period would. The error's field is the state's own (``rating``,
    ``peak``, ``pending[0].games``): the take-on of ratings checks its rows here."""
    rules = resolve_rules(rules)
    try:
        if rules.is_elo:
            elo_state_row(state, period, "state", rules)
        else:
            state_row(state, period, "state", TYPE_CODES)
    except EngineInputError as error:
        raise EngineInputError(error.field.removeprefix("state."), error.message) from None


def check_birth_date(born, period: Month, path: str) -> None:
    if born is None:
        return
    if not isinstance(born, datetime.date) or isinstance(born, datetime.datetime):
        raise EngineInputError(path, f"{born!r} is not a date")
    if born >= period.first_day():
        raise EngineInputError(path, f"{born} is not before the first day of period {period}")
