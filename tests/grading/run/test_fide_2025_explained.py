"""What a list on fide-2025 did, explained wherever the Elo method is: the calculation page of a
published rating, the live rating's, the calculator's answer and the API's, each from the engine's
arithmetic. The list and its October games are tests/grading/run/fide_2025.py's."""

import datetime
import html
import re

import pytest
from django.urls import reverse
from jsonschema import Draft202012Validator

from grading.live.computing import compute_live
from tests.builders import approved_event, rating_list, succeeded
from tests.grading.run.fide_2025 import OCTOBER, october_games, one_game_a_day, set_up_fide_2025_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def fide_2025_list():
    set_up_fide_2025_list()


@pytest.fixture
def october(fide_2025_list, rate):
    one_game_a_day(approved_event("OCT", "otb-standard", OCTOBER, october_games()))
    succeeded(rate("otb-standard", "2026-10"))


@pytest.fixture
def live_october(fide_2025_list):
    """October's games approved, not yet published: the live ratings of October."""
    one_game_a_day(approved_event("OCT", "otb-standard", OCTOBER, october_games()))
    compute_live(rating_list("otb-standard"), today=datetime.date(2026, 11, 21))


def text(response) -> str:
    """The page's text as read: inline markup dropped, blocks apart, entities unescaped, white space one space."""
    assert response.status_code == 200
    inline = re.sub(r"</?(strong|a|span|abbr|em)\b[^>]*>", "", response.content.decode())
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inline)))


def published(client, code) -> str:
    return text(client.get(reverse("rating-calculation", args=[code, "otb-standard", "2026-10"])))


def live(client, code) -> str:
    return text(client.get(reverse("live-calculation", args=[code, "otb-standard", "2026-10"])))


def calculator(client, code, *games) -> str:
    query = {"list": "otb-standard", "player": code}
    for row, (opponent, result) in enumerate(games):
        query[f"o-{row}-opponent"], query[f"o-{row}-result"] = opponent, result
    return text(client.get(reverse("calculator"), query))


# F2, 1409, loses to an equal at K 20: 20 x (0 - 0.50) = -10 -> 1399, under 1400: unrated.
FELL = [
    "No rating from 2026-10: the month's games gave 1399, under 1400, the lowest rating; unrated, "
    "highest rating 1409 kept",
    "Change: 20 × (-0.50) = -10.00, rounded half away from zero: -10",
    "Rating: 1409 − 10 = 1399, under 1400, the lowest rating under fide-2025: the player is unrated from 2026-10; "
    "their highest rating, 1409, is kept, and they start again as any unrated player, towards a first rating from "
    "5 games against rated opponents.",
]
# T1, 2650 (K 10), beats a 2150: 500 whole, PD 0.96, 10 x 0.04 = 0.4 -> 0: 2650.
UNCAPPED = [
    "500, counted whole 0.96 0.4",
    "Under fide-2025 the 400-point rule does not hold for this player, rated 2650, 2650 or more: each game's "
    "difference counts whole, and past 400 PD is read from FIDE's table (a difference of 500: PD 0.96).",
    "Rating: 2650 + 0 = 2650",
]
# Its opponent, 2150 (K 20): -500 counted as -400, PD 0.08, 20 x -0.08 = -1.6 -> -2: 2148.
CAPPED = [
    "-500, counted as -400 0.08 -1.6",
    "1 game counted at 400 (the 400-point rule): under fide-2025 only a player rated 2650 or more counts a larger "
    "difference whole, and this player's 2150 is under 2650. An opponent rated 2650 or more counts the same game "
    "whole, so the two sides' PD may add up to more than 1.",
    "Rating: 2150 − 2 = 2148",
]
# H2, 2400 (K 10), loses to a 2593: diff -193, PD 0.25, 10 x -0.25 = -2.5: -3 (half up: -2).
HALF_AWAY = [
    "Change: 10 × (-0.25) = -2.50, rounded half away from zero: -3 (halves away from zero under FIDE's 2024 "
    "rules: half up would give -2)",
    "Rating: 2400 − 3 = 2397",
]
# N3: five wins against 2300s. Ra = (11500 + 2 x 1800) / 7 = 2157.14, p = 6 / 7 = 0.8571 -> 0.86,
# dp 309: 2466.14, 2466, capped at 2200.
FIRST = [
    "with 2 imaginary games against opponents rated 1800, both drawn (FIDE's rules from 2024), "
    "Ra = (T + 2 × 1800) / (G + 2) = 2157.14",
    "p = (S + 2 × ½) / (G + 2) = 0.8571, rounded to 0.86, which the performance table turns into dp = 309",
    "2157.14 + 309 = 2466.14, rounded half up: 2466, more than a first rating may be: 2200, the cap",
]
# J1, born 2008, 18 in 2026, beats an 1800: K 40, 40 x 0.50 = +20.
JUNIOR = ["K is 40: a junior (until the end of the year they turn 18) rated under 2300."]
EXPLAINED = {
    "100002A": FELL,
    "100009A": UNCAPPED,
    "100011A": CAPPED,
    "100015A": HALF_AWAY,
    "200003A": FIRST,
    "100005A": JUNIOR,
}


