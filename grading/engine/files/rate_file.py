"""The offline calculation file (docs/rate-file.md): JSON in, JSON out.

Numbers are read as exact decimals and written from exact integers: no value passes through a
binary float.
"""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal

from chess.months import Month
from grading.engine.codes import CATEGORY_NAMES, METHOD_K, METHOD_NAMES, METHOD_P, TYPE_NAMES
from grading.engine.files.rate_file_elo import counters, elo_player_block, floor_line
from grading.engine.inputs.forms import (
    EngineInputError,
    Game,
    PendingMonth,
    PeriodInputs,
    Player,
    RatingState,
    StateColumns,
)
from grading.engine.numbers import micro as _micro
from grading.engine.numbers import points as _points
from grading.engine.numbers import score as _score
from grading.engine.results.ecf import PeriodResult
from grading.engine.results.elo import EloPeriodResult
from grading.engine.variants import variant

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MONTH = re.compile(r"\d{4}-\d{2}")
_MISSING = object()


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number")


def parse_rate_file(text: str) -> PeriodInputs:
    """The input document as PeriodInputs; EngineInputError names the offending field."""
    try:
        document = json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)
    except ValueError as error:
        raise EngineInputError("input", f"not valid JSON ({error})") from None
    if not isinstance(document, dict):
        raise EngineInputError("input", "is not a JSON object")
    period = _month(_field(document, "period", str), "period")
    if "rules" not in document:
        raise EngineInputError("rules", "missing")
    rules = variant(document["rules"])  # a rule set's name, or a variant of one
    adjustment = document.get("adjustment")
    if rules.is_elo and "adjustment" in document:
        raise EngineInputError("adjustment", f"the Elo method ({rules.name}) has no adjustment")
    if adjustment is None:
        adjustment = {}
    elif not isinstance(adjustment, dict):
        raise EngineInputError("adjustment", "is not an object")
    return PeriodInputs(
        rules=rules,
        list_code=_nonempty(_field(document, "list", str), "list"),
        period=period,
        players=[_player(entry, f"players[{i}]") for i, entry in enumerate(_field(document, "players", list))],
        games=[_game(entry, f"games[{g}]") for g, entry in enumerate(_field(document, "games", list))],
        adjustment_a=_number(adjustment.get("a", 0), "adjustment.a"),
        adjustment_b=_number(adjustment.get("b", 0), "adjustment.b"),
    )


_TYPE_WORDS = {str: "a string", list: "an array"}


def _field(entry: dict, name: str, kind: type, path: str = "", optional: bool = False):
    """entry[name], checked to be of ``kind``; ``path`` locates the entry in the document."""
    where = f"{path}.{name}" if path else name
    value = entry.get(name, _MISSING)
    if value is _MISSING or (optional and value is None):
        if optional:
            return None
        raise EngineInputError(where, "missing")
    if not isinstance(value, kind) or isinstance(value, bool):
        raise EngineInputError(where, f"{_show(value)} is not {_TYPE_WORDS[kind]}")
    return value


def _show(value) -> str:
    return json.dumps(value, default=str)


def _nonempty(text: str, path: str) -> str:
    if not text.strip():
        raise EngineInputError(path, "is empty")
    return text


def _object(entry, path: str) -> dict:
    if not isinstance(entry, dict):
        raise EngineInputError(path, f"{_show(entry)} is not an object")
    return entry


def _number(value, path: str):
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise EngineInputError(path, f"{_show(value)} is not a number")
    return value


def _whole(value, path: str) -> int:
    number = _number(value, path)
    if isinstance(number, Decimal):
        if number != number.to_integral_value():
            raise EngineInputError(path, f"{number} is not a whole number")
        return int(number)
    return number


def _month(text, path: str) -> Month:
    try:
        if isinstance(text, str) and _MONTH.fullmatch(text):
            return Month.parse(text)
    except ValueError:
        pass
    raise EngineInputError(path, f"{_show(text)} is not a month YYYY-MM")


def _date(text: str, path: str) -> datetime.date:
    try:
        if _DATE.fullmatch(text):
            return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    raise EngineInputError(path, f"{_show(text)} is not a date YYYY-MM-DD")


def _player(entry, path: str) -> Player:
    entry = _object(entry, path)
    player_id = _nonempty(_field(entry, "id", str, path), f"{path}.id")
    born = _field(entry, "birth_date", str, path, optional=True)
    ratings = entry.get("ratings")
    if ratings is None:
        ratings = {}
    elif not isinstance(ratings, dict):
        raise EngineInputError(f"{path}.ratings", f"{_show(ratings)} is not an object")
    return Player(
        id=player_id,
        birth_date=None if born is None else _date(born, f"{path}.birth_date"),
        title=_field(entry, "title", str, path, optional=True),
        ratings={code: _state(state, f"{path}.ratings.{code}") for code, state in ratings.items()},
    )


