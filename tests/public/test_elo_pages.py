"""What the public pages and the API show of a list rated by the Elo method: every number is
the engine's (tests.builders.elo_federation, October 2026 rated by fide-2017)."""

import datetime
import json
import re

import pytest

from grading.live.computing import compute_live
from grading.models import RatingList
from tests.builders import (
    PlayerFactory,
    approved_event,
    elo_federation,
    elo_october,
    rating_list,
    succeeded,
    take_on,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def october(rate):
    elo_federation()
    elo_october()
    succeeded(rate("otb-standard", "2026-10"))


def text(response) -> str:
    """The page's text as read: inline markup dropped, cells and blocks apart."""
    assert response.status_code == 200
    inline = re.sub(r"</?(strong|a|span|abbr|em)\b[^>]*>", "", response.content.decode())
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inline))


def test_a_rated_players_calculation_shows_k_and_its_rule_each_expected_score_and_the_change(client, october):
    page = text(client.get("/players/111111A/otb-standard/2026-10/"))

    # A (1500, 50 games before, peak 1500): K 20, the base rule. Beats B (1900): diff -400, PD
    # 0.08, 20 x 0.92 = 18.4; C unrated and D Partial before October: not counted.
    assert "New rating: 1518" in page
    assert "K is 20: the K of every player no other rule applies to." in page
    assert "-400 0.08 18.4" in page
    assert page.count("no: the opponent was unrated") == 2
    assert "Expected: ΣPD over 1 counted game = 0.08; scored W = 1.0; W − ΣPD = +0.92" in page
    assert "Change: 20 × (+0.92) = +18.40, rounded half up: +18" in page
    assert "Rating: 1500 + 18 = 1518" in page


def test_a_first_rating_shows_the_games_of_earlier_months_the_average_and_the_dp(client, october):
    page = text(client.get("/players/444444D/otb-standard/2026-10/"))

    # D's Partial record became a pending month (5 games, 6000, 2.5); the loss to A adds one:
    # G 6, T 7500, S 2.5: Ra 1250, p = 2.5 / 6 = 0.4167 -> 0.42 -> dp -57: 1193.
    assert "New rating: 1193 (a first rating)" in page
    assert "G = 5 from earlier months + 1 this month = 6" in page
    assert "T = 7500, on average Ra = T / G = 1250.00" in page
    assert "p = S / G = 0.4167, rounded to 0.42, which the performance table turns into dp = -57" in page
    assert "Rating: 1250.00 − 57 = 1193.00, rounded half up: 1193" in page


def test_a_pending_player_sees_how_far_they_are_from_a_first_rating(client, october):
    calculation = text(client.get("/players/333333C/otb-standard/2026-10/"))
    player = text(client.get("/players/333333C/"))

    # One draw with A (1500): 1 of 5 games. October's games count for 26 months: until 2028-11.
    assert "No rating yet: 1 of the 5 games a first rating needs" in calculation
    assert "The games of 2026-10, the oldest month, count until 2028-11." in calculation
    assert (
        "none yet pending 1 of 5 games against rated opponents, 0.5 points; the games of 2026-10 count until 2028-11"
    ) in player


def test_an_ecf_rating_below_the_elo_floor_is_not_on_the_elo_list(client, october):
    page = text(client.get("/players/555555E/"))
    listed = text(client.get("/lists/otb-standard/"))

    assert "not on the 2026-10 list (a rating the Elo method does not count: under 1000, or Partial)" in page
    assert "by the Elo method (rule set fide-2017)" in listed and "Rating type" not in listed
    september = text(client.get("/lists/otb-standard/2026-09/"))
    assert "by the ECF three-pass method (rule set ecf-2024)" in september and "Rating type" in september
    assert "rated (Elo)" in listed and "rated (Elo)" not in september
    assert [code in listed for code in ("111111A", "222222B", "444444D", "333333C", "555555E")] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_the_api_gives_the_elo_fields(client, october):
    pending = json.loads(client.get("/api/v1/players/333333C/ratings/").content)["results"][0]
    rated = json.loads(client.get("/api/v1/players/111111A/ratings/", {"period": "2026-10"}).content)["results"][0]
    games = json.loads(client.get("/api/v1/players/111111A/games/", {"period": "2026-10"}).content)["results"]
    lists = json.loads(client.get("/api/v1/lists/").content)["results"]

    assert (pending["rating"], pending["type"], pending["category"], pending["method"]) == (
        None,
        "pending",
        "unrated",
        "first",
    )
    assert pending["pending"] == [{"month": "2026-10", "games": 1, "opponents_total": 1500, "points": 0.5}]
    assert (rated["rating"], rated["k_factor"], rated["k_rule"], rated["peak"]) == (1518, 20, "base", 1518)
    assert [(g["opponent_rating"], g["counted"], g["expected"], g["increment"]) for g in games] == [
        (1900, "counted", 0.08, 18.4),
        (None, "not counted", None, None),
        (None, "not counted", None, None),
    ]
    standard = next(item for item in lists if item["code"] == "otb-standard")
    assert [(p["period"], p["rule_set"], p["method"]) for p in standard["periods"]] == [
        ("2026-10", "fide-2017", "elo"),
        ("2026-09", "ecf-2024", "ecf"),
    ]


def category_choices(client, url) -> list[str]:
    page = client.get(url).content.decode()
    menu = page.split('name="category"', 1)[1].split("</select>", 1)[0]
    return re.findall(r'<option value="([^"]*)"', menu)


def test_a_list_always_rated_by_elo_offers_only_the_elo_categories_and_no_rating_type(client, db):
    blitz = RatingList.objects.create(code="otb-blitz", name="OTB blitz", rule_set="fide-2017-rapid", max_minutes=10)
    PlayerFactory(code="111111A")
    PlayerFactory(code="222222B")
    take_on("otb-blitz", "2026-09", "111111A,1500,full,50,75000,25,2026-09")
    day = datetime.date(2026, 10, 10)
    approved_event("BLITZ", "otb-blitz", day, [("111111A", "222222B", "1-0")], time_control="3 min + 2 s/move")
    compute_live(blitz, today=day)

    # A taken-on rating is "imported" on any list until the list rates the player.
    for url in ["/lists/otb-blitz/", "/lists/otb-blitz/2026-09/", "/lists/otb-blitz/live/"]:
        assert category_choices(client, url) == ["", "imported", "rated", "unrated"], url
        assert 'name="type"' not in client.get(url).content.decode(), url


def test_a_list_that_changed_to_elo_offers_both_methods_categories_from_the_change_on(client, october):
    ecf = ["", "full", "partial", "new", "imported"]
    day = datetime.date(2026, 11, 10)
    approved_event("NOV", "otb-standard", day, [("111111A", "222222B", "1-0")])
    compute_live(rating_list("otb-standard"), today=day)

    assert category_choices(client, "/lists/otb-standard/2026-09/") == ecf
    assert category_choices(client, "/lists/otb-standard/2026-10/") == [*ecf, "rated", "unrated"]
    assert category_choices(client, "/lists/otb-standard/live/") == [*ecf, "rated", "unrated"]
