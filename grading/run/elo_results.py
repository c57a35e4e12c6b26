"""An Elo period's result as rating rows, States and breakdown lines (docs/rules.md part 2).

As in grading.run.rating, no rule lives here: the engine's EloPeriodResult holds every number.

An Elo breakdown line is a JSON list in ELO_LINE order:

- ``game``, ``colour``, ``halves`` as in grading.run.breakdown;
- ``opponent_rating``: the rating the opponent was counted at (null: unrated for this game);
- ``counted``: "counted", "disregarded" (the first-event rule) or "not counted";
- ``expected``: PD in hundredths (a rated player's counted games; else null);
- ``increment``: K x (W - PD) in millionths (the same games; else null).
"""

import json

import numpy as np

from chess.months import Month
from grading.engine.arrays import distinct
from grading.engine.codes import (
    CATEGORY_NAMES,
    FULL,
    K_RULE_NAMES,
    METHOD_NAMES,
    NO_STATE,
    PENDING,
    TYPE_NAMES,
    UNRATED_USED,
)
from grading.engine.inputs.forms import PendingColumns, StateColumns
from grading.engine.numbers import points
from grading.engine.results.elo import EloPeriodResult
from grading.run.breakdown import SidesByPlayer
from grading.run.publishing import CATEGORY_INDEX, States, lifetime_columns

ELO_LINE = ("game", "colour", "halves", "opponent_rating", "counted", "expected", "increment")


def stored_positions(result: EloPeriodResult) -> np.ndarray:
    """The players with a game whose state after the period is something to store: an unrated
    player left with nothing pending gets no row."""
    return np.flatnonzero(result.players.rated & (result.players.type != NO_STATE))


def elo_rating_columns(result: EloPeriodResult, positions: np.ndarray) -> tuple[dict, States]:
    p = result.players
    kind = p.type[positions]
    has_k = p.k_rule[positions] > 0
    last = p.state_last_played[positions]
    months = {index: str(Month.from_index(index)) for index in distinct(last[last >= 0]).tolist()}
    pending = _pending_by_position(result.pending)
    halves = p.state_points_halves[positions]
    rows = {
        "player_id": np.asarray(result.player_ids)[positions].tolist(),
        "rating": [rating if k == FULL else None for rating, k in zip(p.rating[positions].tolist(), kind.tolist())],
        "type": [TYPE_NAMES[code] for code in kind.tolist()],
        "games": p.state_games[positions].tolist(),
        "opponents_total": p.state_opponents_total[positions].tolist(),
        "points": [points(value) for value in halves.tolist()],
        "last_played": [months.get(index, "") for index in last.tolist()],
        "category": [CATEGORY_NAMES[code] for code in p.category[positions].tolist()],
        "method": [METHOD_NAMES[code] for code in p.method[positions].tolist()],
        "prior_rating": [value or None for value in p.prior_rating[positions].tolist()],
        "k_factor": [f"{k}.000000" if has else None for k, has in zip(p.k[positions].tolist(), has_k.tolist())],
        "peak": [peak or None for peak in p.state_peak[positions].tolist()],
        "k_rule": [K_RULE_NAMES[rule] or "" for rule in p.k_rule[positions].tolist()],
        "pending": [json.dumps(pending.get(i, [])) for i in positions.tolist()],
        "age": [age if age >= 0 else None for age in p.age[positions].tolist()],
        **lifetime_columns(p, positions),
    }
    player_ids = np.asarray(result.player_ids, dtype=np.int64)
    keep = np.isin(result.pending.player, positions[kind == PENDING])
    rows_kept = result.pending.select(keep)
    new = States(
        player_ids[positions],
        np.where(kind == FULL, p.rating[positions], 0).astype(np.int64),
        kind.astype(np.int8),
        p.state_games[positions].astype(np.int64),
        p.state_opponents_total[positions].astype(np.int64),
        halves.astype(np.int64),
        last.astype(np.int64),
        CATEGORY_INDEX[p.category[positions]],
        p.state_peak[positions].astype(np.int64),
        *(getattr(p, f"state_{name}")[positions].astype(np.int64) for name in StateColumns.COUNTERS),
        PendingColumns(player_ids[rows_kept.player], *(getattr(rows_kept, f) for f in PendingColumns.FIELDS[1:])),
    )
    return rows, new


def _pending_by_position(table: PendingColumns) -> dict:
    by_position = {}
    for player, month, games, total, halves in zip(*(getattr(table, f).tolist() for f in PendingColumns.FIELDS)):
        by_position.setdefault(player, []).append(
            {
                "month": str(Month.from_index(month)),
                "games": games,
                "opponents_total": total,
                "points": points(halves),
            }
        )
    return by_position


def encode_elo(result: EloPeriodResult, game_ids: np.ndarray, positions: np.ndarray) -> list[str]:
    """The breakdown, as JSON text, of each player at ``positions`` (see ELO_LINE)."""
    g = result.games
    sides = SidesByPlayer(g, game_ids)
    words = ('"counted"', '"disregarded"', '"not counted"')
    lines = [
        f'[{game},"{"wb"[side]}",{halves},{"null" if used == UNRATED_USED else used},{words[w]},'
        f"{expected if has else 'null'},{increment if has else 'null'}]"
        for game, side, halves, used, w, has, expected, increment in zip(
            sides.game,
            sides.side,
            sides.halves,
            sides.column(g.opponent_rating),
            sides.column(np.where(g.counted, 0, np.where(g.disregarded, 1, 2))),
            sides.column(g.has_increment),
            sides.column(g.expected_hundredths),
            sides.column(g.increment_micro),
        )
    ]
    return sides.per_player(lines, positions)