def _state(entry, path: str) -> RatingState:
    entry = _object(entry, path)
    values = {}
    for name in ("rating", "type", "games", "opponents_total", "points", "last_played"):
        if name not in entry:
            raise EngineInputError(f"{path}.{name}", "missing")
        values[name] = entry[name]
    last = values["last_played"]
    if last is not None:
        last = _month(last, f"{path}.last_played")
    peak = entry.get("peak")
    months = entry.get("pending")
    if months is None:
        months = []
    elif not isinstance(months, list):
        raise EngineInputError(f"{path}.pending", f"{_show(months)} is not an array")
    return RatingState(
        rating=None if values["rating"] is None else _whole(values["rating"], f"{path}.rating"),
        type=values["type"],
        games=_whole(values["games"], f"{path}.games"),
        opponents_total=_whole(values["opponents_total"], f"{path}.opponents_total"),
        points=_number(values["points"], f"{path}.points"),
        last_played=last,
        peak=None if peak is None else _whole(peak, f"{path}.peak"),
        pending=tuple(_pending_month(month, f"{path}.pending[{j}]") for j, month in enumerate(months)),
        **{name: _whole(entry.get(name, 0), f"{path}.{name}") for name in StateColumns.COUNTERS},
    )


def _pending_month(entry, path: str) -> PendingMonth:
    entry = _object(entry, path)
    return PendingMonth(
        month=_month(_field(entry, "month", str, path), f"{path}.month"),
        games=_whole(_field_number(entry, "games", path), f"{path}.games"),
        opponents_total=_whole(_field_number(entry, "opponents_total", path), f"{path}.opponents_total"),
        points=_number(_field_number(entry, "points", path), f"{path}.points"),
    )


def _field_number(entry: dict, name: str, path: str):
    if name not in entry:
        raise EngineInputError(f"{path}.{name}", "missing")
    return entry[name]


def _game(entry, path: str) -> Game:
    entry = _object(entry, path)
    used = {}
    for name in ("white_rating_used", "black_rating_used"):
        if name in entry:  # present: the event began in an earlier period (null: unrated then)
            used[name] = None if entry[name] is None else _whole(entry[name], f"{path}.{name}")
    return Game(
        white=_field(entry, "white", str, path),
        black=_field(entry, "black", str, path),
        result=_field(entry, "result", str, path),
        date=_date(_field(entry, "date", str, path), f"{path}.date"),
        event=_field(entry, "event", str, path, optional=True),
        **used,
    )


# --- output ----------------------------------------------------------------------------------


def format_result(result: PeriodResult | EloPeriodResult) -> str:
    """The output document; players sorted by id (code points), games in input order."""
    ids = result.player_ids
    block = elo_player_block if isinstance(result, EloPeriodResult) else _player_block
    blocks = [block(result, i) for i in sorted(result.rated_positions().tolist(), key=ids.__getitem__)]
    players = "[\n" + ",\n".join(blocks) + "\n  ]" if blocks else "[]"
    rules = result.rules
    return (
        f'{{\n  "rules": {json.dumps(rules.described_as or rules.name)},\n'
        f'  "list": {json.dumps(result.list_code)},\n'
        f'  "period": "{result.period}",\n'
        f'  "players": {players}\n}}\n'
    )


def _player_block(result: PeriodResult, i: int) -> str:
    p, g, ids = result.players, result.games, result.player_ids
    method = int(p.method[i])
    is_p = method == METHOD_P
    type_name = json.dumps(TYPE_NAMES[p.type[i]])
    game_lines = []
    for game, side in result.sides_of(i):
        increment = _micro(int(g.increment_micro[game, side])) if method == METHOD_K else "null"
        game_lines.append(
            f'        {{"opponent": {json.dumps(ids[g.opponent[game, side]])}, '
            f'"result": {_score(int(g.halves[game, side]))}, '
            f'"opponent_rating": {int(g.opponent_rating[game, side])}, '
            f'"opponent_type": {json.dumps(TYPE_NAMES[g.opponent_type[game, side]])}, '
            f'"increment": {increment}}}'
        )
    return "\n".join(
        [
            "    {",
            f'      "id": {json.dumps(ids[i])},',
            f'      "category": {json.dumps(CATEGORY_NAMES[p.category[i]])},',
            f'      "method": {json.dumps(METHOD_NAMES[method])},',
            f'      "pass1": {int(p.pass1[i]) if is_p else "null"},',
            f'      "pass2": {int(p.pass2[i]) if is_p else "null"},',
            f'      "rating": {int(p.rating[i])},',
            f'      "type": {type_name},',
            *floor_line(result, i),
            f'      "state": {{"rating": {int(p.rating[i])}, "type": {type_name}, '
            f'"games": {int(p.state_games[i])}, '
            f'"opponents_total": {int(p.state_opponents_total[i])}, '
            f'"points": {_points(int(p.state_points_halves[i]))}, "last_played": "{result.period}"'
            f"{counters(result, i, peak=True)}}},",
            '      "games": [',
            ",\n".join(game_lines),
            "      ]",
            "    }",
        ]
    )
