"""The rating calculator: games typed in, rated by the engine as the next list would rate them."""

import pytest

from grading.models import LiveRating, PlayerRating
from tests.builders import elo_federation
from tests.public.test_elo_pages import text

pytestmark = pytest.mark.django_db


def calculate(client, games, **subject):
    """The calculator's page for ``games`` [(opponent, result)], by the address a person could
    write: the formset's counts left out."""
    query = {"list": "otb-standard", **subject}
    for row, (opponent, result) in enumerate(games):
        query[f"o-{row}-opponent"], query[f"o-{row}-result"] = opponent, result
    return client.get("/calculator/", query)


def test_an_empty_calculator_offers_six_opponent_rows(client, federation):
    response = client.get("/calculator/")

    assert response.status_code == 200
    assert response.content.decode().count('class="opponent-row"') == 7  # six, and the template
    assert "trial" not in response.context


def test_a_fully_rated_player_by_code_gets_the_k_rating_the_next_list_would_give(client, federation):
    page = text(calculate(client, [("1900", "1"), ("1850", "0.5"), ("1850", "0.5")], player="200002b"))

    # David: 1848 Full since the 2026-09 list; the latest list is 2026-10, so the trial is
    # November's. K 20, Q 20 (Full opponents):
    # beats 1900: D = 52, D offset +1.4, (1.4 + 10) x 20 / 20 = +11.4; draws two 1850s: D = 2,
    # offset 0, 0 each. 1848 + 11.4 = 1859.4, rounded 1859.
    assert "New rating: 1859 (full)" in page
    assert "Change +11 from 1848" in page
    assert "Rating: 1848 + 11.40 = 1859.40, rounded: 1859" in page
    # Performance: Ra = 5600 / 3 = 1866.67, p = 2 / 3 = 0.67 -> dp +125: 1991.67, rounded 1992;
    # the algorithm of 400: (5600 + 400 x (1 - 0)) / 3 = 2000.
    assert "1992 (FIDE: average opponent + dp); 2000 by the algorithm of 400" in page
    assert "The OTB standard rating of Fletcher, David after these games" in page
    assert "Prior rating 1848 (2026-09, last played 2026-09)" in page


def test_a_new_junior_typed_in_gets_a_p_rating_with_the_dummy_of_their_age(client, federation):
    page = text(calculate(client, [("1600", "1"), ("1700", "0")], age="15"))

    # Dummy 100 x 15 = 1500. G = 2 + 1 = 3, T = 1600 + 1700 + 1500 = 4800, S = 1 + 0.5 = 1.5:
    # p = 0.50, dp 0, 4800 / 3 = 1600 in both passes (the opponents are Full). Partial: 2 games.
    assert "New rating: 1600P (partial)" in page
    assert "Dummy rating 1500" in page
    assert "T = 0 earlier + 3300 this month + 1500 dummy = 4800" in page


def test_an_opponent_by_code_counts_at_their_published_rating(client, federation):
    page = text(calculate(client, [("200003C", "0")], rating="1800"))

    # Grace: 1695 on the (revised) 2026-09 list. A 1800 loses: D = -105, offset -2.8, S -10:
    # (-2.8 - 10) x 20 / 20 = -12.8; 1800 - 12.8 = 1787.2, rounded 1787.
    assert "New rating: 1787 (full)" in page
    assert "Dunn, Grace White 0 1695" in page  # the colour the player had


def test_the_elo_method_follows_the_lists_rule_set(client):
    elo_federation()

    rated = text(calculate(client, [("1900", "1")], player="111111A"))
    typed = text(calculate(client, [("2100", "1"), ("1900", "0.5")], rating="2000"))
    first = text(calculate(client, [("1800", "1"), ("1800", "0"), ("1800", "0.5"), ("1800", "0.5"), ("1800", "0.5")]))

    # A: 1500, 50 games, an adult: K 20. Beats a 1900: difference -400, PD 0.08, 20 x 0.92 = +18.4.
    assert "New rating: 1518" in rated
    assert "K is 20: the K of every player no other rule applies to." in rated
    # 2000 typed in (30 games or more): PD 0.36 against 2100, 0.64 against 1900: 1.00 expected,
    # 1.5 scored: 20 x 0.5 = +10.
    assert "New rating: 2010" in typed
    # No rating: five games against 1800s, 2.5 points, exactly 50%: a first rating of Ra, 1800.
    assert "New rating: 1800 (a first rating)" in first


def test_nothing_the_calculator_works_out_is_stored(client, federation):
    ratings, live = PlayerRating.objects.count(), LiveRating.objects.count()

    calculate(client, [("1900", "1")], player="200002B")

    assert (PlayerRating.objects.count(), LiveRating.objects.count()) == (ratings, live)


