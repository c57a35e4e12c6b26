"""Random federations for FIDE's 2024 rules, as offline calculation files (docs/rate-file.md).

Players at the rules' edges on purpose: ratings at 1400-1410 and 2648-2651, K's 2300 and 2400, few
games (K 40 under 30), juniors born 17, 18 and 19 years before the period, pending players with
months in and out of the 26-month window, players who fell under 1400 (a pending state with a peak).
Months hold Swiss events, lopsided pairings past 400 and 600 points, events begun in an earlier
month (ratings used), games without an event, and a marathon for the 700 cap.
"""

from __future__ import annotations

import random

RESULTS = ("1-0", "0-1", "1/2-1/2")


def month_name(number: int) -> str:
    return f"{number // 12:04d}-{number % 12 + 1:02d}"


def month_number(month: str) -> int:
    year, number = month.split("-")
    return int(year) * 12 + int(number) - 1


def random_points(rng: random.Random, games: int) -> float:
    return rng.randint(0, 2 * games) / 2


def rated_state(rng: random.Random, period: int) -> dict:
    roll = rng.random()
    if roll < 0.12:
        rating = rng.randint(1400, 1410)
    elif roll < 0.22:
        rating = rng.choice([2648, 2649, 2650, 2651, 2660])
    elif roll < 0.3:
        rating = rng.choice([2299, 2300, 2399, 2400])
    else:
        rating = rng.randint(1400, 2800)
    games = rng.randint(0, 29) if rng.random() < 0.4 else rng.randint(30, 300)
    state = {
        "rating": rating,
        "type": "full",
        "games": games,
        "opponents_total": games * rng.randint(max(1000, rating - 300), rating + 300),
        "points": random_points(rng, games),
        "last_played": month_name(period - rng.randint(1, 40)),
    }
    if rng.random() < 0.6:
        state["peak"] = rating + rng.choice([0, 0, rng.randint(1, 500)])
    return state


def pending_state(rng: random.Random, period: int) -> dict:
    months = sorted(rng.sample(range(period - 40, period), rng.randint(0 if rng.random() < 0.1 else 1, 3)))
    entries = []
    for month in months:
        games = rng.randint(1, 6)
        entries.append(
            {
                "month": month_name(month),
                "games": games,
                "opponents_total": games * rng.randint(1300, 2500),
                "points": random_points(rng, games),
            }
        )
    state = {"rating": None, "type": "pending", "games": 0, "opponents_total": 0, "points": 0}
    state["last_played"] = month_name(months[-1] if months else period - rng.randint(1, 12))
    state["pending"] = entries
    if not entries or rng.random() < 0.15:
        state["peak"] = rng.randint(1400, 2200)
    return state


def random_player(rng: random.Random, pid: str, period: int, list_code: str) -> dict:
    player = {"id": pid}
    year = period // 12
    if rng.random() < 0.75:
        born = rng.choice([year - 17, year - 18, year - 18, year - 19, rng.randint(year - 80, year - 8)])
        player["birth_date"] = f"{born:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    roll = rng.random()
    if roll < 0.6:
        player["ratings"] = {list_code: rated_state(rng, period)}
    elif roll < 0.8:
        player["ratings"] = {list_code: pending_state(rng, period)}
    return player


def strength(player: dict, list_code: str) -> int:
    state = (player.get("ratings") or {}).get(list_code)
    return state["rating"] if state and state.get("rating") is not None else 1500


def result(rng: random.Random, white: int, black: int) -> str:
    if rng.random() < 0.2:
        return "1/2-1/2"
    return "1-0" if rng.random() < 1 / (1 + 10 ** ((black - white) / 400)) else "0-1"


