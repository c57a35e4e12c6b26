"""Checking the inputs and turning the object form into the columnar form."""

from __future__ import annotations

import datetime
from decimal import Decimal
from fractions import Fraction

import numpy as np

from .codes import FULL, NO_STATE, PARTIAL, RESULT_WHITE_HALVES, TYPE_CODES
from .inputs import ColumnarInputs, EngineInputError, PeriodInputs, RatingState, StateColumns
from .periods import Month
from .rulesets import RULE_SETS, RuleSet

# Bounds that keep every sum of the engine inside int64, far beyond any real value.
LARGEST_COUNT = 10**12
LARGEST_ADJUSTMENT_A = 10**4
LARGEST_ADJUSTMENT_B = 1


def _resolve_rules(rules) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str) and rules in RULE_SETS:
        return RULE_SETS[rules]
    known = ", ".join(RULE_SETS)
    raise EngineInputError("rules", f"unknown rule set {rules!r} (known: {known})")


def _adjustment(value, largest: int, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise EngineInputError(field, f"{value!r} is not an integer or a Decimal")
    if isinstance(value, Decimal) and not value.is_finite():
        raise EngineInputError(field, f"{value} is not a finite number")
    if abs(value) > largest:
        raise EngineInputError(field, f"{value} is out of range (-{largest} to {largest})")
    return Decimal(value)


def _whole(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineInputError(field, f"{value!r} is not a whole number")
    return value


def _halves(points, field: str) -> int:
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


def _check_state(state: RatingState, period: Month, path: str) -> tuple:
    if not isinstance(state, RatingState):
        raise EngineInputError(path, f"{state!r} is not a RatingState")
    if state.type not in TYPE_CODES:
        raise EngineInputError(f"{path}.type", f"{state.type!r} is not 'full' or 'partial'")
    rating = _whole(state.rating, f"{path}.rating")
    games = _whole(state.games, f"{path}.games")
    opponents_total = _whole(state.opponents_total, f"{path}.opponents_total")
    halves = _halves(state.points, f"{path}.points")
    for name, value in (("rating", rating), ("games", games), ("opponents_total", opponents_total)):
        if not 0 <= value < LARGEST_COUNT:
            raise EngineInputError(f"{path}.{name}", f"{value} is out of range (0 to {LARGEST_COUNT - 1})")
    if not 0 <= halves <= 2 * games:
        raise EngineInputError(f"{path}.points", f"{state.points} is not between 0 and games ({games})")
    last = state.last_played
    if last is not None and not isinstance(last, Month):
        raise EngineInputError(f"{path}.last_played", f"{last!r} is not a Month")
    if last is not None and last > period:
        raise EngineInputError(f"{path}.last_played", f"{last} is later than period {period}")
    return (TYPE_CODES[state.type], rating, games, opponents_total, halves, -1 if last is None else last.index)


def _check_birth_date(born, period: Month, path: str) -> None:
    if born is None:
        return
    if not isinstance(born, datetime.date) or isinstance(born, datetime.datetime):
        raise EngineInputError(path, f"{born!r} is not a date")
    if born >= period.first_day():
        raise EngineInputError(path, f"{born} is not before the first day of period {period}")


def to_columnar(inputs: PeriodInputs) -> ColumnarInputs:
    """Check the object form (errors name e.g. ``players[2].ratings.otb-rapid.points``)."""
    rules = _resolve_rules(inputs.rules)
    period = inputs.period
    if not isinstance(period, Month):
        raise EngineInputError("period", f"{period!r} is not a Month")
    players = inputs.players
    n = len(players)
    position: dict = {}
    birth_dates, titles = [], []
    state_rows: dict[str, tuple[list, list]] = {}
    for i, player in enumerate(players):
        path = f"players[{i}]"
        if player.id in position:
            raise EngineInputError(f"{path}.id", f"duplicate id {player.id!r} (also players[{position[player.id]}])")
        position[player.id] = i
        _check_birth_date(player.birth_date, period, f"{path}.birth_date")
        if player.title is not None and not isinstance(player.title, str):
            raise EngineInputError(f"{path}.title", f"{player.title!r} is not a string")
        birth_dates.append(player.birth_date)
        titles.append(player.title)
        for list_code, state in player.ratings.items():
            row = _check_state(state, period, f"{path}.ratings.{list_code}")
            who, rows = state_rows.setdefault(list_code, ([], []))
            who.append(i)
            rows.append(row)

    states = {code: _state_columns(n, who, rows) for code, (who, rows) in state_rows.items()}
    white, black, halves = _game_columns(inputs.games, position, period)
    return ColumnarInputs(
        rules=rules,
        list_code=inputs.list_code,
        period=period,
        player_ids=[p.id for p in players],
        birth_date=np.array(birth_dates, dtype="datetime64[D]"),
        title=titles,
        states=states,
        white=white,
        black=black,
        white_halves=halves,
        adjustment_a=_adjustment(inputs.adjustment_a, LARGEST_ADJUSTMENT_A, "adjustment.a"),
        adjustment_b=_adjustment(inputs.adjustment_b, LARGEST_ADJUSTMENT_B, "adjustment.b"),
    )


def _state_columns(n: int, who: list[int], rows: list[tuple]) -> StateColumns:
    columns = StateColumns.empty(n)
    index = np.array(who, dtype=np.int64)
    values = np.array(rows, dtype=np.int64).reshape(len(rows), 6)
    for j, column in enumerate(
        (
            columns.type,
            columns.rating,
            columns.games,
            columns.opponents_total,
            columns.points_halves,
            columns.last_played,
        )
    ):
        column[index] = values[:, j]
    return columns


def _game_columns(games, position: dict, period: Month):
    first, last = period.first_day(), period.last_day()
    white, black, halves = [], [], []
    for g, game in enumerate(games):
        w, b = position.get(game.white), position.get(game.black)
        result = RESULT_WHITE_HALVES.get(game.result)
        day = game.date
        if (
            w is None
            or b is None
            or w == b
            or result is None
            or type(day) is not datetime.date
            or not first <= day <= last
        ):
            _refuse_game(game, f"games[{g}]", position, period)
        white.append(w)
        black.append(b)
        halves.append(result)
    return (np.array(white, dtype=np.int64), np.array(black, dtype=np.int64), np.array(halves, dtype=np.int8))


def _refuse_game(game, path: str, position: dict, period: Month):
    for colour in ("white", "black"):
        who = getattr(game, colour)
        if position.get(who) is None:
            raise EngineInputError(f"{path}.{colour}", f"player {who!r} is not listed")
    if game.white == game.black:
        raise EngineInputError(f"{path}.black", f"white and black are both {game.black!r}")
    if game.result not in RESULT_WHITE_HALVES:
        raise EngineInputError(f"{path}.result", f"{game.result!r} is not 1-0, 0-1 or 1/2-1/2")
    if type(game.date) is not datetime.date:
        raise EngineInputError(f"{path}.date", f"{game.date!r} is not a date")
    raise EngineInputError(f"{path}.date", f"{game.date} is outside period {period}")


def validate_columnar(inputs: ColumnarInputs) -> None:
    """The checks of ``to_columnar`` on arrays; errors name the array and the position."""
    if not isinstance(inputs.rules, RuleSet):
        raise EngineInputError("rules", f"{inputs.rules!r} is not a RuleSet")
    n, m = inputs.player_count, inputs.game_count
    period = inputs.period
    _adjustment(inputs.adjustment_a, LARGEST_ADJUSTMENT_A, "adjustment_a")
    _adjustment(inputs.adjustment_b, LARGEST_ADJUSTMENT_B, "adjustment_b")
    for name in ("birth_date", "title"):
        if len(getattr(inputs, name)) != n:
            raise EngineInputError(name, f"has {len(getattr(inputs, name))} entries for {n} players")
    for name in ("black", "white_halves") + (("game_date",) if inputs.game_date is not None else ()):
        if len(getattr(inputs, name)) != m:
            raise EngineInputError(name, f"has {len(getattr(inputs, name))} entries for {m} games")

    def refuse(name: str, bad: np.ndarray, message: str) -> None:
        where = np.flatnonzero(bad)
        if where.size:
            raise EngineInputError(f"{name}[{where[0]}]", message)

    born = inputs.birth_date.astype("datetime64[D]")
    refuse(
        "birth_date",
        ~np.isnat(born) & (born >= np.datetime64(period.first_day(), "D")),
        f"not before the first day of period {period}",
    )
    for name in ("white", "black"):
        side = getattr(inputs, name)
        refuse(name, (side < 0) | (side >= n), "is not a player position")
    refuse("black", inputs.white == inputs.black, "same player as white")
    refuse("white_halves", (inputs.white_halves < 0) | (inputs.white_halves > 2), "is not 0, 1 or 2")
    if inputs.game_date is not None:
        month = inputs.game_date.astype("datetime64[M]")
        refuse("game_date", month != np.datetime64(str(period), "M"), f"outside period {period}")
    for code, states in inputs.states.items():
        if len(states) != n:
            raise EngineInputError(f"states.{code}", f"has {len(states)} entries for {n} players")
        path = f"states.{code}"
        present = states.type != NO_STATE
        refuse(
            f"{path}.type",
            (states.type != NO_STATE) & (states.type != PARTIAL) & (states.type != FULL),
            "is not a state type code",
        )
        for name in ("rating", "games", "opponents_total"):
            column = getattr(states, name)
            refuse(f"{path}.{name}", present & ((column < 0) | (column >= LARGEST_COUNT)), "out of range")
        refuse(
            f"{path}.points_halves",
            present & ((states.points_halves < 0) | (states.points_halves > 2 * states.games)),
            "is not between 0 and games",
        )
        refuse(f"{path}.last_played", present & (states.last_played > period.index), f"later than period {period}")
