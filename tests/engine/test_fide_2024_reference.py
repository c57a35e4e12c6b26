"""The engine against a second reading of FIDE's 2024 rules (docs/rules.md part 5) in
tests/engine/reference/fide_2024.py, through the offline calculation file: random federations
rated for one to three chained months, and hand-made months at each edge of part 5."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine import rate_period
from grading.engine.files.rate_file import format_result, parse_rate_file
from tests.engine.reference.fide_2024 import RULE_SETS, rate_file
from tests.engine.reference.random_federation import next_month as chain_month
from tests.engine.reference.random_federation import random_federation

PERIOD = "2026-10"


def engine_file(document: dict) -> str:
    """The engine's output file for a document, through the public reader and writer."""
    return format_result(rate_period(parse_rate_file(json.dumps(document))))


def comparable_state(state: dict | None) -> dict | None:
    if state is None:
        return None
    return {
        "rating": state["rating"],
        "type": state["type"],
        "games": state["games"],
        "opponents_total": state["opponents_total"],
        "points": Fraction(state["points"]),
        "last_played": state.get("last_played"),
        "peak": state.get("peak"),
        "pending": sorted(
            (entry["month"], entry["games"], entry["opponents_total"], Fraction(entry["points"]))
            for entry in state.get("pending") or []
        ),
    }


def comparable(entry: dict) -> dict:
    return {
        "category": entry["category"],
        "method": entry["method"],
        "k": entry["k"],
        "rating": entry["rating"],
        "type": entry["type"],
        "state": comparable_state(entry["state"]),
        "games": [
            (line["opponent"], line["opponent_rating"], line["counted"], line["expected"], line["increment"])
            for line in entry["games"]
        ],
    }


def rate_both(document: dict) -> tuple[dict[str, dict], list[dict]]:
    """The reference's reading, after checking that the engine agrees with it player by player; and the
    engine's players as written (points as JSON numbers: halves are exact), to chain the next month."""
    text = engine_file(document)
    got = {entry["id"]: comparable(entry) for entry in json.loads(text, parse_float=Fraction)["players"]}
    want = rate_file(document)
    assert sorted(got) == sorted(want)
    for pid, expected in want.items():
        assert got[pid] == expected, (document["rules"], document["period"], pid)
    return want, json.loads(text)["players"]


def next_month(rng: random.Random, document: dict, written: list[dict]) -> dict:
    """The following month, with the engine's new states (the same as the reference's, checked)."""
    return chain_month(rng, document, {entry["id"]: entry["state"] for entry in written})


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULE_SETS), months=st.integers(1, 3))
def test_the_engine_rates_random_federations_as_the_second_reading_does(seed, rules, months):
    document = random_federation(seed, rules)
    rng = random.Random(seed + 1)
    for _ in range(months):
        _, written = rate_both(document)
        document = next_month(rng, document, written)


def test_the_random_federations_reach_every_edge_of_part_5():
    """Seeds 0-5 under each rule set, two months each, between them meet every rule the cross-check is for."""
    seen = set()
    for rules in RULE_SETS:
        for seed in range(6):
            document = random_federation(seed, rules)
            for _ in range(2):
                want, written = rate_both(document)
                seen |= edges(document, want)
                document = next_month(random.Random(seed), document, written)
    assert seen >= {
        "fell under 1400",
        "first rating",
        "first rating capped",
        "first rating under 1400",
        "k 40",
        "k 10",
        "k capped",
        "past 400 uncapped",
        "half away from zero",
        "expired month",
        "disregarded event",
        "unrated for the game",
    }


def edges(document: dict, want: dict[str, dict]) -> set[str]:
    """The edges of part 5 the reference's results of a month show."""
    states = {p["id"]: (p.get("ratings") or {}).get(document["list"]) for p in document["players"]}
    seen = set()
    for pid, got in want.items():
        lines = got["games"]
        if any(line[1] is None for line in lines) and any(line[1] is not None for line in lines):
            seen.add("unrated for the game")
        if got["category"] == "rated":
            seen |= rated_edges(states[pid]["rating"], got)
        else:
            seen |= unrated_edges(document["period"], states[pid], got)
    return seen


