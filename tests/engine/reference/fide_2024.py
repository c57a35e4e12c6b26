"""One period of the Elo method under FIDE's 2024 rules (rule sets ``fide-2024``, ``fide-2025``,
``fide-2024-rapid``), read a second time from docs/rules.md parts 2 and 5 for tests only.

It takes an offline calculation file (docs/rate-file.md) as a dict, already read from JSON, and
works player by player and game by game with ints and Fractions, as a reader of the rules would
write it, without looking at the engine: the cross-check in test_fide_2024_reference.py compares
the two. Months are ``"YYYY-MM"`` strings, points come back as Fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction

from tests.engine.reference.tables import dp, higher_side_pd

RULE_SETS = ("fide-2024", "fide-2025", "fide-2024-rapid")
FLOOR = 1400  # 16.1: under it a rated player becomes unrated; a first rating needs it
FIRST_RATING_CAP = 2200  # 16.3
WINDOW_MONTHS = 26  # section 12 step 2: a month m stays while m >= period - 25
K_CAP = 700
SCORES = {"1-0": (Fraction(1), Fraction(0)), "0-1": (Fraction(0), Fraction(1)), "1/2-1/2": (Fraction(1, 2),) * 2}


def month_number(month: str) -> int:
    year, number = month.split("-")
    return int(year) * 12 + int(number) - 1


def round_half_up(x: Fraction) -> int:
    """Section 11: floor(x + 0.5), for negative numbers too."""
    return math.floor(x + Fraction(1, 2))


def round_half_away(x: Fraction) -> int:
    """16.2: a period's change, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    magnitude = math.floor(abs(x) + Fraction(1, 2))
    return magnitude if x >= 0 else -magnitude


def as_fraction(value) -> Fraction:
    return Fraction(str(value))


class Side:
    """One game seen by one of its players."""

    def __init__(self, index, game, opponent, score, opponent_rating):
        self.index = index
        self.event = game.get("event")
        self.date = game["date"]
        self.opponent = opponent
        self.score = score
        self.opponent_rating = opponent_rating  # section 10: None is unrated for this game
        self.counted = opponent_rating is not None
        self.expected = None
        self.increment = None


def sides_of_everyone(document: dict, states: dict) -> dict[str, list[Side]]:
    """Every player's games, in input order, with the rating each side uses for its opponent."""
    sides: dict[str, list[Side]] = {}
    for index, game in enumerate(document["games"]):
        white, black = game["white"], game["black"]
        white_score, black_score = SCORES[game["result"]]
        # white_rating_used is white's rating at the start of the event: black counts it.
        white_used = game["white_rating_used"] if "white_rating_used" in game else rating_of(states.get(white))
        black_used = game["black_rating_used"] if "black_rating_used" in game else rating_of(states.get(black))
        sides.setdefault(white, []).append(Side(index, game, black, white_score, black_used))
        sides.setdefault(black, []).append(Side(index, game, white, black_score, white_used))
    return sides


def rating_of(state: dict | None) -> int | None:
    return state["rating"] if state is not None and state["type"] == "full" else None


def is_junior(player: dict, period: str) -> bool:
    """16.4: a junior until the end of the year they turn 18; no birth date, no junior."""
    born = player.get("birth_date")
    return born is not None and int(period[:4]) <= int(born[:4]) + 18


def k_factor(rules: str, state: dict, junior: bool, counted: int) -> int:
    """Section 11's K (16.4 for juniors), then the cap K x n <= 700."""
    ro = state["rating"]
    peak = state.get("peak") if state.get("peak") is not None else ro
    if rules == "fide-2024-rapid":
        k = 20
    elif state["games"] < 30 or (junior and ro < 2300):
        k = 40
    elif peak >= 2400:
        k = 10
    else:
        k = 20
    if k * counted > K_CAP:
        k = K_CAP // counted
    return k


def expected_score(rules: str, ro: int, opponent: int) -> Fraction:
    """16.2: PD of the player's side; the 400-point cap, lifted under fide-2025 for Ro >= 2650."""
    diff = ro - opponent
    if not (rules == "fide-2025" and ro >= 2650):
        diff = max(-400, min(400, diff))
    pd = higher_side_pd(abs(diff))
    return pd if diff >= 0 else 1 - pd


def rate_rated(rules: str, period: str, player: dict, state: dict, sides: list[Side]) -> dict:
    counted = [side for side in sides if side.counted]
    peak = state.get("peak") if state.get("peak") is not None else state["rating"]
    if not counted:
        return outcome("rated", "elo", None, state["rating"], "full", same_state(state, peak))
    ro = state["rating"]
    k = k_factor(rules, state, is_junior(player, period), len(counted))
    for side in counted:
        side.expected = expected_score(rules, ro, side.opponent_rating)
        side.increment = k * (side.score - side.expected)
    rating = ro + round_half_away(sum(side.increment for side in counted))
    if rating < FLOOR:  # 16.1: unrated again, a clean slate but for the peak
        fallen = pending_state(period, [], peak)
        return outcome("rated", "elo", k, None, "pending", fallen)
    new_state = {
        "rating": rating,
        "type": "full",
        "games": state["games"] + len(counted),
        "opponents_total": state["opponents_total"] + sum(side.opponent_rating for side in counted),
        "points": as_fraction(state["points"]) + sum(side.score for side in counted),
        "last_played": period,
        "peak": max(peak, rating),
        "pending": [],
    }
    return outcome("rated", "elo", k, rating, "full", new_state)