@pytest.mark.parametrize("code", EXPLAINED)
def test_the_calculation_page_shows_what_fide_2025_did(client, october, code):
    page = published(client, code)

    for shown in EXPLAINED[code]:
        assert shown in page, shown


@pytest.mark.parametrize("code", EXPLAINED)
def test_the_live_ratings_explanation_shows_the_same(client, live_october, code):
    page = live(client, code)

    assert "Provisional." in page
    for shown in EXPLAINED[code]:
        assert shown in page, shown


def test_a_change_of_plus_2_5_needs_no_word_on_halves(client, october):
    # H1, 2400 (K 10), beats a 2207: diff 193, PD 0.75, 10 x 0.25 = +2.5 -> +3 either way.
    page = published(client, "100013A")

    assert "Change: 10 × (+0.25) = +2.50, rounded half away from zero: +3 Rating: 2400 + 3 = 2403" in page
    assert "half up would give" not in page


def test_the_2649_keeps_the_400_point_rule_and_is_told_why(client, october):
    # 2649 beats a 2149: 500 counted as 400, PD 0.92, 10 x 0.08 = 0.8 -> +1: 2650.
    page = published(client, "100010A")

    assert "500, counted as 400 0.92 0.8" in page
    assert "this player's 2649 is under 2650" in page


@pytest.mark.parametrize(
    ("code", "games", "shown"),
    [
        ("100002A", [("100004A", "0")], FELL),
        ("100009A", [("100011A", "1")], UNCAPPED),
        ("100011A", [("100009A", "0")], CAPPED),
        ("100015A", [("100016A", "0")], HALF_AWAY),
        ("200003A", [(f"1003{n:02d}A", "1") for n in range(5)], FIRST),
        ("100005A", [("100007A", "1")], JUNIOR),
    ],
)
def test_the_calculator_shows_the_same_for_the_same_games(client, fide_2025_list, code, games, shown):
    page = calculator(client, code, *games)

    assert "as the 2026-10 list would rate these games" in page
    for line in shown:
        assert line in page, line


def test_the_calculator_gives_the_fall_under_1400_as_a_change_of_minus_10(client, fide_2025_list):
    page = calculator(client, "100002A", ("100004A", "0"))

    assert "Change -10 from 1409" in page


def test_after_the_fall_the_calculator_starts_the_player_again_as_any_unrated_player(client, october):
    # F2 is unrated after October, their peak kept: a loss in November is their first event
    # without a point, left aside (docs/rules.md section 12, step 1).
    page = calculator(client, "100002A", ("100004A", "0"))

    assert "as the 2026-11 list would rate these games" in page
    assert "No rating yet: none of the month's games counts towards a first rating (the games below say why)" in page
    assert "Prior rating none: unrated from 2026-10, under the lowest rating" in page
    assert "Highest rating 1409" in page and "no: the first event without a point" in page