def rated_edges(ro: int, got: dict) -> set[str]:
    if got["k"] is None:
        return set()
    seen = {f"k {got['k']}" if got["k"] in (10, 20, 40) else "k capped"}
    if got["type"] == "pending":
        seen.add("fell under 1400")
    if sum(line[4] for line in got["games"] if line[2]).denominator == 2:
        seen.add("half away from zero")
    if any(line[2] and abs(ro - line[1]) > 400 and line[3] > Fraction(92, 100) for line in got["games"]):
        seen.add("past 400 uncapped")
    return seen


def unrated_edges(period: str, before: dict | None, got: dict) -> set[str]:
    seen = set()
    if got["type"] == "full":
        seen.add("first rating capped" if got["rating"] == 2200 else "first rating")
    if any(line[1] is not None and not line[2] for line in got["games"]):
        seen.add("disregarded event")
    state = got["state"]
    if state is None or state["last_played"] != period or state["type"] != "pending":
        return seen
    months = state["pending"]
    if sum(m[1] for m in months) >= 5 and sum(m[3] for m in months) >= Fraction(1, 2):
        seen.add("first rating under 1400")
    if before and {m["month"] for m in before.get("pending") or []} - {m[0] for m in months}:
        seen.add("expired month")
    return seen


# Hand-made months at each edge of part 5: the engine and the reference agree, on the number worked here.


def rated(rating: int, games: int = 50, peak: int | None = None) -> dict:
    state = {"rating": rating, "type": "full", "games": games, "opponents_total": rating * games, "points": 25}
    return state | {"last_played": "2026-09"} | ({} if peak is None else {"peak": peak})


def month_file(rules: str, players: dict[str, dict | None], games: list[tuple], born: dict | None = None) -> dict:
    """players: id -> state on the list (None: never rated); games: (white, black, result[, event])."""
    list_code = "otb-rapid" if rules == "fide-2024-rapid" else "otb-standard"
    entries = []
    for pid, state in players.items():
        entry = {"id": pid, "birth_date": (born or {}).get(pid)}
        entries.append(entry | ({"ratings": {list_code: state}} if state else {}))
    lines = [
        {
            "white": g[0],
            "black": g[1],
            "result": g[2],
            "date": f"{PERIOD}-{4 + i % 20:02d}",
            "event": g[3] if g[3:] else "e",
        }
        for i, g in enumerate(games)
    ]
    return {"rules": rules, "list": list_code, "period": PERIOD, "players": entries, "games": lines}


def ratings(rules: str, players: dict[str, dict | None], games: list[tuple], born: dict | None = None) -> dict:
    want, _ = rate_both(month_file(rules, players, games, born))
    return {pid: (got["rating"], got["type"], got["k"]) for pid, got in want.items()}


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_loss_to_1400_keeps_the_rating_and_a_loss_to_1399_makes_the_player_unrated(rules):
    """K 20 (50 games): a loss at an equal rating is 20 x (0 - 0.50) = -10. 1410 -> 1400 stays rated;
    1409 -> 1399 is under the floor: unrated, no pending month, the peak kept (1409, the rating)."""
    players = {"A": rated(1410), "B": rated(1410), "C": rated(1409), "D": rated(1409, peak=1650)}
    want, _ = rate_both(month_file(rules, players, [("B", "A", "1-0"), ("D", "C", "1-0")]))
    assert (want["A"]["rating"], want["B"]["rating"], want["D"]["rating"]) == (1400, 1420, 1419)
    assert (want["C"]["rating"], want["C"]["type"]) == (None, "pending")
    assert want["C"]["state"] | {"last_played": None} == {
        "rating": None,
        "type": "pending",
        "games": 0,
        "opponents_total": 0,
        "points": 0,
        "last_played": None,
        "peak": 1409,
        "pending": [],
    }
    assert want["D"]["state"]["peak"] == 1650


