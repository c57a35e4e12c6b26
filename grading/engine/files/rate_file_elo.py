"""The offline calculation file's output for an Elo rule set (docs/rate-file.md, "Elo rule sets")."""

from __future__ import annotations

import json

from chess.months import Month
from grading.engine.codes import CATEGORY_NAMES, FULL, METHOD_NAMES, PENDING, TYPE_NAMES, UNRATED_USED
from grading.engine.numbers import micro, points, score
from grading.engine.results.elo import EloPeriodResult


def elo_player_block(result: EloPeriodResult, i: int) -> str:
    p, g, ids = result.players, result.games, result.player_ids
    kind = int(p.type[i])
    rated = kind == FULL
    has_k = bool(p.k_rule[i])
    game_lines = []
    for game, side in result.sides_of(i):
        used = int(g.opponent_rating[game, side])
        has = bool(g.has_increment[game, side])
        hundredths = int(g.expected_hundredths[game, side])
        game_lines.append(
            f'        {{"opponent": {json.dumps(ids[g.opponent[game, side]])}, '
            f'"result": {score(int(g.halves[game, side]))}, '
            f'"opponent_rating": {"null" if used == UNRATED_USED else used}, '
            f'"counted": {json.dumps(bool(g.counted[game, side]))}, '
            f'"expected": {f"{hundredths // 100}.{hundredths % 100:02d}" if has else "null"}, '
            f'"increment": {micro(int(g.increment_micro[game, side])) if has else "null"}}}'
        )
    return "\n".join(
        [
            "    {",
            f'      "id": {json.dumps(ids[i])},',
            f'      "category": {json.dumps(CATEGORY_NAMES[p.category[i]])},',
            f'      "method": {json.dumps(METHOD_NAMES[p.method[i]])},',
            f'      "k": {int(p.k[i]) if has_k else "null"},',
            '      "pass1": null,',
            '      "pass2": null,',
            f'      "rating": {int(p.rating[i]) if rated else "null"},',
            f'      "type": {json.dumps(TYPE_NAMES[kind])},',
            *floor_line(result, i),
            f'      "state": {_state(result, i)},',
            '      "games": [',
            ",\n".join(game_lines),
            "      ]",
            "    }",
        ]
    )


def floor_line(result, i: int) -> list[str]:
    """Under a rule set with floors, the output player's ``floor`` (either method)."""
    if not result.rules.floors:
        return []
    floor = int(result.players.floor[i])
    return [f'      "floor": {floor if floor else "null"},']


def counters(result, i: int, peak: bool = False) -> str:
    """Under a rule set with floors, the new state's lifetime counters (and, ``peak``, the
    ECF state's peak), each after a comma; nothing otherwise."""
    if not result.rules.floors:
        return ""
    p = result.players
    shown = f', "peak": {int(p.state_peak[i]) or "null"}' if peak else ""
    return (
        shown + f', "wins": {int(p.state_wins[i])}, "draws": {int(p.state_draws[i])}, '
        f'"events3": {int(p.state_events3[i])}'
    )


def _state(result: EloPeriodResult, i: int) -> str:
    p = result.players
    kind = int(p.type[i])
    if kind not in (FULL, PENDING):
        return "null"
    last = int(p.state_last_played[i])
    shown = "null" if last < 0 else f'"{Month.from_index(last)}"'
    common = (
        f'"games": {int(p.state_games[i])}, "opponents_total": {int(p.state_opponents_total[i])}, '
        f'"points": {points(int(p.state_points_halves[i]))}, "last_played": {shown}'
    )
    common += counters(result, i)
    if kind == FULL:
        return f'{{"rating": {int(p.rating[i])}, "type": "full", {common}, "peak": {int(p.state_peak[i])}}}'
    months = ", ".join(
        f'{{"month": "{entry.month}", "games": {entry.games}, "opponents_total": {entry.opponents_total}, '
        f'"points": {points(int(entry.points * 2))}}}'
        for entry in result.pending_of(i)
    )
    # A rating lost under the floor leaves its peak (FIDE's 2024 rules, docs/rules.md 17.1).
    peak = int(p.state_peak[i])
    kept = f', "peak": {peak}' if peak else ""
    return f'{{"rating": null, "type": "pending", {common}{kept}, "pending": [{months}]}}'
