"""Time the rating engine on a synthetic national month and on an ECF-sized one.

    .venv/bin/python bench/engine.py [--seed N]

Builds columnar inputs with numpy (players mostly Fully Rated, some Partially Rated, lapsed,
new, juniors, titled, with rapid ratings) and prints the best of three runs of
``rate_period`` for each month; building the inputs is not timed. The object-form figure is the
same ECF-sized month given as dataclasses, conversion included.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import pathlib
import sys
import time
from decimal import Decimal

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from grading.engine import (
    ECF_2024,
    FIDE_2017,
    FULL,
    NO_STATE,
    PARTIAL,
    PENDING,
    ColumnarInputs,
    Game,  # noqa: E402
    Month,
    PendingColumns,
    PeriodInputs,
    Player,
    RatingState,
    StateColumns,
    rate_period,
)

PERIOD = Month(2026, 10)
TITLES = np.array([None, "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "NM"], dtype=object)


def synthetic_states(
    rng: np.random.Generator, n: int, full_share: float, partial_share: float, lapsed_share: float
) -> StateColumns:
    roll = rng.random(n)
    kind = np.where(roll < full_share, FULL, np.where(roll < full_share + partial_share, PARTIAL, NO_STATE)).astype(
        np.int8
    )
    games = np.where(kind == FULL, rng.integers(10, 800, n), rng.integers(1, 10, n))
    rating = rng.normal(1750, 350, n).clip(100, 2850).astype(np.int64)
    opponents_total = games * (rating + rng.integers(-150, 150, n))
    points_halves = rng.binomial(2 * games, 0.5)
    months_ago = np.where(rng.random(n) < lapsed_share, rng.integers(37, 200, n), rng.integers(0, 36, n))
    last_played = np.where(kind == NO_STATE, -1, PERIOD.index - months_ago)
    zero = kind == NO_STATE
    return StateColumns(
        kind,
        np.where(zero, 0, rating),
        np.where(zero, 0, games),
        np.where(zero, 0, opponents_total),
        np.where(zero, 0, points_halves),
        last_played,
    )


def synthetic_month(players: int, games: int, seed: int) -> ColumnarInputs:
    rng = np.random.default_rng(seed)
    # ages: 20% juniors (5..17), the others adults; 10% unknown birth dates
    age_days = np.where(
        rng.random(players) < 0.2, rng.integers(5 * 365, 18 * 365, players), rng.integers(18 * 365, 85 * 365, players)
    )
    birth_date = np.datetime64(PERIOD.first_day(), "D") - age_days.astype("timedelta64[D]")
    birth_date[rng.random(players) < 0.1] = np.datetime64("NaT")
    title = TITLES[np.where(rng.random(players) < 0.02, rng.integers(1, len(TITLES), players), 0)].tolist()
    states = {
        "otb-standard": synthetic_states(rng, players, 0.75, 0.08, 0.08),  # the rest are new
        "otb-rapid": synthetic_states(rng, players, 0.30, 0.05, 0.2),
    }
    # activity is skewed: a few players play much more than the others
    activity = rng.pareto(2.5, players) + 0.2
    white = rng.choice(players, size=games, p=activity / activity.sum())
    black = (white + rng.integers(1, players, games)) % players
    white_halves = rng.choice(np.array([0, 1, 2], dtype=np.int8), size=games, p=[0.38, 0.24, 0.38])
    return ColumnarInputs(
        rules=ECF_2024,
        list_code="otb-standard",
        period=PERIOD,
        player_ids=[f"{i:06d}{'ABCDEFGHJKL'[i % 11]}" for i in range(players)],
        birth_date=birth_date,
        title=title,
        states=states,
        white=white,
        black=black,
        white_halves=white_halves,
        adjustment_a=Decimal("0"),
        adjustment_b=Decimal("0"),
    )


def synthetic_elo_month(players: int, games: int, seed: int) -> ColumnarInputs:
    """The same shape of month on a list rated by fide-2017: 80% rated (some with a peak of
    2400 or more), 8% pending with up to three months, some months outside the window; games in
    5,000 events over the month, 5% of them in events begun the month before."""
    base = synthetic_month(players, games, seed)
    rng = np.random.default_rng(seed + 7)
    roll = rng.random(players)
    kind = np.where(roll < 0.8, FULL, np.where(roll < 0.88, PENDING, NO_STATE)).astype(np.int8)
    rated = kind == FULL
    rating = np.where(rated, rng.normal(1750, 300, players).clip(1000, 2850).astype(np.int64), 0)
    played = np.where(rated, rng.integers(1, 600, players), 0)
    pending_players = np.repeat(np.flatnonzero(kind == PENDING), 2)
    pending_games = rng.integers(1, 4, len(pending_players))
    pending = PendingColumns(
        pending_players,
        PERIOD.index - np.tile([3, 30], len(pending_players) // 2),
        pending_games,
        pending_games * rng.integers(1200, 2000, len(pending_players)),
        rng.binomial(2 * pending_games, 0.5),
    )
    states = StateColumns(
        kind,
        rating,
        played,
        played * rating,
        rng.binomial(2 * played, 0.5),
        np.where(kind == NO_STATE, -1, PERIOD.index - 1),
        peak=np.where(rated, rating + rng.integers(0, 200, players), 0),
        pending=pending,
    )
    earlier = rng.random(games) < 0.05
    used = np.where(rated, rating, -1)
    return dataclasses.replace(
        base,
        rules=FIDE_2017,
        states={"otb-standard": states},
        game_date=np.datetime64(PERIOD.first_day(), "D") + rng.integers(0, 31, games).astype("timedelta64[D]"),
        event=rng.integers(-1, 5000, games),
        white_rating_used=np.where(earlier, used[base.white], -2),
        black_rating_used=np.where(earlier, used[base.black], -2),
    )


def as_objects(month: ColumnarInputs) -> PeriodInputs:
    """The same month as dataclasses, as a caller without arrays would build it."""

    def state(columns: StateColumns, i: int):
        if columns.type[i] == NO_STATE:
            return None
        last = int(columns.last_played[i])
        return RatingState(
            int(columns.rating[i]),
            "full" if columns.type[i] == FULL else "partial",
            int(columns.games[i]),
            int(columns.opponents_total[i]),
            Decimal(int(columns.points_halves[i])) / 2,
            Month.from_index(last),
        )

    players = []
    for i, pid in enumerate(month.player_ids):
        born = month.birth_date[i]
        ratings = {code: s for code, columns in month.states.items() if (s := state(columns, i))}
        players.append(Player(pid, None if np.isnat(born) else born.astype(datetime.date), month.title[i], ratings))
    day = PERIOD.first_day()
    result = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}
    games = [
        Game(month.player_ids[w], month.player_ids[b], result[h], day)
        for w, b, h in zip(month.white.tolist(), month.black.tolist(), month.white_halves.tolist())
    ]
    return PeriodInputs(month.rules, month.list_code, month.period, players, games)


def best_of_three(inputs) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        rate_period(inputs)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    seed = parser.parse_args().seed
    large = synthetic_month(300_000, 1_000_000, seed)
    ecf = synthetic_month(15_000, 30_000, seed + 1)
    result = rate_period(large)
    rated = result.rated_positions()
    counts = np.bincount(result.players.category[rated], minlength=4)[1:]
    print(
        f"large month: {len(rated):,} players rated ({counts[0]:,} full, {counts[1]:,} partial, "
        f"{counts[2]:,} new; {int(result.players.junior[rated].sum()):,} juniors), "
        f"{large.game_count:,} games"
    )
    print(f"engine, 1,000,000 games / 300,000 players (columnar): {best_of_three(large):.3f} s  (target < 2 s)")
    print(f"engine, 30,000 games / 15,000 players (columnar):     {best_of_three(ecf):.4f} s  (target < 0.1 s)")
    print(f"engine, 30,000 games / 15,000 players (dataclasses):  {best_of_three(as_objects(ecf)):.4f} s")
    elo = synthetic_elo_month(300_000, 1_000_000, seed)
    print(f"engine, 1,000,000 games / 300,000 players, fide-2017:  {best_of_three(elo):.3f} s  (target < 0.3 s)")


if __name__ == "__main__":
    main()
