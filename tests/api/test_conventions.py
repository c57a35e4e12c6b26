"""The API's conventions, endpoint by endpoint: the fields each one gives (pinned, so that a change
is a decision, not an accident), redirects for merged players and missing slashes, JSON 405s."""

import pytest

from players.models import Player
from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db

PLAYER = {"code", "name", "surname", "forenames", "sex", "fide_id", "fide_title", "age_band", "birth_year", "club"}
PLAYER |= {"url", "page"}
LIST_LINE = {"code", "name", "title", "rating", "type", "category", "games", "last_played", "club", "age", "url"}
PAGE = {"count", "next", "previous", "results"}
RATING = {
    "list",
    "period",
    "rating",
    "type",
    "category",
    "method",
    "games",
    "opponents_total",
    "points",
    "last_played",
    "prior_rating",
    "dummy_rating",
    "pass1",
    "pass2",
    "k_factor",
    "k_rule",
    "peak",
    "pending",
    "adjustment",
    "calculation",
}
GAME_LINE = {
    "colour",
    "opponent",
    "score",
    "opponent_rating",
    "opponent_type",
    "pass1_opponent_rating",
    "increment",
    "counted",
    "expected",
}
EVENT = {
    "code",
    "name",
    "kind",
    "list",
    "start_date",
    "end_date",
    "time_control",
    "online",
    "organiser",
    "status",
    "url",
}

# Each endpoint: its body's fields, and those of its first result (None: not a page).
ENDPOINTS = {
    "/": ({"players", "lists", "clubs", "events", "documentation", "openapi"}, None),
    "/players/?q=fletcher": (PAGE, PLAYER),
    "/players/200002B/": (PLAYER | {"ratings_url", "games_url", "ratings", "live"}, None),
    "/players/200002B/ratings/": (PAGE | {"player"}, RATING | {"published_at"}),
    "/players/200002B/games/": (PAGE | {"player"}, GAME_LINE | {"list", "period", "date", "event", "round", "board"}),
    "/lists/": (PAGE, {"code", "name", "online", "standard_play", "band", "latest_period", "periods"}),
    "/lists/otb-standard/": (
        PAGE | {"list", "period", "revision", "edition", "edition_url", "rule_set", "method"},
        LIST_LINE,
    ),
    "/lists/otb-standard/live/": (
        PAGE | {"list", "provisional", "computed_at", "based_on_period", "months", "games", "rule_set", "method"},
        LIST_LINE | {"published_rating", "change", "new_games", "provisional"},
    ),
    "/clubs/": (PAGE, {"code", "name", "county", "players", "url"}),
    "/clubs/NQC/": (PAGE | {"club"}, PLAYER),
    "/events/": (PAGE, EVENT),
    "/events/NQ2609/": (EVENT | {"entries", "games", "games_counted"}, None),
    "/calculator/?list=otb-standard&player=200002B&opponent=1900:1": (
        {
            "list",
            "period",
            "rule_set",
            "method",
            "player",
            "prior_rating",
            "rating",
            "change",
            "score",
            "games",
            "performance",
            "game_lines",
            "stored",
        },
        None,
    ),
}


@pytest.mark.parametrize("path", list(ENDPOINTS))
def test_every_endpoint_gives_the_fields_it_is_documented_with(api, path):
    body_fields, result_fields = ENDPOINTS[path]

    response = api.get("/api/v1" + path)

    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == body_fields
    if result_fields is not None:
        assert body["results"], "a page with no result pins nothing"
        assert set(body["results"][0]) == result_fields


def test_list_lines_carry_the_title_and_the_players_address(api):
    Player.objects.filter(code="200002B").update(fide_title="FM")

    first = api.get("/api/v1/lists/otb-standard/").json()["results"][0]

    assert (first["code"], first["title"]) == ("200002B", "FM")
    assert first["url"] == "http://testserver/api/v1/players/200002B/"
    assert api.get(first["url"]).status_code == 200


def test_a_merged_players_addresses_redirect_to_the_record_kept(api, federation):
    duplicate = PlayerFactory(code="200021A", surname="Fletcher", forenames="D.", merged_into=federation.david)

    player = api.get(f"/api/v1/players/{duplicate.code.lower()}/")
    games = api.get(f"/api/v1/players/{duplicate.code}/games/?list=otb-standard")

    assert (player.status_code, player["Location"]) == (302, "/api/v1/players/200002B/")
    assert (games.status_code, games["Location"]) == (302, "/api/v1/players/200002B/games/?list=otb-standard")
    assert player["Access-Control-Allow-Origin"] == "*"


def test_an_address_without_its_trailing_slash_redirects_and_an_unknown_one_is_a_json_404(api):
    moved = api.get("/api/v1/players/200002B?x=1")
    unknown = api.get("/api/v1/nothing-here")

    assert (moved.status_code, moved["Location"]) == (301, "/api/v1/players/200002B/?x=1")
    assert unknown.status_code == 404 and "No API resource at /api/v1/nothing-here" in unknown.json()["error"]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_unsafe_methods_get_a_json_405(api, method):
    response = getattr(api, method)("/api/v1/lists/")

    assert response.status_code == 405
    assert response.json() == {"error": "This resource is read only: use GET.", "status": 405}
    assert response["Allow"] == "GET, HEAD"
