"""Checking the inputs and turning the object form into the columnar form."""

from __future__ import annotations

import datetime
from dataclasses import replace

import numpy as np

from chess.months import Month
from grading.engine.codes import (
    FULL,
    NO_STATE,
    PARTIAL,
    PENDING,
    RESULT_WHITE_HALVES,
    STATE_TYPE_CODES,
    TYPE_CODES,
    UNRATED_USED,
    USED_AT_START,
)
from grading.engine.inputs.checks import (
    LARGEST_ADJUSTMENT_A,
    LARGEST_ADJUSTMENT_B,
    LARGEST_COUNT,
    STATE_ROW,
    adjustment_value,
    check_birth_date,
    elo_state_row,
    resolve_rules,
    state_row,
    whole_number,
)
from grading.engine.inputs.forms import (
    AT_PERIOD_START,
    ColumnarInputs,
    EngineInputError,
    PendingColumns,
    PeriodInputs,
    StateColumns,
)
from grading.engine.rule_sets import RuleSet


def to_columnar(inputs: PeriodInputs) -> ColumnarInputs:
    """Check the object form (errors name e.g. ``players[2].ratings.otb-rapid.points``)."""
    rules = resolve_rules(inputs.rules)
    period = inputs.period
    if not isinstance(period, Month):
        raise EngineInputError("period", f"{period!r} is not a Month")
    players = inputs.players
    n = len(players)
    position: dict = {}
    birth_dates, titles = [], []
    state_rows: dict[str, tuple[list, list]] = {}
    pending_rows: list[tuple] = []
    for i, player in enumerate(players):
        path = f"players[{i}]"
        if player.id in position:
            raise EngineInputError(f"{path}.id", f"duplicate id {player.id!r} (also players[{position[player.id]}])")
        position[player.id] = i
        check_birth_date(player.birth_date, period, f"{path}.birth_date")
        if player.title is not None and not isinstance(player.title, str):
            raise EngineInputError(f"{path}.title", f"{player.title!r} is not a string")
        birth_dates.append(player.birth_date)
        titles.append(player.title)
        for list_code, state in player.ratings.items():
            where = f"{path}.ratings.{list_code}"
            if rules.is_elo and list_code == inputs.list_code:
                row, months = elo_state_row(state, period, where, rules)
                pending_rows.extend((i, *month) for month in months)
            else:
                row = state_row(state, period, where, STATE_TYPE_CODES if rules.is_elo else TYPE_CODES)
            who, rows = state_rows.setdefault(list_code, ([], []))
            who.append(i)
            rows.append(row)

    states = {code: _state_columns(n, who, rows) for code, (who, rows) in state_rows.items()}
    if rules.is_elo and inputs.list_code in states:
        table = np.array(pending_rows, dtype=np.int64).reshape(len(pending_rows), 5)
        states[inputs.list_code] = replace(states[inputs.list_code], pending=PendingColumns(*table.T))
    white, black, halves = _game_columns(inputs.games, position, period)
    elo = _elo_game_columns(inputs.games, rules) if rules.is_elo else {}
    elo["event"] = _event_ranks(inputs.games)
    if rules.is_elo and (inputs.adjustment_a or inputs.adjustment_b):
        raise EngineInputError("adjustment", f"the Elo method ({rules.name}) has no adjustment")
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
        adjustment_a=adjustment_value(inputs.adjustment_a, LARGEST_ADJUSTMENT_A, "adjustment.a"),
        adjustment_b=adjustment_value(inputs.adjustment_b, LARGEST_ADJUSTMENT_B, "adjustment.b"),
        **elo,
    )


def _state_columns(n: int, who: list[int], rows: list[tuple]) -> StateColumns:
    columns = StateColumns.empty(n)
    index = np.array(who, dtype=np.int64)
    values = np.array(rows, dtype=np.int64).reshape(len(rows), len(STATE_ROW))
    for j, name in enumerate(STATE_ROW):
        getattr(columns, name)[index] = values[:, j]
    return columns