def kept_games(period: str, pending: list[dict], counted: list[Side]) -> list[Side]:
    """Section 12 step 1: without a pending month in the window, events before the first with a
    point are disregarded (events ordered by their last counted game's date, then id; no event first)."""
    if any(month_number(entry["month"]) >= month_number(period) - (WINDOW_MONTHS - 1) for entry in pending):
        return counted
    events: dict = {}
    for side in counted:
        events.setdefault(side.event, []).append(side)

    def order(event):
        return (max(side.date for side in events[event]), event is not None, event or "")

    ordered = sorted(events, key=order)
    for position, event in enumerate(ordered):
        if sum(side.score for side in events[event]) > 0:
            return [side for later in ordered[position:] for side in events[later]]
    return []


def first_rating(months: list[dict]) -> int | None:
    """16.3: two imaginary draws against 1800s, p rounded half up to 2 decimals, capped at 2200."""
    games = sum(entry["games"] for entry in months)
    total = sum(entry["opponents_total"] for entry in months)
    points = sum((as_fraction(entry["points"]) for entry in months), Fraction(0))
    if games < 5 or points < Fraction(1, 2):
        return None
    average = Fraction(total + 2 * 1800, games + 2)
    hundredths = round_half_up((points + 1) / (games + 2) * 100)
    return min(FIRST_RATING_CAP, round_half_up(average + dp(hundredths)))


def rate_unrated(period: str, state: dict | None, sides: list[Side]) -> dict:
    pending = state["pending"] if state is not None else []
    peak = state.get("peak") if state is not None else None
    counted = [side for side in sides if side.counted]
    kept = kept_games(period, pending, counted)
    for side in sides:
        side.counted = side in kept
    if not kept:  # step 5: nothing changes, not even expired months
        kept_state = same_state(state, peak) if state is not None else None
        return outcome("unrated", "first", None, None, "pending" if state is not None else None, kept_state)
    months = [entry for entry in pending if month_number(entry["month"]) >= month_number(period) - (WINDOW_MONTHS - 1)]
    months.append(
        {
            "month": period,
            "games": len(kept),
            "opponents_total": sum(side.opponent_rating for side in kept),
            "points": sum(side.score for side in kept),
        }
    )
    rating = first_rating(months)
    if rating is None or rating < FLOOR:  # step 4 with 16.1's 1400
        return outcome("unrated", "first", None, None, "pending", pending_state(period, months, peak))
    new_state = {
        "rating": rating,
        "type": "full",
        "games": sum(entry["games"] for entry in months),
        "opponents_total": sum(entry["opponents_total"] for entry in months),
        "points": sum((as_fraction(entry["points"]) for entry in months), Fraction(0)),
        "last_played": period,
        "peak": rating if peak is None else max(peak, rating),
        "pending": [],
    }
    return outcome("unrated", "first", None, rating, "full", new_state)


def pending_state(period: str, months: list[dict], peak: int | None) -> dict:
    return {
        "rating": None,
        "type": "pending",
        "games": 0,
        "opponents_total": 0,
        "points": Fraction(0),
        "last_played": period,
        "peak": peak,
        "pending": sorted(pending_entry(entry) for entry in months),
    }


def pending_entry(entry: dict) -> tuple:
    return (entry["month"], entry["games"], entry["opponents_total"], as_fraction(entry["points"]))


def same_state(state: dict, peak: int | None) -> dict:
    """A prior state given back unchanged, in the shape this module compares."""
    return {
        "rating": state["rating"],
        "type": state["type"],
        "games": state["games"],
        "opponents_total": state["opponents_total"],
        "points": as_fraction(state["points"]),
        "last_played": state.get("last_played"),
        "peak": peak,
        "pending": sorted(pending_entry(entry) for entry in state.get("pending") or []),
    }


def outcome(category, method, k, rating, kind, state) -> dict:
    return {"category": category, "method": method, "k": k, "rating": rating, "type": kind, "state": state}


def rate_file(document: dict) -> dict[str, dict]:
    """Every player with a game in the period: category, method, k, rating, type, state and games[]
    (opponent, opponent_rating, counted, expected, increment), keyed by id."""
    rules, period, list_code = document["rules"], document["period"], document["list"]
    assert rules in RULE_SETS, rules
    players = {player["id"]: player for player in document["players"]}
    states = {pid: (player.get("ratings") or {}).get(list_code) for pid, player in players.items()}
    result = {}
    for pid, sides in sides_of_everyone(document, states).items():
        state = states[pid]
        if rating_of(state) is not None:
            got = rate_rated(rules, period, players[pid], state, sides)
        else:
            got = rate_unrated(period, state, sides)
        got["games"] = [
            (side.opponent, side.opponent_rating, side.counted, side.expected, side.increment) for side in sides
        ]
        result[pid] = got
    return result