@pytest.mark.parametrize(
    ("subject", "games", "field", "message"),
    [
        ({"player": "999999Z"}, [("1900", "1")], "player", "No player has the code 999999Z."),
        ({"player": "<b>x</b>"}, [("1900", "1")], "player", "No player has the code <b>x</b>."),
        ({"player": "200002B", "rating": "1700"}, [("1900", "1")], "rating", "Leave this empty"),
        ({"rating": "50"}, [("1900", "1")], "rating", "No rating on this list is under 100."),
        ({"rating": "1500", "type": "partial"}, [("1900", "1")], "games", "A Partial rating stands on 1 to 9 games"),
        ({"rating": "abc"}, [("1900", "1")], "rating", "Enter a whole number."),
        # A list that does not exist is not written back (an address may carry any text).
        ({"list": "nope"}, [("1900", "1")], "list", "Select a valid choice. That choice is not one of the available"),
        ({}, [("19OO", "1")], "opponent", "Give a federation code (e.g. 123456A) or a rating (e.g. 1850), not “19OO”."),
        ({}, [("1900", "")], "result", "Choose the result."),
        ({}, [("1900", "2")], "result", "Select a valid choice."),
        ({}, [("", "1")], "opponent", "Give the opponent's code or rating."),
    ],
)
def test_bad_input_is_named_beside_its_field(client, federation, subject, games, field, message):
    response = calculate(client, games, **subject)

    assert response.status_code == 200
    form, rows = response.context["form"], response.context["opponents"]
    errors = form.errors.get(field, []) + [error for row in rows.errors for error in row.get(field, [])]
    assert any(message in error for error in errors), errors
    assert "trial" not in response.context


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"player": "200002B"}, "Give at least one opponent and the result of the game."),
        ({"player": "200002B", "o-0-opponent": "200002B", "o-0-result": "1"}, "cannot be their own opponent"),
        ({"rating": "1800", "o-TOTAL_FORMS": "1000000000", "o-INITIAL_FORMS": "0"}, "At most 60 opponents."),
        ({"rating": "1800", "o-TOTAL_FORMS": "x", "o-INITIAL_FORMS": "0"}, "row count (o-TOTAL_FORMS)"),
    ],
)
def test_bad_sets_of_games_are_named_above_the_games(client, federation, query, message):
    response = client.get("/calculator/", {"list": "otb-standard", **query})

    assert response.status_code == 200
    assert any(message in error for error in response.context["opponents"].non_form_errors())
    assert "trial" not in response.context


def test_more_opponents_without_javascript_adds_four_rows_and_keeps_what_was_typed(client, federation):
    query = {"list": "otb-standard", "rating": "1800", "o-TOTAL_FORMS": "2", "o-INITIAL_FORMS": "0"}
    query |= {"o-0-opponent": "1900", "o-0-result": "1", "more": "1"}

    response = client.get("/calculator/", query)

    assert len(response.context["opponents"].forms) == 6
    assert 'value="1900"' in response.content.decode()
    assert "trial" not in response.context


def test_the_api_answers_with_the_same_numbers_and_each_game_line(client, federation):
    response = client.get(
        "/api/v1/calculator/",
        {"list": "otb-standard", "player": "200002B", "opponent": ["1900:1", "1850:0.5", "200003C:0.5"]},
    )

    body = response.json()
    # As on the page: +11.4 against the 1900, 0 against the 1850 (D = 2); against Grace (1695):
    # D = -153, offset -4.0, a draw: -4.0. 1848 + 7.4 = 1855.4, rounded 1855.
    assert (body["period"], body["method"], body["rating"]["rating"], body["change"]) == ("2026-11", "ecf", 1855, 7)
    assert body["rating"]["k_factor"] == 20 and body["stored"] is False
    assert [line["increment"] for line in body["game_lines"]] == [11.4, 0, -4]
    assert body["game_lines"][2]["opponent"] == {"code": "200003C", "name": "Dunn, Grace"}
    assert body["game_lines"][0]["opponent"]["code"] is None
    # Ra = (1900 + 1850 + 1695) / 3 = 1815, p = 2 / 3 -> 0.67, dp +125: 1940; (5445 + 400) / 3 = 1948.33.
    assert body["performance"] == {"fide": 1940, "algorithm_of_400": 1948}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"opponent": "1900"}, "opponent 1 must be CODE_OR_RATING:RESULT"),
        ({"opponent": "1900:2"}, "opponent 1 (result): Select a valid choice."),
        ({"opponent": "999999A:1"}, "opponent 1 (code or rating): No player has the code 999999A."),
        ({"opponent": ["1900:1"] * 61}, "At most 60 opponents, not 61."),
        ({}, "opponent: Give at least one opponent"),
        ({"list": "", "opponent": "1900:1"}, "list: This field is required."),
        ({"age": "-3", "opponent": "1900:1"}, "age: Ensure this value is greater than or equal to 4."),
    ],
)
def test_the_apis_bad_input_is_a_400_that_names_the_parameter(client, federation, query, message):
    response = client.get("/api/v1/calculator/", {"list": "otb-standard", **query})

    assert response.status_code == 400
    assert message in response.json()["error"]
