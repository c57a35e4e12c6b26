"""Random federations for property tests and the cross-check against the reference."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal

from grading.engine import Game, PendingMonth, PeriodInputs, Player, RatingState
from tests.engine.helpers import PERIOD

TITLES = ["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "NM", None]
LIST_CODES = ["otb-standard", "otb-rapid", "online"]
RESULTS = ["1-0", "0-1", "1/2-1/2"]


def random_state(rng: random.Random, kind: str) -> RatingState:
    games = rng.randint(1, 9) if kind == "partial" else rng.randint(10, 400)
    rating = rng.randint(100, 2700)
    opponents_total = sum(rng.randint(max(100, rating - 400), rating + 400) for _ in range(min(games, 20)))
    opponents_total = opponents_total * games // min(games, 20)
    points = Decimal(rng.randint(0, 2 * games)) / 2
    back = rng.choice([0, 1, 5, 30, 35, 36, 37, 59, 60, 61, 100])
    last = None if rng.random() < 0.05 else PERIOD - back
    return RatingState(rating, kind, games, opponents_total, points, last)


def random_player(rng: random.Random, pid: str) -> Player:
    born = None
    if rng.random() < 0.8:
        born = PERIOD.first_day() - datetime.timedelta(days=rng.randint(1, 365 * 80))
    ratings = {}
    for code in LIST_CODES:
        roll = rng.random()
        if roll < 0.55:
            ratings[code] = random_state(rng, "full")
        elif roll < 0.75:
            ratings[code] = random_state(rng, "partial")
    title = rng.choice(TITLES) if rng.random() < 0.15 else None
    return Player(pid, born, title, ratings)


def random_month(
    seed: int,
    players: int = 200,
    games: int = 600,
    rules: str | None = None,
    list_code: str | None = None,
    adjustment: bool | None = None,
) -> PeriodInputs:
    rng = random.Random(seed)
    roster = [random_player(rng, f"P{rng.randint(0, 10**6):06d}-{i}") for i in range(players)]
    # a few players play a lot, to reach K = 700 / N
    weights = [rng.choice([1, 1, 1, 2, 5, 30]) for _ in roster]
    month_games = []
    for _ in range(games):
        white, black = rng.choices(range(players), weights=weights, k=2)
        if white == black:
            continue
        day = datetime.date(PERIOD.year, PERIOD.month, rng.randint(1, 28))
        month_games.append(Game(roster[white].id, roster[black].id, rng.choice(RESULTS), day))
    with_adjustment = rng.random() < 0.3 if adjustment is None else adjustment
    a = Decimal(rng.randint(-300, 300)) / 10 if with_adjustment else Decimal(0)
    b = Decimal(rng.randint(-50, 50)) / 10000 if with_adjustment else Decimal(0)
    return PeriodInputs(
        rules or rng.choice(["ecf-2020", "ecf-2024"]),
        list_code or rng.choice(LIST_CODES),
        PERIOD,
        roster,
        month_games,
        a,
        b,
    )


def random_elo_state(rng: random.Random) -> RatingState | None:
    roll = rng.random()
    if roll < 0.6:
        rating = rng.randint(1000, 2750)
        games = rng.choice([rng.randint(1, 29), rng.randint(30, 600)])
        peak = rng.choice([None, rating, rating + rng.randint(0, 300)])
        points = Decimal(rng.randint(0, 2 * games)) / 2
        return RatingState(rating, "full", games, rating * games, points, PERIOD - rng.randint(1, 30), peak=peak)
    if roll < 0.8:
        months = sorted(rng.sample(range(1, 40), rng.randint(1, 3)))  # some older than the 26-month window
        pending = []
        for back in months:
            games = rng.randint(1, 4)
            total = sum(rng.randint(1000, 2400) for _ in range(games))
            pending.append(PendingMonth(PERIOD - back, games, total, Decimal(rng.randint(0, 2 * games)) / 2))
        return RatingState(None, "pending", 0, 0, 0, PERIOD - months[0], pending=tuple(pending))
    return None


def random_elo_month(seed: int, players: int = 300, games: int = 1200, rules: str = "fide-2017") -> PeriodInputs:
    """A month of an Elo list: rated, pending and new players, games in a few events, some begun
    in the month before (their ratings used given), a few players who play a lot."""
    rng = random.Random(seed)
    roster = []
    for i in range(players):
        born = PERIOD.first_day() - datetime.timedelta(days=rng.randint(3000, 365 * 70)) if rng.random() < 0.8 else None
        state = random_elo_state(rng)
        roster.append(Player(f"E{i:04d}", born, None, {"otb-standard": state} if state else {}))
    weights = [rng.choice([1, 1, 1, 2, 5, 40]) for _ in roster]
    events = [None] + [f"EV{e}" for e in range(12)]
    begun_earlier = {"EV0", "EV1"}
    month_games = []
    for _ in range(games):
        white, black = rng.choices(range(players), weights=weights, k=2)
        if white == black:
            continue
        event = rng.choice(events)
        used = {}
        if event in begun_earlier:
            for colour in ("white", "black"):
                used[f"{colour}_rating_used"] = rng.choice([None, rng.randint(1000, 2700)])
        day = datetime.date(PERIOD.year, PERIOD.month, rng.randint(1, 28))
        month_games.append(Game(roster[white].id, roster[black].id, rng.choice(RESULTS), day, event, **used))
    return PeriodInputs(rules, "otb-standard", PERIOD, roster, month_games)
