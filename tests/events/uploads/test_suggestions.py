"""A file's player without a code is suggested the records of the same name, compared as the
search compares names (issue 26, item 6), on PostgreSQL and SQLite alike."""

import datetime

import pytest

from events.formats.base import ParsedPlayer
from events.uploads.matching import match_players
from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db


def suggested(surname, forenames, birth_date=None):
    [match] = match_players([ParsedPlayer(1, surname, forenames, birth_date=birth_date)]).values()
    return [player.code for player in match.suggestions]


def test_a_codeless_player_is_suggested_the_record_of_their_accented_name():
    PlayerFactory(code="300001A", surname="Ó Briain", forenames="Brian")
    PlayerFactory(code="300002B", surname="Fernández", forenames="Lucía")

    assert suggested("Ó Briain", "Brian") == ["300001A"]
    assert suggested("Fernandez", "Lucia") == ["300002B"]
    assert suggested("FERNÁNDEZ", "lucía") == ["300002B"]


def test_an_umlaut_written_out_or_without_its_dots_is_the_same_name():
    PlayerFactory(code="300003C", surname="Müller", forenames="Jürgen")
    PlayerFactory(code="300004D", surname="Schroeder", forenames="Hans")

    assert suggested("Mueller", "Juergen") == ["300003C"]
    assert suggested("Muller", "Jurgen") == ["300003C"]
    assert suggested("Schröder", "Hans") == ["300004D"]


def test_a_danish_o_with_a_stroke_or_a_with_a_ring_written_out_or_plain_is_the_same_name():
    PlayerFactory(code="300011L", surname="Sørensen", forenames="Åse")
    PlayerFactory(code="300012A", surname="Ærø", forenames="Kjeld")

    assert suggested("Soerensen", "Aase") == ["300011L"]
    assert suggested("Sorensen", "Ase") == ["300011L"]
    assert suggested("Aeroe", "Kjeld") == ["300012A"]


def test_ue_in_an_ordinary_name_is_never_taken_for_an_umlaut():
    PlayerFactory(code="300005E", surname="Xu", forenames="Li")
    PlayerFactory(code="300006F", surname="Garcia", forenames="Rafal")

    assert suggested("Xue", "Li") == []
    assert suggested("Garcia", "Rafael") == []
    assert suggested("Xu", "Li") == ["300005E"]


def test_the_same_surname_and_birth_date_are_suggested_whatever_the_forenames():
    PlayerFactory(code="300007G", surname="D’Arcy", forenames="Siobhán", birth_date=datetime.date(1990, 5, 12))

    assert suggested("Darcy", "Shiv", datetime.date(1990, 5, 12)) == ["300007G"]
    assert suggested("Darcy", "Shiv", datetime.date(1991, 5, 12)) == []


def test_a_name_matched_by_code_differing_only_in_accents_is_no_difference():
    PlayerFactory(code="300008H", surname="Fernández", forenames="Lucía")
    parsed = [
        ParsedPlayer(1, "Fernandez", "Lucia", federation_code="300008H"),
        ParsedPlayer(2, "Fernandes", "Lucia", federation_code="300008H"),
    ]

    matches = match_players(parsed)

    assert matches[1].warnings == []
    assert matches[2].warnings == ["the name differs from the federation record 300008H (Fernández, Lucía)"]


def test_a_birth_date_other_than_the_records_is_warned_of_without_telling_the_records():
    PlayerFactory(code="300009J", surname="Nash", forenames="Ivan", birth_date=datetime.date(2012, 3, 4))
    parsed = [ParsedPlayer(1, "Nash", "Ivan", federation_code="300009J", birth_date=datetime.date(2012, 4, 3))]

    (warning,) = match_players(parsed)[1].warnings

    assert warning == "the birth date 03/04/2012 differs from the federation record's: a rating officer will check it"
    assert "04/03/2012" not in warning and "2012-03-04" not in warning