def _event_ranks(games) -> np.ndarray:
    """Each game's event rank (code-point order, -1 for none)."""
    names = sorted({game.event for game in games if game.event is not None and isinstance(game.event, str)})
    rank = {name: r for r, name in enumerate(names)}
    events = []
    for g, game in enumerate(games):
        if game.event is not None and not isinstance(game.event, str):
            raise EngineInputError(f"games[{g}].event", f"{game.event!r} is not a string")
        events.append(rank.get(game.event, -1))
    return np.array(events, dtype=np.int64)


def _elo_game_columns(games, rules: RuleSet) -> dict:
    """Each game's date and the ratings used."""
    used = ([], [])
    for g, game in enumerate(games):
        for colour, column in zip(("white", "black"), used):
            value = getattr(game, f"{colour}_rating_used")
            if value is AT_PERIOD_START:
                column.append(USED_AT_START)
            elif value is None:
                column.append(UNRATED_USED)
            else:
                value = whole_number(value, f"games[{g}].{colour}_rating_used")
                if not 0 <= value < LARGEST_COUNT:
                    raise EngineInputError(f"games[{g}].{colour}_rating_used", f"{value} is out of range")
                column.append(value)
    return {
        "game_date": np.array([game.date for game in games], dtype="datetime64[D]"),
        "white_rating_used": np.array(used[0], dtype=np.int64),
        "black_rating_used": np.array(used[1], dtype=np.int64),
    }


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
    adjustment_value(inputs.adjustment_a, LARGEST_ADJUSTMENT_A, "adjustment_a")
    adjustment_value(inputs.adjustment_b, LARGEST_ADJUSTMENT_B, "adjustment_b")
    _validate_lengths(inputs)
    _validate_birth_dates(inputs)
    _validate_games(inputs)
    if inputs.rules.is_elo:
        _validate_elo_columns(inputs)
    for code, states in inputs.states.items():
        _validate_states(states, code, inputs)


def _refuse(name: str, bad: np.ndarray, message: str) -> None:
    """Refuse the first position of array ``name`` where ``bad`` holds."""
    where = np.flatnonzero(bad)
    if where.size:
        raise EngineInputError(f"{name}[{where[0]}]", message)


def _validate_lengths(inputs: ColumnarInputs) -> None:
    """An entry per player in the players' arrays and one per game in the games' (the events and
    the ratings used are checked with their values)."""
    n, m = inputs.player_count, inputs.game_count
    for name in ("birth_date", "title"):
        if len(getattr(inputs, name)) != n:
            raise EngineInputError(name, f"has {len(getattr(inputs, name))} entries for {n} players")
    for name in ("black", "white_halves") + (("game_date",) if inputs.game_date is not None else ()):
        if len(getattr(inputs, name)) != m:
            raise EngineInputError(name, f"has {len(getattr(inputs, name))} entries for {m} games")


def _validate_birth_dates(inputs: ColumnarInputs) -> None:
    """Each birth date known (not NaT) is before the first day of the period."""
    born = inputs.birth_date.astype("datetime64[D]")
    _refuse(
        "birth_date",
        ~np.isnat(born) & (born >= np.datetime64(inputs.period.first_day(), "D")),
        f"not before the first day of period {inputs.period}",
    )


def _validate_games(inputs: ColumnarInputs) -> None:
    """Each game between two different players' positions, white's score 0, 1 or 2 halves, dated
    in the period (when dated), its event a rank or -1 for none."""
    n, period = inputs.player_count, inputs.period
    for name in ("white", "black"):
        side = getattr(inputs, name)
        _refuse(name, (side < 0) | (side >= n), "is not a player position")
    _refuse("black", inputs.white == inputs.black, "same player as white")
    _refuse("white_halves", (inputs.white_halves < 0) | (inputs.white_halves > 2), "is not 0, 1 or 2")
    if inputs.game_date is not None:
        month = inputs.game_date.astype("datetime64[M]")
        _refuse("game_date", month != np.datetime64(str(period), "M"), f"outside period {period}")
    if inputs.event is not None:
        if len(inputs.event) != inputs.game_count:
            raise EngineInputError("event", f"has {len(inputs.event)} entries for {inputs.game_count} games")
        _refuse("event", inputs.event < -1, "is not an event rank (-1 for none)")