class MonthBuilder:
    def __init__(self, rng: random.Random, document: dict):
        self.rng = rng
        self.document = document
        self.period = document["period"]
        self.players = document["players"]
        self.strengths = {p["id"]: strength(p, document["list"]) for p in self.players}
        self.games: list[dict] = []

    def play(self, white: str, black: str, day: int, event: str | None, used: dict | None = None):
        game = {
            "white": white,
            "black": black,
            "result": result(self.rng, self.strengths[white], self.strengths[black]),
            "date": f"{self.period}-{min(day, 28):02d}",
        }
        if event is not None:
            game["event"] = event
        if used is not None:
            game["white_rating_used"] = used[white]
            game["black_rating_used"] = used[black]
        self.games.append(game)

    def swiss(self, event: str):
        rng = self.rng
        entrants = rng.sample([p["id"] for p in self.players], rng.randint(6, min(60, len(self.players))))
        used = None
        if rng.random() < 0.25:  # begun last month: the ratings at its start, some unrated then
            used = {pid: self.earlier_rating(pid) for pid in entrants}
        scores = dict.fromkeys(entrants, 0.0)
        start = rng.randint(1, 20)
        for round_number in range(rng.randint(3, 8)):
            ranked = sorted(entrants, key=lambda pid: (-scores[pid], -self.strengths[pid], pid))
            half = len(ranked) // 2
            for top, bottom in zip(ranked[:half], ranked[half : 2 * half], strict=True):
                white, black = (top, bottom) if rng.random() < 0.5 else (bottom, top)
                self.play(white, black, start + round_number, event, used)
                outcome = self.games[-1]["result"]
                scores[white] += {"1-0": 1, "0-1": 0}.get(outcome, 0.5)
                scores[black] += {"1-0": 0, "0-1": 1}.get(outcome, 0.5)

    def earlier_rating(self, pid: str):
        """A rating at the event's start: none, or up to 450 lower, down to 1000 (begun under fide-2017)."""
        if self.rng.random() < 0.15:
            return None
        return max(1000, self.strengths[pid] + self.rng.randint(-450, 60))

    def lopsided(self, event: str):
        """Pairings far past 400 points: a strong player against someone 450 to 1300 below."""
        rng = self.rng
        ids = sorted(self.strengths, key=self.strengths.get)
        for _ in range(rng.randint(5, 25)):
            strong = rng.choice(ids[-max(3, len(ids) // 5) :])
            gap = rng.choice([450, 500, 600, 650, 750, 1000])
            weak = [pid for pid in ids if self.strengths[pid] <= self.strengths[strong] - gap] or ids[:3]
            opponent = rng.choice(weak)
            if opponent != strong:
                self.play(strong, opponent, rng.randint(1, 28), event)

    def casual(self):
        """Games without an event, half of them on a day an event played (a tie for the first-event rule)."""
        ids = [p["id"] for p in self.players]
        days = [int(game["date"][-2:]) for game in self.games]
        for _ in range(self.rng.randint(0, 10)):
            white, black = self.rng.sample(ids, 2)
            self.play(white, black, self.rng.choice(days) if self.rng.random() < 0.5 else self.rng.randint(1, 28), None)

    def marathon(self, event: str):
        """Six players meet 8 times each (40 games each): the 700 cap bites at K 20 and K 40."""
        entrants = self.rng.sample([p["id"] for p in self.players], 6)
        for cycle in range(8):
            for i, white in enumerate(entrants):
                for black in entrants[i + 1 :]:
                    pair = (white, black) if cycle % 2 else (black, white)
                    self.play(*pair, 1 + cycle * 3, event)


def random_month(rng: random.Random, document: dict) -> list[dict]:
    builder = MonthBuilder(rng, document)
    tag = document["period"].replace("-", "")
    for number in range(rng.randint(1, 4)):
        builder.swiss(f"S{tag}-{number}")
    builder.lopsided(f"L{tag}")
    builder.casual()
    if rng.random() < 0.5:
        builder.marathon(f"M{tag}")
    return builder.games


def random_federation(seed: int, rules: str, players: int | None = None) -> dict:
    """The first month's file, games included; next_month() chains more."""
    rng = random.Random(seed)
    list_code = "otb-rapid" if rules == "fide-2024-rapid" else "otb-standard"
    period = rng.randint(month_number("2024-03"), month_number("2027-12"))
    count = players or rng.randint(20, 200)
    document = {
        "rules": rules,
        "list": list_code,
        "period": month_name(period),
        "players": [random_player(rng, f"P{i:03d}", period, list_code) for i in range(count)],
    }
    document["games"] = random_month(rng, document)
    return document


def next_month(rng: random.Random, document: dict, states: dict[str, dict | None]) -> dict:
    """The following month: the players' new states (None: no state) in place of the old ones."""
    list_code = document["list"]
    players = []
    for before in document["players"]:
        player = {key: value for key, value in before.items() if key != "ratings"}
        ratings = dict(before.get("ratings") or {})
        if player["id"] in states:
            ratings.pop(list_code, None)
            if states[player["id"]] is not None:
                ratings[list_code] = states[player["id"]]
        if ratings:
            player["ratings"] = ratings
        players.append(player)
    following = dict(document, period=month_name(month_number(document["period"]) + 1), players=players)
    following["games"] = random_month(rng, following)
    return following
