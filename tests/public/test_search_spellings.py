"""Names found however they are typed: without apostrophes, with umlauts written out, an Irish
surname as one word (issue 26, items 6 and 7), on PostgreSQL and SQLite alike."""

import pytest
from django.db import connection

from players import search
from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db


def found(client, query):
    page = client.get("/players/", {"q": query}).content.decode()
    return [row.split('">', 1)[1].split("</a>")[0] for row in page.split('<tr><td><a href="/players/')[1:]]


def api_found(client, query):
    return [player["name"] for player in client.get("/api/v1/players/", {"q": query}).json()["results"]]


@pytest.fixture
def names(db):
    PlayerFactory(code="300001A", surname="D'Arcy", forenames="Siobhán")
    PlayerFactory(code="300002B", surname="D’Arcy", forenames="Tom")  # a curly apostrophe
    PlayerFactory(code="300003C", surname="Müller", forenames="Jürgen")
    PlayerFactory(code="300004D", surname="Mueller", forenames="Hans")
    PlayerFactory(code="300005E", surname="Ó Briain", forenames="Brian")
    PlayerFactory(code="300006F", surname="Strauß", forenames="Eva")
    PlayerFactory(code="300007G", surname="Manuel", forenames="Samuel")
    PlayerFactory(code="300008H", surname="Manul", forenames="Samul")


def test_a_name_is_found_without_its_apostrophe(client, names):
    assert found(client, "darcy") == ["D&#x27;Arcy, Siobhán", "D’Arcy, Tom"]
    assert found(client, "d'arcy tom") == ["D’Arcy, Tom"]
    assert api_found(client, "darcy") == ["D'Arcy, Siobhán", "D’Arcy, Tom"]


def test_an_umlaut_written_out_finds_the_name_and_so_does_the_letter_without_its_dots(client, names):
    assert found(client, "mueller") == ["Mueller, Hans", "Müller, Jürgen"]
    assert found(client, "muller") == ["Müller, Jürgen"]
    assert found(client, "juergen mueller") == ["Müller, Jürgen"]
    # The umlaut typed finds the name written either way (in name order on SQLite, the name as
    # typed first on PostgreSQL).
    assert sorted(found(client, "müller")) == ["Mueller, Hans", "Müller, Jürgen"]
    assert api_found(client, "mueller") == ["Mueller, Hans", "Müller, Jürgen"]


def test_a_sharp_s_and_its_two_letters_find_each_other(client, names):
    assert found(client, "strauss") == ["Strauß, Eva"]
    assert found(client, "strauß eva") == ["Strauß, Eva"]


def test_ue_in_an_ordinary_name_is_never_taken_for_an_umlaut(client, names):
    # On PostgreSQL each also finds the other further down, as a one-letter typo.
    assert found(client, "manuel")[0] == "Manuel, Samuel"
    assert found(client, "manul")[0] == "Manul, Samul"


def test_a_surname_of_two_words_is_found_written_as_one(client, names):
    assert found(client, "obriain") == ["Ó Briain, Brian"]
    assert found(client, "o'briain") == ["Ó Briain, Brian"]
    assert found(client, "o briain brian") == ["Ó Briain, Brian"]
    assert api_found(client, "obriain") == ["Ó Briain, Brian"]


@pytest.mark.parametrize("query", ["'", "’'", "' ’", "``"])
def test_a_query_of_apostrophes_alone_finds_no_player(client, names, query):
    page = client.get("/players/", {"q": query}).content.decode()

    assert found(client, query) == []
    assert "No player matches" in page
    assert api_found(client, query + "'") == []  # the API asks for 2 characters or more
    opponent = client.get("/players/300001A/vs/", {"opponent": query}).content.decode()
    assert "No other player matches" in opponent


@pytest.mark.skipif(connection.vendor != "postgresql", reason="names are looked for from their start on PostgreSQL")
def test_a_name_with_ae_oe_or_ue_is_looked_for_from_its_start_as_any_other(client, names):
    PlayerFactory(code="300009J", surname="Samuelson", forenames="Ann")
    PlayerFactory(code="300010K", surname="Muller", forenames="Max")  # no umlaut: not Mueller

    # The trigram search put the forename Samuel, a whole word, before the surname Samuelson.
    assert found(client, "samuel") == ["Samuelson, Ann"]
    assert found(client, "samuel manuel") == ["Manuel, Samuel"]
    assert found(client, "mueller") == ["Mueller, Hans", "Müller, Jürgen"]
    assert found(client, "muell") == ["Mueller, Hans", "Müller, Jürgen"]
    assert found(client, "juergen mue") == ["Müller, Jürgen"]
    assert found(client, "muller") == ["Müller, Jürgen", "Muller, Max"]  # in the keys' order
    assert found(client, "müller") == ["Mueller, Hans", "Müller, Jürgen", "Muller, Max"]
    [surname_first] = search.by_name_start("mueller")
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a table this small is scanned otherwise
        plan = surname_first.explain()
        cursor.execute("RESET enable_seqscan")
    assert "players_player_surname_start" in plan and "Index Cond" in plan
