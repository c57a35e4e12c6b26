"""Every way a name is saved writes the keys the search, the suggestions and the matching
compare (Player.surname_key, forenames_key, name_key; chess.names)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from chess.names import fold, keys_to_look_up, same_name, spellings
from events import approval, workflow
from events.formats.base import ParsedPlayer
from events.uploads.matching import match_players
from players.models import Player
from players.services import import_players
from tests.builders import ECF_EXAMPLE, PlayerFactory, stored_event

pytestmark = pytest.mark.django_db


def keys(code):
    return Player.objects.filter(code=code).values_list(*Player.NAME_KEYS).get()


def test_folding_drops_case_accents_and_apostrophes_and_writes_sharp_s_as_two_letters():
    assert fold("D’Arcy,  Siobhán") == "darcy, siobhan"
    assert fold("Strauß") == "strauss"
    assert spellings("Müller") == ["muller", "mueller"]
    assert spellings("Manuel") == ["manuel"]


def test_danish_and_norwegian_letters_are_also_written_out_as_umlauts_are():
    assert spellings("Sørensen") == ["sorensen", "soerensen"]
    assert spellings("Åse") == ["ase", "aase"]
    assert spellings("Ærø") == ["aero", "aeroe"]
    assert same_name("Soerensen", "Sørensen") and same_name("Sorensen", "Sørensen") and same_name("Aase", "Åse")
    assert not same_name("Soerensen", "Sorensen")  # as Mueller is not Muller
    assert "aero" in keys_to_look_up("Aeroe")  # Ærø's surname_key


def test_a_saved_player_carries_the_keys_of_their_name_and_a_rename_rewrites_them():
    player = PlayerFactory(code="300001A", surname="Ó Briain", forenames="Siobhán")
    assert keys("300001A") == ("o briain", "siobhan", "o briain siobhan obriain")

    player.surname = "Müller"
    player.save(update_fields=["surname"])

    assert keys("300001A") == ("muller", "siobhan", "muller siobhan mueller siobhan")


def test_imported_players_carry_their_keys_and_a_reimport_renaming_one_rewrites_them():
    header = "code,name,birth_date,sex,title,fide_id,club_code,club_name\n"
    import_players((header + '123456A,"D\'Arcy, Seán",,,,,,\n').encode())
    assert keys("123456A") == ("darcy", "sean", "darcy sean")

    import_players((header + '123456A,"Fernández, Lucía",,,,,,\n').encode())

    assert keys("123456A") == ("fernandez", "lucia", "fernandez lucia")


def test_players_registered_on_approval_carry_their_keys(arbiter, officer):
    event = workflow.do_submit_event(
        stored_event(arbiter, ECF_EXAMPLE.replace(b"Dunn, David", "D'Unn, Dávid".encode())), acting_user=arbiter
    )

    approval.do_approve_event(event, acting_user=officer)

    assert Player.objects.filter(surname="D'Unn").values_list(*Player.NAME_KEYS).get() == (
        "dunn",
        "david",
        "dunn david",
    )


def test_a_name_cannot_be_changed_by_an_update_which_would_leave_its_keys_behind():
    PlayerFactory(code="300002B", surname="Dunn")

    with pytest.raises(TypeError, match="saved with its keys"):
        Player.objects.filter(code="300002B").update(surname="Dünn")


def test_a_bulk_update_of_names_rewrites_their_keys():
    dunn = PlayerFactory(code="300004D", surname="Dunn", forenames="Ann")
    fox = PlayerFactory(code="300005E", surname="Fox", forenames="Zoe")
    dunn.surname, fox.forenames = "Dünn", "Zoë Ann"

    Player.objects.bulk_update([dunn, fox], ["surname", "forenames"])

    assert keys("300004D") == ("dunn", "ann", "dunn ann duenn ann")
    assert keys("300005E") == ("fox", "zoe ann", "fox zoe ann")


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("players", target)])
    return executor.loader.project_state([("players", target)]).apps


def columns():
    with connection.cursor() as cursor:
        return {column.name for column in connection.introspection.get_table_description(cursor, "players_player")}


@pytest.fixture
def back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_fills_the_keys_of_the_players_already_recorded_and_is_undone(back_to_the_latest_schema):
    before = migrate("0005_folded_names")
    try:
        for code, surname, forenames in [("300003C", "Müller", "Jürgen"), ("300008H", "\ufdfa" * 80, "Ann")]:
            before.get_model("players", "Player").objects.create(code=code, surname=surname, forenames=forenames)
    finally:
        after = migrate("0006_name_keys")

    filled = dict(after.get_model("players", "Player").objects.values_list("code", "surname_key"))
    assert keys("300003C") == ("muller", "jurgen", "muller jurgen mueller juergen")
    assert len(filled["300008H"]) == 240 and filled["300008H"] == fold("\ufdfa" * 80)[:240]
    migrate("0005_folded_names")
    assert not {"surname_key", "forenames_key", "name_key"} & columns()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_migration_writes_out_the_o_with_a_stroke_and_the_a_with_a_ring_of_names_recorded_before(
    back_to_the_latest_schema,
):
    before = migrate("0006_name_keys")
    try:
        recorded = before.get_model("players", "Player").objects
        recorded.create(code="300009J", surname="Sørensen", forenames="Åse", name_key="sorensen ase")
        recorded.create(code="300010K", surname="Müller", forenames="Jürgen", name_key="muller jurgen mueller juergen")
    finally:
        migrate("0007_danish_letters_written_out")

    assert keys("300009J") == ("", "", "sorensen ase soerensen aase")
    assert keys("300010K") == ("", "", "muller jurgen mueller juergen")
    migrate("0006_name_keys")
    assert keys("300009J") == ("", "", "sorensen ase")


def test_a_name_whose_folding_outgrows_the_key_columns_is_saved_found_and_suggested(client):
    # NFKD writes U+FDFA as 18 characters: the keys are cut to their columns (240 and 360).
    hostile = PlayerFactory(code="300007G", surname="\ufdfa" * 80, forenames="\ufdfa" * 120)
    hostile.surname = "\ufdfa" * 79 + "x"
    hostile.save()

    surname_key, forenames_key, name_key = keys("300007G")
    assert len(surname_key) == 240 and len(forenames_key) == 360
    assert name_key.startswith(fold("\ufdfa" * 79 + "x"))
    page = client.get("/players/", {"q": "\ufdfa"}).content.decode()
    assert 'href="/players/300007G/"' in page
    [match] = match_players([ParsedPlayer(1, hostile.surname, hostile.forenames)]).values()
    assert [player.code for player in match.suggestions] == ["300007G"]