def ratings_row(client, code) -> dict:
    response = client.get(f"/api/v1/players/{code}/ratings/", {"list": "otb-standard", "period": "2026-10"})
    valid(client, "/players/{code}/ratings/", response.json())
    (row,) = response.json()["results"]
    return row


def valid(client, path, body):
    """``body`` is an answer of the API's own description of ``path``."""
    document = client.get("/api/v1/openapi.json").json()
    schema = document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**schema, "components": document["components"]})
    assert not [error.message for error in validator.iter_errors(body)]


def test_the_api_gives_each_ratings_calculation_with_what_fide_2025_did(client, october):
    fell = ratings_row(client, "100002A")
    assert (fell["rating"], fell["type"], fell["peak"]) == (None, "pending", 1409)
    assert fell["calculation"]["below_floor"] == {
        "rating": 1399,
        "lowest": 1400,
        "unrated_from": "2026-10",
        "peak_kept": 1409,
    }
    assert (fell["calculation"]["change"], fell["calculation"]["rounded"], fell["calculation"]["rating"]) == (
        -10,
        -10,
        1399,
    )

    top = ratings_row(client, "100009A")["calculation"]
    assert (top["uncapped"], top["uncapped_from"], top["largest_difference"], top["below_floor"]) == (
        True,
        2650,
        400,
        None,
    )
    assert top["games"] == [
        {"difference": 500, "difference_used": 500, "counted_whole": True, "expected": 0.96, "increment": 0.4}
    ]
    capped = ratings_row(client, "100011A")["calculation"]
    assert not capped["uncapped"]
    assert capped["games"] == [
        {"difference": -500, "difference_used": -400, "counted_whole": False, "expected": 0.08, "increment": -1.6}
    ]

    halves = ratings_row(client, "100015A")["calculation"]
    assert (halves["change"], halves["rounding"], halves["rounded"], halves["rounded_half_up"]) == (
        -2.5,
        "half away from zero",
        -3,
        -2,
    )

    first = ratings_row(client, "200003A")["calculation"]
    assert first == {
        "games": 5,
        "opponents_total": 11500,
        "points": 5,
        "imaginary_games": 2,
        "imaginary_rating": 1800,
        "average": 2157.14,
        "p": 0.8571,
        "p_rounded": 0.86,
        "bonus": 309,
        "rounded": 2466,
        "cap": 2200,
        "capped": True,
        "rating": 2200,
        "reached": True,
    }


def test_the_api_calculator_gives_the_fall_under_1400(client, fide_2025_list):
    response = client.get("/api/v1/calculator/", {"list": "otb-standard", "player": "100002A", "opponent": "100004A:0"})

    body = response.json()
    valid(client, "/calculator/", body)
    assert (body["rule_set"], body["period"], body["change"]) == ("fide-2025", "2026-10", -10)
    assert (body["rating"]["rating"], body["rating"]["type"]) == (None, "pending")
    assert body["rating"]["calculation"]["below_floor"]["rating"] == 1399


# P, 2700 (K 10, no 400-point rule under fide-2025), in October: beats a 2200 (diff 500 whole,
# PD 0.96, +0.4), draws a 2650 (diff 50, PD 0.57, -0.7), loses to a 2500 (diff 200, PD 0.76,
# -7.6). 10 x (1.5 - 2.29) = -7.9, -8: 2692.
P_GAMES = [("100019A", "1"), ("100022A", "0.5"), ("100021A", "0")]
P_EVENT = [("100018A", "100019A", "1-0"), ("100022A", "100018A", "1/2-1/2"), ("100021A", "100018A", "1-0")]
GAME_ROW = re.compile(r"(-?\d+)(?:, counted (?:whole|as -?\d+))? (\d\.\d\d) (-?\d+(?:\.\d+)?) ")


