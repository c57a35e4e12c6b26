"""The rounds an event is scheduled to have (TRF record XXR): read from the file, kept on the
event, shown and corrected by staff (docs/uploads.md; they decide when a match is won,
docs/rules.md 16.5)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import Event
from tests.builders import (
    DATA,
    ECF_EXAMPLE,
    TRF_DIR,
    change_form_data,
    messages,
    parse,
    parse_file,
    stored_event,
    trf,
    trf_player,
)

THREE_ROUNDS = (  # a round robin of three, each with a bye
    trf_player(1, "Abbott, Alice", (2, "w", "1"), (3, "b", "="), (0, "-", "H"), points="2.0"),
    trf_player(2, "Baker, Brian", (1, "b", "0"), (0, "-", "H"), (3, "w", "1"), points="1.5"),
    trf_player(3, "Carter, Cath", (0, "-", "H"), (1, "w", "="), (2, "b", "0"), points="1.0"),
)
HEADER = ("012 Test Open", "042 2026/10/03", "052 2026/10/04", "122 90 min + 30 sec")


def with_rounds(*records):
    return trf(*THREE_ROUNDS, header=(*HEADER, *records))


def test_the_javafo_open_is_scheduled_for_nine_rounds_of_which_four_were_played():
    event = parse_file(TRF_DIR / "javafo-example-open.trf")  # "XXR 9" on line 13

    assert event.scheduled_rounds == 9
    assert {game.round for game in event.games} == {1, 2, 3, 4}
    assert not [problem for problem in event.problems if "XXR" in problem.message]


@pytest.mark.parametrize("name, rounds", [("online-swiss-2020-06.trf", 10), ("online-swiss-2021-03.trf", 9)])
def test_the_online_swiss_exports_are_scheduled_for_the_rounds_they_played(name, rounds):
    event = parse_file(TRF_DIR / name)

    assert event.scheduled_rounds == rounds == max(game.round for game in event.games)


@pytest.mark.parametrize(
    "path",
    [TRF_DIR / "bunratty-masters-2011.trf", DATA / "ecf" / "example-ecf-results.txt"],
    ids=["a TRF without XXR", "an ECF results file"],
)
def test_a_file_that_does_not_say_schedules_no_rounds(path):
    assert parse_file(path).scheduled_rounds is None


def test_a_csv_of_games_schedules_no_rounds():
    event = parse("white,black,result,date\n123456A,234567B,1-0,2026-10-03\n", "games.csv")

    assert event.format == "CSV" and event.scheduled_rounds is None


def test_a_file_read_with_its_scheduled_rounds_has_no_warning_about_them():
    event = parse(with_rounds("XXR 7"))

    assert event.ok and event.scheduled_rounds == 7
    assert not [text for _, text in messages(event, "warning") if "XXR" in text]


@pytest.mark.parametrize(
    "record, message",
    [
        ("XXR nine", "record XXR, the number of rounds: 'nine' is not a whole number; it is ignored"),
        ("XXR 0", "record XXR, the number of rounds: 0 is out of range (1 to 999); it is ignored"),
        ("XXR 1000", "record XXR, the number of rounds: 1000 is out of range (1 to 999); it is ignored"),
        ("XXR 9.5", "record XXR, the number of rounds: '9.5' is not a whole number; it is ignored"),
        ("XXR", "record XXR gives no number of rounds: it is ignored"),
    ],
)
def test_a_number_of_rounds_that_is_not_one_from_1_to_999_is_a_warning_naming_its_line_and_ignored(record, message):
    event = parse(with_rounds(record))

    assert event.ok and event.scheduled_rounds is None
    assert (5, message) in messages(event, "warning")


def test_fewer_scheduled_rounds_than_the_file_plays_is_a_warning_and_ignored():
    event = parse(with_rounds("XXR 2"))

    assert event.ok and event.scheduled_rounds is None
    assert (
        5,
        "record XXR says the event has 2 rounds, but the file has round 3: it is ignored (the rounds played "
        "count as scheduled)",
    ) in messages(event, "warning")


def test_a_second_xxr_record_is_a_warning_and_the_first_counts():
    event = parse(with_rounds("XXR 5", "XXR 6"))

    assert event.scheduled_rounds == 5
    assert (6, "a second record XXR (the first is on line 5): it is ignored") in messages(event, "warning")


@pytest.mark.django_db
def test_an_upload_keeps_the_files_scheduled_rounds_on_the_event_and_a_replacement_its_own(arbiter):
    event = stored_event(arbiter, with_rounds("XXR 5").encode(), code="XXR1")
    assert Event.objects.get(pk=event.pk).scheduled_rounds == 5

    stored_event(arbiter, with_rounds("XXR 6").encode(), code="XXR1")
    assert Event.objects.get(pk=event.pk).scheduled_rounds == 6
    stored_event(arbiter, with_rounds().encode(), code="XXR1")
    assert Event.objects.get(pk=event.pk).scheduled_rounds is None


@pytest.mark.django_db
def test_an_ecf_file_stores_an_event_with_no_scheduled_rounds(arbiter):
    assert stored_event(arbiter, ECF_EXAMPLE).scheduled_rounds is None


@pytest.mark.django_db
def test_a_real_file_uploaded_in_the_admin_keeps_its_rounds_which_staff_see_and_correct(client, officer):
    client.force_login(officer)
    data = (TRF_DIR / "javafo-example-open.trf").read_bytes()
    upload = {"file": SimpleUploadedFile("gros.trf", data), "code": "GROS2010", "time_control": "90+30"}

    assert client.post(reverse("admin:events_event_add"), upload).status_code == 302

    event = Event.objects.get(code="GROS2010")
    assert event.scheduled_rounds == 9
    url = reverse("admin:events_event_change", args=[event.pk])
    page = client.get(url)
    shown = page.content.decode()
    assert 'name="scheduled_rounds" value="9"' in shown
    assert "The rounds the file says the event has (TRF XXR): they decide when a match is won." in shown
    decision = client.get(reverse("admin:events_event_decide", args=[event.pk])).content.decode()
    assert "From 24/09/2010 to 02/10/2010 (9 days), 9 rounds scheduled, 90 min + 30 s/move" in decision

    corrected = {**change_form_data(page), "scheduled_rounds": "8", "_save": "Save"}
    assert client.post(url, corrected).status_code == 302
    event.refresh_from_db()
    assert event.scheduled_rounds == 8