def _validate_states(states: StateColumns, code: str, inputs: ColumnarInputs) -> None:
    """One list's prior states: an entry per player, each of a type the rule set's method reads
    (none, Partial or Full; Elo: none, Full or pending), its numbers in range."""
    n, period = inputs.player_count, inputs.period
    if len(states) != n:
        raise EngineInputError(f"states.{code}", f"has {len(states)} entries for {n} players")
    path = f"states.{code}"
    elo_list = inputs.rules.is_elo
    if elo_list and code == inputs.list_code:
        _validate_elo_states(states, inputs, path)
    allowed_types = [NO_STATE, FULL, PENDING] if elo_list else [NO_STATE, PARTIAL, FULL]
    present = states.type != NO_STATE
    _refuse(f"{path}.type", ~np.isin(states.type, allowed_types), "is not a state type code")
    for name in ("rating", "games", "opponents_total"):
        column = getattr(states, name)
        _refuse(f"{path}.{name}", present & ((column < 0) | (column >= LARGEST_COUNT)), "out of range")
    _refuse(
        f"{path}.points_halves",
        present & ((states.points_halves < 0) | (states.points_halves > 2 * states.games)),
        "is not between 0 and games",
    )
    _refuse(f"{path}.last_played", present & (states.last_played > period.index), f"later than period {period}")
    for name in ("peak", *StateColumns.COUNTERS):
        column = getattr(states, name)
        if column is not None:
            _refuse(f"{path}.{name}", present & ((column < 0) | (column >= LARGEST_COUNT)), "out of range")


def _validate_elo_columns(inputs: ColumnarInputs) -> None:
    m = inputs.game_count
    if inputs.adjustment_a or inputs.adjustment_b:
        raise EngineInputError("adjustment_a", f"the Elo method ({inputs.rules.name}) has no adjustment")
    if inputs.game_date is None:
        raise EngineInputError("game_date", "the Elo method needs the games' dates (the first-event rule)")
    for name in ("white_rating_used", "black_rating_used"):
        column = getattr(inputs, name)
        if column is not None and len(column) != m:
            raise EngineInputError(name, f"has {len(column)} entries for {m} games")
    for name in ("white_rating_used", "black_rating_used"):
        column = getattr(inputs, name)
        if column is not None:
            _refuse(name, (column < USED_AT_START) | (column >= LARGEST_COUNT), "is not a rating, -1 or -2")


def _validate_elo_states(states: StateColumns, inputs: ColumnarInputs, path: str) -> None:
    n, period, floor = inputs.player_count, inputs.period, inputs.rules.rating_floor
    full, pending = states.type == FULL, states.type == PENDING
    _refuse(f"{path}.rating", full & (states.rating < floor), f"below the rating floor {floor}")
    if states.peak is not None:
        _refuse(f"{path}.peak", full & (states.peak != 0) & (states.peak < states.rating), "below the rating")
    for name in ("rating", "games", "opponents_total", "points_halves"):
        _refuse(f"{path}.{name}", pending & (getattr(states, name) != 0), "not 0 in a pending state")
    if states.pending is None:
        return
    rows = states.pending
    where = f"{path}.pending"
    _refuse(f"{where}.player", (rows.player < 0) | (rows.player >= n), "is not a player position")
    _refuse(f"{where}.player", ~pending[np.clip(rows.player, 0, max(n - 1, 0))], "has no pending state")
    _refuse(f"{where}.month", rows.month >= period.index, f"not before period {period}")
    _refuse(f"{where}.games", (rows.games < 1) | (rows.games >= LARGEST_COUNT), "out of range")
    _refuse(
        f"{where}.opponents_total", (rows.opponents_total < 0) | (rows.opponents_total >= LARGEST_COUNT), "out of range"
    )
    _refuse(f"{where}.points_halves", (rows.points_halves < 0) | (rows.points_halves > 2 * rows.games), "out of range")
    order = np.lexsort((rows.month, rows.player))
    same = (np.diff(rows.player[order]) == 0) & (np.diff(rows.month[order]) == 0)
    _refuse(f"{where}.month", np.concatenate(([False], same))[np.argsort(order)], "a month given twice for a player")
