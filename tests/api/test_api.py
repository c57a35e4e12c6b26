import datetime

import pytest
from django.utils import timezone

from events.models import EventChange
from players.ages import age_shown
from players.privacy import privacy_setting
from tests.builders import EventFactory

pytestmark = pytest.mark.django_db

API = "/api/v1"


def get(client, path, status=200, **query):
    response = client.get(API + path, query)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    return response.json()


def test_the_api_lists_its_resources_and_is_documented(client, db):
    assert get(client, "/") == {
        "players": "http://testserver/api/v1/players/?q={name or code}",  # a bare /players/ asks for q
        **{name: f"http://testserver/api/v1/{name}/" for name in ("lists", "clubs", "events")},
        "documentation": "http://testserver/api/",
        "openapi": "http://testserver/api/v1/openapi.json",
    }
    docs = client.get("/api/").content.decode().replace("<wbr>", "")  # the paths break at their slashes on a phone
    assert "/api/v1/players/CODE/games/" in docs and "{&quot;count&quot;" not in docs and '{"count"' in docs


def test_players_are_found_by_name_with_the_usual_pagination(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):  # with the privacy setting
        first = get(client, "/players/", q="fletcher", page_size=1)
    second = client.get(first["next"]).json()

    assert first["count"] == 2 and first["previous"] is None
    assert first["next"] == "http://testserver/api/v1/players/?q=fletcher&page_size=1&page=2"
    assert first["results"][0] == {
        "code": "200001A",
        "name": "Fletcher, Alice",
        "surname": "Fletcher",
        "forenames": "Alice",
        "sex": "F",
        "fide_id": None,
        "fide_title": None,
        # A junior: her age group today (U12 until she is 12), never a year of birth.
        "age_band": age_shown(federation.alice, datetime.date.today(), privacy_setting()).band,
        "birth_year": None,
        "club": {"code": "NQC", "name": "Northquay", "county": "Northshire"},
        "url": "http://testserver/api/v1/players/200001A/",
        "page": "http://testserver/players/200001A/",
    }
    assert second["results"][0]["code"] == "200002B" and second["next"] is None
    assert second["previous"] == "http://testserver/api/v1/players/?q=fletcher&page_size=1&page=1"


def test_a_player_by_code_has_their_current_ratings(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):  # with the privacy setting
        alice = get(client, "/players/200001a/")

    assert alice["name"] == "Fletcher, Alice"
    assert "birth_date" not in alice
    assert alice["ratings"] == [
        {
            "list": "otb-standard",
            "period": "2026-10",
            "rating": 1400,
            "type": "partial",
            "category": "partial",
            "games": 6,
            "last_played": "2026-09",
        },
        {
            "list": "online",
            "period": "2025-10",
            "rating": 1100,
            "type": "partial",
            "category": "imported",
            "games": 3,
            "last_played": "2025-10",
        },
    ]
    assert get(client, "/players/", code="200002B")["results"][0]["name"] == "Fletcher, David"


def test_a_players_rating_history_by_list_and_period(client, federation):
    history = get(client, "/players/200002B/ratings/", list="otb-standard")
    september = get(client, "/players/200002B/ratings/", period="2026-09")

    assert [(row["period"], row["rating"]) for row in history["results"]] == [("2026-09", 1848), ("2025-10", 1850)]
    row = september["results"][0]
    assert september["count"] == 1 and september["player"] == "200002B"
    assert (row["method"], row["category"], row["prior_rating"], row["k_factor"], row["points"]) == (
        "K",
        "full",
        1850,
        20,
        61.5,
    )
    assert row["published_at"].startswith("20") and "T" in row["published_at"]


