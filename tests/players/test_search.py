"""One name search (players/search.py) wherever a player is looked for by name: the public
search box, the API, the admin's list of players and the autocomplete officers pick an entry's
record with."""

import pytest
from django.urls import reverse

from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def named(db):
    return {
        "Taylor, Mohammed": PlayerFactory(code="300001A", surname="Taylor", forenames="Mohammed", fide_id=1503014),
        "Müller, Hans": PlayerFactory(code="300002B", surname="Müller", forenames="Hans"),
        "O'Brien, Sean": PlayerFactory(code="300003C", surname="O'Brien", forenames="Sean"),
        "Sørensen, Åse": PlayerFactory(code="300004D", surname="Sørensen", forenames="Åse", fide_id=1401234),
        "Ærø, Kjeld": PlayerFactory(code="300005E", surname="Ærø", forenames="Kjeld"),
        "Dunn, Grace": PlayerFactory(code="300006F", surname="Dunn", forenames="Grace"),
    }


def public_search(client, query):
    response = client.get("/players/", {"q": query})
    if response.status_code == 302:
        return [response["Location"]]
    page = response.content.decode()
    return [row.split("/", 1)[0] for row in page.split('<tr><td><a href="/players/')[1:]]


def admin_search(client, query):
    response = client.get(reverse("admin:players_player_changelist"), {"q": query})
    assert response.status_code == 200
    return [player.code for player in response.context["cl"].result_list]


def autocomplete(client, query):
    response = client.get(
        reverse("admin:autocomplete"),
        {"term": query, "app_label": "events", "model_name": "entry", "field_name": "player"},
    )
    assert response.status_code == 200
    return [row["text"] for row in response.json()["results"]]


QUERIES = [
    ("Taylor, Mohammed", "300001A"),
    ("mohammed taylor", "300001A"),
    ("mueller", "300002B"),
    ("MULLER", "300002B"),
    ("o'brien", "300003C"),
    ("O’Brien", "300003C"),
    ("obrien sean", "300003C"),
    ("300002b", "300002B"),
]


@pytest.mark.parametrize("query, code", QUERIES)
def test_the_admins_search_finds_what_the_public_search_finds(client, officer, named, query, code):
    client.force_login(officer)

    assert code in admin_search(client, query)


@pytest.mark.parametrize("query, code", QUERIES)
def test_the_entries_autocomplete_finds_what_the_public_search_finds(client, officer, named, query, code):
    client.force_login(officer)

    assert any(f"({code})" in text for text in autocomplete(client, query))


def test_the_admins_search_still_finds_a_player_by_club_and_its_merged_records(client, officer, named):
    client.force_login(officer)
    dunn = named["Dunn, Grace"]
    merged = PlayerFactory(code="300008H", surname="Dunn", forenames="Grace", merged_into=dunn)

    assert admin_search(client, dunn.club.name) == [dunn.code]
    assert {dunn.code, merged.code} <= set(admin_search(client, "grace dunn"))


@pytest.mark.parametrize("query", ["soerensen", "sorensen", "SØRENSEN åse", "soerensen aase"])
def test_a_danish_o_with_a_stroke_is_found_written_out_or_plain(client, officer, named, query):
    client.force_login(officer)

    assert public_search(client, query)[0] == "300004D"
    assert "300004D" in admin_search(client, query)
    assert any("(300004D)" in text for text in autocomplete(client, query))


@pytest.mark.parametrize("query", ["aeroe", "aero", "aeroe kjeld"])
def test_a_danish_ae_is_found_as_ae(client, named, query):
    assert public_search(client, query)[0] == "300005E"


def test_a_fide_id_finds_its_player_in_the_public_search_the_admin_and_the_api(client, officer, named):
    assert public_search(client, "1503014") == ["/players/300001A/"]
    assert [row["code"] for row in client.get("/api/v1/players/", {"q": "1503014"}).json()["results"]] == ["300001A"]
    client.force_login(officer)
    assert admin_search(client, "1503014") == ["300001A"]
    assert any("(300001A)" in text for text in autocomplete(client, "1503014"))


def test_a_number_that_is_no_fide_id_of_anyone_finds_nobody(client, named):
    assert public_search(client, "1503015") == []
    assert public_search(client, "12345") == []