def opponents(*ratings_used: int) -> dict[str, dict]:
    return {f"R{i}-{rating}": rated(rating) for i, rating in enumerate(ratings_used)}


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize(
    ("wins", "draws", "opposition", "first"),
    [
        # 1 win, 4 losses: p = 2 / 7 = 0.29, dp -158. T 7299: Ra = 10899 / 7 = 1557 -> 1399, no rating.
        (1, 0, (1459, 1460, 1460, 1460, 1460), None),
        # T 7306: Ra = 10906 / 7 = 1558, 1558 - 158 = 1400: rated.
        (1, 0, (1461, 1461, 1461, 1461, 1462), 1400),
        # 5 draws: p = 3.5 / 7 = 0.50, dp 0. T 11793: Ra = 15393 / 7 = 2199.
        (0, 5, (2359, 2359, 2359, 2358, 2358), 2199),
        (0, 5, (2360,) * 5, 2200),  # T 11800: Ra = 2200
        (0, 5, (2361, 2361, 2361, 2362, 2362), 2200),  # Ra = 15407 / 7 = 2201, capped
        (5, 0, (2300,) * 5, 2200),  # Ra = 15100 / 7 = 2157.14, p = 6 / 7 = 0.86, dp 309: 2466, capped
    ],
)
def test_a_first_rating_needs_1400_and_stops_at_2200(rules, wins, draws, opposition, first):
    them = opponents(*opposition)
    results = ["1-0"] * wins + ["1/2-1/2"] * draws + ["0-1"] * (5 - wins - draws)
    want, _ = rate_both(
        month_file(rules, {"N": None} | them, [("N", o, r) for o, r in zip(them, results, strict=True)])
    )
    assert want["N"]["rating"] == first
    assert want["N"]["state"]["type"] == ("pending" if first is None else "full")
    assert want["N"]["state"]["games"] == (0 if first is None else 5)  # pending: the months hold them
    assert [month[:3] for month in want["N"]["state"]["pending"]] == ([] if first else [(PERIOD, 5, sum(opposition))])


@pytest.mark.parametrize("rules", ["fide-2024", "fide-2025"])
def test_a_junior_has_k_40_to_the_end_of_the_year_they_turn_18_and_under_2300(rules):
    """Period 2026-10. Born 2008-12-31: 18 in 2026, K 40, a win at 2000 +20. Born 2007-01-01: 19 this
    year, K 20, +10. Born 2008 at 2300: K 20 (+10). Born 2008 at 2250 with a peak of 2450: still K 40
    (section 11's order), +20. No birth date: no junior, K 20."""
    players = {"J18": rated(2000), "J19": rated(2000), "J2300": rated(2300), "JPEAK": rated(2250, peak=2450)}
    players["ADULT"] = rated(2000)
    players |= {f"O-{pid}": rated(state["rating"]) for pid, state in players.items()}  # equal opponents
    born = {"J18": "2008-12-31", "J19": "2007-01-01", "J2300": "2008-01-01", "JPEAK": "2008-06-15"}
    games = [(pid, f"O-{pid}", "1-0") for pid in ["J18", "J19", "J2300", "JPEAK", "ADULT"]]
    got = ratings(rules, players, games, born)
    assert [got[pid] for pid in ["J18", "J19", "J2300", "JPEAK", "ADULT"]] == [
        (2020, "full", 40),
        (2010, "full", 20),
        (2310, "full", 20),
        (2270, "full", 40),
        (2010, "full", 20),
    ]


@pytest.mark.parametrize(
    ("rules", "top", "changes"),
    [
        # diff 500 not capped for Ro 2650: PD 0.96, K 10 (peak 2650): 10 x (0.5 - 0.96) = -4.6 -> -5. The
        # player below keeps the cap: PD 0.08, K 20: 20 x (0.5 - 0.08) = 8.4 -> +8.
        ("fide-2025", 2650, (-5, 8)),
        ("fide-2025", 2649, (-4, 8)),  # 2649 is capped: PD 0.92, 10 x -0.42 = -4.2 -> -4
        ("fide-2024", 2650, (-4, 8)),  # no exemption under fide-2024
        ("fide-2024-rapid", 2650, (-8, 8)),  # K 20 for all, capped: 20 x -0.42 = -8.4 -> -8
    ],
)
def test_the_2650_exemption_from_the_400_point_rule_is_fide_2025s_and_the_players_own(rules, top, changes):
    got = ratings(rules, {"TOP": rated(top, peak=top), "LOW": rated(top - 500)}, [("TOP", "LOW", "1/2-1/2")])
    assert (got["TOP"][0] - top, got["LOW"][0] - (top - 500)) == changes