def test_a_players_rated_games_show_the_breakdown(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        games = get(client, "/players/200002B/games/", list="otb-standard", period="2026-09")

    assert games["count"] == 2
    assert games["results"][0] == {
        "list": "otb-standard",
        "period": "2026-09",
        "date": "2026-09-05",
        "event": {"code": "NQ2609", "name": "Northquay Congress"},
        "round": 1,
        "board": 1,
        "colour": "white",
        "opponent": {"code": "200003C", "name": "Dunn, Grace"},
        "score": 1,
        "opponent_rating": 1700,
        "opponent_type": "full",
        "pass1_opponent_rating": None,
        "increment": 6,
        "counted": None,
        "expected": None,
    }
    assert (games["results"][1]["score"], games["results"][1]["increment"]) == (0.5, -8.4)


def test_a_whole_list_for_a_period_in_rating_order(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):  # with the privacy setting
        page = get(client, "/lists/otb-standard/2026-10/", page_size=2)
    original = get(client, "/lists/otb-standard/2026-10/", edition="original", page_size=2)
    last = get(client, "/lists/otb-standard/", page_size=50, page=2)

    assert (page["list"], page["period"], page["revision"], page["count"]) == ("otb-standard", "2026-10", 1, 59)
    assert page["results"] == [
        {
            "code": "200002B",
            "name": "Fletcher, David",
            "title": None,
            "rating": 1848,
            "type": "full",
            "category": "full",
            "games": 122,
            "last_played": "2026-09",
            "club": "NQC",
            "age": None,  # 46 on 1 October 2026: in no age group
            "url": "http://testserver/api/v1/players/200002B/",
        },
        {
            "code": "200003C",
            "name": "Dunn, Grace",
            "title": None,
            "rating": 1695,
            "type": "full",
            "category": "full",
            "games": 301,
            "last_played": "2026-10",
            "club": "SBK",
            "age": "Senior 65+",  # 71 on 1 October 2026
            "url": "http://testserver/api/v1/players/200003C/",
        },
    ]
    assert original["revision"] == 0 and original["results"][1]["rating"] == 1690
    assert len(last["results"]) == 9 and last["next"] is None


def test_the_lists_resource_names_every_published_period(client, federation):
    lists = get(client, "/lists/")

    standard = lists["results"][0]
    assert standard["code"] == "otb-standard" and standard["latest_period"] == "2026-10"
    assert [(p["period"], p["revision"]) for p in standard["periods"]] == [
        ("2026-10", 1),
        ("2026-09", 0),
        ("2025-10", 0),
    ]
    assert standard["periods"][0]["url"] == "http://testserver/api/v1/lists/otb-standard/2026-10/"
    assert lists["results"][1]["latest_period"] is None  # rapid: never published


def test_clubs_and_a_clubs_players(client, federation):
    clubs = get(client, "/clubs/")
    northquay = get(client, "/clubs/NQC/")

    assert [(club["code"], club["players"]) for club in clubs["results"]] == [("NQC", 2), ("SBK", 57)]
    assert northquay["club"]["name"] == "Northquay"
    assert [player["code"] for player in northquay["results"]] == ["200001A", "200002B"]


def test_a_submitted_event_is_told_by_its_status_and_steps_not_its_results(client, federation, arbiter):
    submitted = EventFactory(code="SUB1", status="submitted", arbiter=arbiter)
    for status, day in [("uploaded", 5), ("checked", 5), ("submitted", 6)]:
        at = timezone.make_aware(datetime.datetime(2026, 10, day, 20, 0))
        EventChange.objects.create(event=submitted, status=status, by=arbiter, at=at)

    listed = get(client, "/events/", q="SUB1")["results"]
    shown = get(client, "/events/SUB1/")

    assert [(event["code"], event["status"]) for event in listed] == [("SUB1", "submitted")]
    assert shown["arbiter"] == "arbiter" and "entries" not in shown and "games" not in shown
    assert shown["steps"] == [
        {"step": "received", "date": "2026-10-05"},
        {"step": "submitted for approval", "date": "2026-10-06"},
    ]


def test_events_and_an_event_with_its_entries_and_games(client, federation):
    EventFactory(code="CHK1", status="checked")  # still its arbiter's: nowhere public

    events = get(client, "/events/", kind="swiss", month="2026-09")
    congress = get(client, "/events/NQ2609/")

    assert [event["code"] for event in events["results"]] == ["NQ2609"]
    assert events["results"][0]["start_date"] == "2026-09-05"
    assert [entry["name"] for entry in congress["entries"]] == ["Fletcher, David", "Fletcher, Alice", "Dunn, Grace"]
    assert congress["games"][0] == {
        "round": 1,
        "board": 1,
        "date": "2026-09-05",
        "white": 1,
        "black": 3,
        "result": "1-0",
        "rated": True,
        "unrated_reason": None,
        "not_rated": None,
    }
    assert congress["games"][1]["black"] is None and congress["games"][1]["unrated_reason"] == "bye"
    get(client, "/events/SUB1/", status=404)


@pytest.mark.parametrize(
    "path, query, message",
    [
        ("/players/", {}, "Give q"),
        ("/players/", {"q": "f"}, "2 characters or more"),
        ("/players/", {"q": "fletcher", "page": "x"}, "page must be a whole number"),
        ("/players/", {"q": "fletcher", "page": "0"}, "page must be 1 or more"),
        ("/players/", {"q": "fletcher", "page_size": "501"}, "page_size must be from 1 to 500"),
        ("/players/200001A/ratings/", {"list": "blitz"}, "list must be the code of a rating list"),
        ("/players/200001A/games/", {"period": "2026-9"}, "period must be a month as YYYY-MM"),
        ("/lists/otb-standard/2026-13/", {}, "period must be a month"),
        ("/lists/otb-standard/", {"edition": "first"}, "edition must be revised or original"),
        ("/events/", {"kind": "blitz"}, "kind must be one of"),
        ("/events/", {"month": "May"}, "month must be a month"),
    ],
)
def test_a_bad_parameter_is_a_400_with_a_message(client, federation, path, query, message):
    body = get(client, path, status=400, **query)

    assert message in body["error"] and body["status"] == 400


@pytest.mark.parametrize(
    "path, message",
    [
        ("/players/999999Z/", "No player has the code '999999Z'."),
        ("/players/999999Z/games/", "No player has the code"),
        ("/lists/blitz/", "No rating list has the code 'blitz'."),
        ("/lists/otb-standard/2020-01/", "The otb-standard list was not published for 2020-01."),
        ("/lists/otb-rapid/", "The otb-rapid list is not published yet."),
        ("/lists/otb-standard/?page=3", "There is no page 3: there is 1."),
        ("/clubs/XYZ/", "No club has the code 'XYZ'."),
        ("/events/NOPE/", "No approved or rated event has the code 'NOPE'."),
        ("/no/such/thing/", "No API resource at /api/v1/no/such/thing/"),
    ],
)
def test_an_unknown_object_is_a_404_in_json(client, federation, path, message):
    response = client.get(API + path)

    assert response.status_code == 404
    assert message in response.json()["error"]


def test_the_api_is_read_only(client, federation):
    response = client.post(API + "/players/200001A/")

    assert response.status_code == 405
    assert response.json()["error"] == "This resource is read only: use GET."


def test_an_events_entries_carry_their_points_from_the_games(client, federation):
    event = get(client, "/events/NQ2609/")

    # David: beat Grace, a half-point bye, drew Alice = 2. Alice: a bye, beat Grace, drew David = 2.5.
    assert {entry["name"]: entry["points"] for entry in event["entries"]} == {
        "Fletcher, David": 2,
        "Fletcher, Alice": 2.5,
        "Dunn, Grace": 0,
    }


def test_a_player_links_to_their_ratings_and_games(client, federation):
    player = get(client, "/players/200002B/")

    assert player["ratings_url"] == "http://testserver/api/v1/players/200002B/ratings/"
    assert player["games_url"] == "http://testserver/api/v1/players/200002B/games/"


def test_club_and_event_codes_are_found_in_any_case(client, federation):
    assert get(client, "/clubs/nqc/")["club"]["code"] == "NQC"
    assert get(client, "/events/nq2609/")["code"] == "NQ2609"