def page_numbers(page: str) -> tuple:
    """(rating, change, K, [PD per game]) as a calculation page (or the calculator) writes them."""
    rating = int(re.search(r"New rating: (\d+)", page).group(1))
    change = re.search(r"Rating: 2700 ([−+]) (\d+) = \d+", page)
    k = int(re.search(r"K is (\d+):", page).group(1))
    expected = [float(pd) for _, pd, _ in GAME_ROW.findall(page[page.index("Games") : page.index("The arithmetic")])]
    return rating, int(change.group(2)) * (-1 if change.group(1) == "−" else 1), k, expected


def test_the_calculation_page_the_api_and_the_calculator_agree_on_a_2700s_month(client, fide_2025_list, rate):
    asked = calculator(client, "100018A", *P_GAMES)
    answer = client.get(
        "/api/v1/calculator/",
        {"list": "otb-standard", "player": "100018A", "opponent": [f"{o}:{r}" for o, r in P_GAMES]},
    ).json()
    one_game_a_day(approved_event("TOP", "otb-standard", OCTOBER, P_EVENT))
    succeeded(rate("otb-standard", "2026-10"))

    page = published(client, "100018A")
    row = ratings_row(client, "100018A")

    expected = (2692, -8, 10, [0.96, 0.57, 0.76])
    assert page_numbers(page) == expected
    assert page_numbers(asked) == expected
    assert "Change -8 from 2700" in asked
    for body, change in [(row, row["rating"] - row["prior_rating"]), (answer["rating"], answer["change"])]:
        calculation = body["calculation"]
        pds = [game["expected"] for game in calculation["games"]]
        assert (body["rating"], change, calculation["k"], pds) == expected
        assert (calculation["rounded"], int(float(body["k_factor"]))) == (-8, 10)
        assert [game["counted_whole"] for game in calculation["games"]] == [True, False, False]


CONDITIONS = (
    "The conditions of fide-2025: the time limit game by game, by the two players' ratings, hours a day, length, "
    "round robins and matches (the federation's rules, parts 4 and 5) (what each means)."
)


def test_a_game_short_of_its_time_limit_is_explained_on_the_event_and_calculation_pages(client, fide_2025_list, rate):
    # 59 min + 30 s a move: 59 + 60 x 30 s = 89 minutes for 60 moves. An 1800 against a 1409 needs
    # 90: not rated. The 1800's draw with an 1800 at 60 + 30 (90 minutes) is rated: 1800 + 0.
    approved_event("E89", "otb-standard", OCTOBER, [("100007A", "100004A", "1-0")], time_control="59 min + 30 s/move")
    approved_event(
        "E90", "otb-standard", OCTOBER, [("100007A", "100008A", "1/2-1/2")], time_control="60 min + 30 s/move"
    )
    succeeded(rate("otb-standard", "2026-10"))

    event = client.get("/events/E89/")
    calculation = published(client, "100007A")

    reason = "the time control gives 89 minutes for 60 moves; a game with a player rated 1800 or more needs 90"
    assert CONDITIONS in text(event) and 'href="/help/#not-rated"' in event.content.decode()
    assert f"Not rated: {reason}." in text(event)
    assert CONDITIONS in calculation and f"Not rated: {reason}" in calculation


def test_the_api_docs_describe_the_calculation_and_the_reasons_of_fide_2024(client, db):
    docs = text(client.get("/api/"))

    for field in ("below_floor", "rounded_half_up", "uncapped_from", "counted_whole", "imaginary_games", "capped"):
        assert field in docs, field
    assert "half away from zero" in docs and "a change of −2.5: −3 and −2" in docs
    assert '"not rated: 600 points apart above 2600 (…)"' in docs and "Games an Elo list does not rate" in docs