def test_past_735_points_a_player_of_2650_expects_everything_under_fide_2025():
    """2700 v 1950 (750 apart): PD 1.00, a win changes nothing; 2660 v 1950 (710): PD 0.99, K 10: +0.1 -> 0,
    a draw 10 x -0.49 = -4.9 -> -5."""
    players = {"A": rated(2700, peak=2700), "B": rated(2660, peak=2700), "X": rated(1950), "Y": rated(1950)}
    got = ratings("fide-2025", players, [("A", "X", "1-0"), ("B", "Y", "1/2-1/2")])
    assert (got["A"][0], got["B"][0]) == (2700, 2655)


@pytest.mark.parametrize("rules", ["fide-2024", "fide-2025"])
def test_a_change_of_a_half_rounds_away_from_zero(rules):
    """2400 and 2590 (both K 10, peaks 2400 or more) draw: |diff| 190 has the D offset 5.0, PD 0.25 and
    0.75. 10 x (0.5 - 0.25) = +2.5 -> +3 and 10 x (0.5 - 0.75) = -2.5 -> -3 (half up would give -2)."""
    got = ratings(rules, {"LOW": rated(2400), "HIGH": rated(2590)}, [("LOW", "HIGH", "1/2-1/2")])
    assert (got["LOW"][0], got["HIGH"][0]) == (2403, 2587)


def pending(month: str, games: int, opponents_total: int, points) -> dict:
    entry = {"month": month, "games": games, "opponents_total": opponents_total, "points": points}
    return {"rating": None, "type": "pending", "games": 0, "opponents_total": 0, "points": 0, "last_played": month} | {
        "pending": [entry]
    }


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_pending_month_counts_for_26_months_the_period_included(rules):
    """Period 2026-10: 2024-09 is 25 months back and counts: 4 games (6400, 2 points) and a draw with a 1600,
    5 games, T 8000, 2.5 points: Ra = 11600 / 7 = 1657.14, p 0.50: 1657. 2024-08 has expired: the draw alone
    is pending (and its event is kept: it scored)."""
    players = {"IN": pending("2024-09", 4, 6400, 2), "OUT": pending("2024-08", 4, 6400, 2)}
    want, _ = rate_both(
        month_file(
            rules, players | opponents(1600, 1600), [("IN", "R0-1600", "1/2-1/2"), ("OUT", "R1-1600", "1/2-1/2")]
        )
    )
    assert want["IN"]["rating"] == 1657
    assert (want["OUT"]["rating"], want["OUT"]["state"]["pending"]) == (None, [(PERIOD, 1, 1600, Fraction(1, 2))])


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_peak_floor_holds_a_player_at_1400_before_the_1400_test(rules):
    """With part 3's floors: 1409 loses at an equal rating, -10 -> 1399. A peak of 1650 gives the peak
    floor 1400 (1650 - 200 = 1450, down to the hundred), applied first: still rated at 1400. A peak of
    1409 gives 1200, which does not hold: unrated."""
    document = month_file(rules, {"HELD": rated(1409, peak=1650), "FELL": rated(1409), "W": rated(1409)}, [])
    document["games"] = month_file(rules, {}, [("W", "HELD", "1-0"), ("W", "FELL", "1-0")])["games"]
    document["rules"] = {"base": rules, "floors": True}
    got = {entry["id"]: entry for entry in json.loads(engine_file(document))["players"]}
    assert (got["HELD"]["rating"], got["HELD"]["floor"], got["HELD"]["state"]["peak"]) == (1400, 1400, 1650)
    assert (got["FELL"]["rating"], got["FELL"]["type"], got["FELL"]["state"]["type"]) == (None, "pending", "pending")


@pytest.mark.parametrize(
    ("wins", "first"),
    [
        # 38 games against 2000s: Ra = (76000 + 3600) / 40 = 1990. 8 wins: p = 9 / 40 = 0.225, half up
        # 0.23, dp -211: 1779 (0.22 would give 1770). 30 wins: p = 31 / 40 = 0.775 -> 0.78, dp 220: 2210,
        # capped at 2200; 29 wins: 30 / 40 = 0.75, dp 193: 2183.
        (8, 1779),
        (30, 2200),
        (29, 2183),
    ],
)
def test_a_first_ratings_score_rounds_half_up_to_two_decimals(wins, first):
    them = opponents(*(2000,) * 38)
    results = ["1-0"] * wins + ["0-1"] * (38 - wins)
    games = [("N", o, r) for o, r in zip(them, results, strict=True)]
    want, _ = rate_both(month_file("fide-2024", {"N": None} | them, games))
    assert want["N"]["rating"] == first
