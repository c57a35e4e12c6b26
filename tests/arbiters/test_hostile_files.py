"""Broken and hostile files through the arbiters' upload page: every one is refused with what is
wrong and where, nothing is stored (not even the file on disk), and nothing is a server error."""

import datetime

import pytest
from django.urls import reverse

from chess.dates import read_pair
from chess.months import Month
from events.formats import parse_event_file
from events.models import Event, Upload
from events.uploads import storing
from events.uploads.checking import EventDetails, check_upload
from events.workflow import WorkflowError
from grading.models import RatingList
from grading.selectors.history import lists_for_uploads
from grading.takeon import do_import_ratings
from tests.builders import ECF_EXAMPLE, PlayerFactory, ecf_file, post_nameless_file, trf_player, upload

pytestmark = pytest.mark.django_db

CSV_HEADER = "white,black,result,date,round\n"
CSV_FORM = {"code": "LEAGUE-26", "start_date": "2026-10-03", "end_date": "2026-10-04", "time_control": "90+30"}
HUGE = "99999999999999999999999"


def timed(fields):
    """The example file with these time-control fields instead of its own."""
    return ECF_EXAMPLE.replace(
        b"#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=90\n#MINUTES REST OF GAME=30\n", fields.encode()
    )


def trf(*players):
    header = "012 Northquay Open\n042 2026/10/03\n052 2026/10/04\n122 90+30\n"
    return (header + "\n".join(players) + "\n").encode()


def refused(response):
    """The report's error lines, after checking that nothing at all was stored."""
    assert response.status_code == 200
    assert not Event.objects.exists() and not Upload.objects.exists()
    page = response.content.decode()
    assert "nothing can be stored until" in page
    return page


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.mark.parametrize(
    "data, filename, fields, message",
    [
        (
            ecf_file(submission_index=HUGE),
            "results.txt",
            {},
            f"#SUBMISSION INDEX must be a whole number from 1 to 9999, not &#x27;{HUGE}&#x27;",
        ),
        (
            ECF_EXAMPLE.replace(b"#PIN=1#", f"#PIN={HUGE}#".encode(), 1),
            "results.txt",
            {},
            f"#PIN must be a whole number from 1 to 9999, not &#x27;{HUGE}&#x27;",
        ),
        (
            ECF_EXAMPLE.replace(b"#PIN=1#", "#PIN=²#".encode(), 1),
            "results.txt",
            {},
            "#PIN must be a whole number from 1 to 9999, not &#x27;²&#x27;",
        ),
        (
            ECF_EXAMPLE.replace(b"#ROUND=1#", f"#ROUND={HUGE}#".encode(), 1),
            "results.txt",
            {},
            f"#ROUND must be a whole number from 1 to 999, not &#x27;{HUGE}&#x27;",
        ),
        (
            (CSV_HEADER + f"123456A,234567B,1-0,2026-10-03,{HUGE}\n").encode(),
            "games.csv",
            CSV_FORM,
            f"round &#x27;{HUGE}&#x27; is not a whole number from 1 to 999",
        ),
        (
            (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,²\n").encode(),
            "games.csv",
            CSV_FORM,
            "round &#x27;²&#x27; is not a whole number from 1 to 999",
        ),
        (
            trf(trf_player(1, "Abbott, Alice", (2, "w", "1")), "001    ² m    Baker, Brian" + " " * 59 + "   1 b 0"),
            "open.trf",
            {"code": "NQ-OPEN"},
            "the starting rank (columns 5-8) is &#x27;²&#x27;, not a number from 1 to 9999",
        ),
        (
            timed("#MINUTES FOR GAME=NaN\n"),
            "results.txt",
            {},
            "#MINUTES FOR GAME must be a number, not &#x27;NaN&#x27;",
        ),
        (
            timed("#MINUTES FOR GAME=Infinity\n"),
            "results.txt",
            {},
            "#MINUTES FOR GAME must be a number, not &#x27;Infinity&#x27;",
        ),
        (
            timed(f"#MINUTES FOR GAME=90\n#SECONDS PER MOVE={HUGE}\n"),
            "results.txt",
            {},
            f"#SECONDS PER MOVE must be at most 600, not &#x27;{HUGE}&#x27;",
        ),
        # A single field past the csv module's 128 KB limit, before the format is known.
        (b"a" * 200_000 + b"\n", "games.csv", CSV_FORM, "the file&#x27;s format is not recognised"),
        (
            (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,1\n").encode(),
            "games.csv",
            {**CSV_FORM, "code": "NQ/2026 <b>"},
            "may hold only letters and digits, and single - _ . / between them",
        ),
        (
            (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,1\n").encode(),
            "games.csv",
            {**CSV_FORM, "code": "A/../../admin"},
            "may hold only letters and digits, and single - _ . / between them",
        ),
    ],
    ids=[
        "huge submission index",
        "huge PIN",
        "superscript PIN",
        "huge ECF round",
        "huge CSV round",
        "superscript CSV round",
        "superscript TRF rank",
        "NaN minutes",
        "infinite minutes",
        "huge increment",
        "a 200 KB field",
        "a code with markup",
        "a code with a dot segment",
    ],
)
def test_a_broken_number_or_field_is_refused_with_its_line_and_nothing_is_stored(
    client, arbiter, media, data, filename, fields, message
):
    client.force_login(arbiter)

    page = refused(upload(client, data, filename, **fields))

    assert message in page
    assert not any(path.is_file() for path in media.rglob("*"))


def test_a_huge_fide_id_in_a_trf_is_ignored_not_a_server_error(client, arbiter):
    client.force_login(arbiter)
    line = trf_player(1, "Abbott, Alice", (2, "w", "1"), fide_id="99999999999")
    data = trf(line.replace("99999999999", HUGE[:11]), trf_player(2, "Baker, Brian", (1, "b", "0")))

    response = upload(client, data, "open.trf", code="NQ-OPEN")

    assert response.status_code == 302
    assert list(Event.objects.get().entries.values_list("fide_id", flat=True)) == [None, None]


@pytest.mark.parametrize("time_control", ["99999999999999999999999999+9", "abc"])
def test_a_time_control_in_the_form_that_cannot_be_understood_is_refused_saying_so(client, arbiter, time_control):
    client.force_login(arbiter)
    data = (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,1\n").encode()

    page = refused(upload(client, data, "games.csv", **{**CSV_FORM, "time_control": time_control}))

    assert f"the time control &#x27;{time_control}&#x27; in the Time control field is not understood" in page


def test_an_event_that_ends_after_today_is_refused(client, arbiter):
    client.force_login(arbiter)
    data = (CSV_HEADER + "123456A,234567B,1-0,2099-10-03,1\n").encode()

    page = refused(
        upload(client, data, "games.csv", **{**CSV_FORM, "start_date": "2099-10-03", "end_date": "2099-10-03"})
    )

    assert (
        "the event ends on 03/10/2099 (the End date field), after today: results are uploaded once the games are played"
    ) in page


def test_games_in_a_month_taken_on_from_the_previous_system_are_warned_of(client, arbiter):
    PlayerFactory(code="123456A")
    do_import_ratings(
        b"code,rating,type,games,opponents_total,points,last_played\n123456A,1500,full,20,30000,10,2026-10\n",
        RatingList.objects.get(code="otb-standard"),
        Month(2026, 10),
    )
    client.force_login(arbiter)

    upload(client, (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,1\n").encode(), "games.csv", **CSV_FORM)

    assert (
        "1 game(s) are dated in or before 2026-10, which OTB standard took on from the previous system's "
        "ratings: they will not be rated"
    ) in [warning["message"] for warning in Upload.objects.get().report["warnings"]]


def test_a_csv_game_outside_the_dates_given_in_the_form_is_refused(client, arbiter):
    client.force_login(arbiter)
    data = (CSV_HEADER + "123456A,234567B,1-0,2026-11-03,1\n").encode()

    page = refused(upload(client, data, "games.csv", **CSV_FORM))

    assert "is dated 03/11/2026, outside the event (03/10/2026 to 04/10/2026)" in page


def test_a_csv_without_dates_in_the_form_takes_the_games_span(client, arbiter):
    client.force_login(arbiter)
    data = (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,1\n234567B,123456A,0-1,2026-10-05,2\n").encode()

    upload(client, data, "games.csv", code="LEAGUE-26", time_control="90+30")

    event = Event.objects.get()
    assert (str(event.start_date), str(event.end_date)) == ("2026-10-03", "2026-10-05")


def test_the_same_file_under_another_event_code_is_refused(client, arbiter, other_arbiter):
    data = (CSV_HEADER + "123456A,234567B,1-0,2026-10-03,1\n").encode()
    client.force_login(arbiter)
    upload(client, data, "games.csv", **CSV_FORM)

    again = upload(client, data, "games.csv", **{**CSV_FORM, "code": "LEAGUE-27"})
    client.force_login(other_arbiter)
    by_another = upload(client, data, "games.csv", **{**CSV_FORM, "code": "LEAGUE-28"})

    assert "this file was already uploaded for the event LEAGUE-26" in again.content.decode()
    # Another arbiter is not told whose event it is.
    assert "already uploaded for another arbiter&#x27;s event" in by_another.content.decode()
    assert list(Event.objects.values_list("code", flat=True)) == ["LEAGUE-26"]
    assert Upload.objects.count() == 1


def test_a_file_refused_while_storing_leaves_no_file_behind(arbiter, media, monkeypatch):
    check = check_upload(ECF_EXAMPLE, "results.txt", EventDetails(), lists_for_uploads())

    def fail(*args):
        raise WorkflowError("the database said no")

    monkeypatch.setattr(storing, "save_games", fail)  # a failure after the file is written
    with pytest.raises(WorkflowError):
        storing.do_store_upload(check, ECF_EXAMPLE, "results.txt", acting_user=arbiter)

    assert not Upload.objects.exists()
    assert not any(path.is_file() for path in media.rglob("*"))


def test_a_bidirectional_override_in_a_name_is_refused_like_a_control_character(client, arbiter):
    client.force_login(arbiter)

    page = refused(upload(client, ECF_EXAMPLE.replace(b"Dunn, David", "Dunn, \u202edivaD".encode())))

    assert "Line 18: contains the control character U+202E" in page


def test_an_empty_file_is_called_empty(client, arbiter):
    client.force_login(arbiter)

    page = refused(upload(client, "\ufeff  \r\n\r\n".encode(), "games.csv", **CSV_FORM))

    assert "the file is empty" in page


def test_a_file_sent_without_a_name_is_told_so_on_the_upload_page(client, arbiter):
    client.force_login(arbiter)

    response = post_nameless_file(client, reverse("arbiter-upload"), ECF_EXAMPLE)

    assert response.status_code == 200 and not Event.objects.exists()
    assert "The file was sent without a name" in response.content.decode()


def test_a_name_too_long_to_keep_whole_is_stored_cut_with_a_warning(client, arbiter):
    client.force_login(arbiter)
    long_surname = "L" * 300

    response = upload(client, ECF_EXAMPLE.replace(b"Dunn, David", f"{long_surname}, David".encode()))

    upload_row = Upload.objects.get()
    assert response.status_code == 302
    assert "player 4: a surname is kept to 80 characters and forenames to 120: this name is cut to fit" in [
        warning["message"] for warning in upload_row.report["warnings"]
    ]
    assert upload_row.event.entries.get(pin=4).surname == "L" * 80


def test_a_submission_index_given_with_the_upload_is_used_with_a_warning_when_the_file_says_otherwise(client, arbiter):
    client.force_login(arbiter)

    upload(client, ECF_EXAMPLE, submission_index=3)

    upload_row = Upload.objects.get()
    assert upload_row.event.submission_index == 3
    assert "the submission index 3 given with the upload is used, not the file's 1" in [
        warning["message"] for warning in upload_row.report["warnings"]
    ]


def test_the_files_warning_of_an_unreadable_time_control_goes_once_the_form_gives_one(client, arbiter):
    data = (
        "012 Northquay Open\n042 2026/10/03\n052 2026/10/04\n122 as usual\n"
        + trf_player(1, "Abbott, Alice", (2, "w", "1"))
        + "\n"
        + trf_player(2, "Baker, Brian", (1, "b", "0"))
        + "\n"
    )
    client.force_login(arbiter)

    upload(client, data.encode(), "open.trf", code="NQ-OPEN", time_control="90+30")

    warnings = [warning["message"] for warning in Upload.objects.get().report["warnings"]]
    assert not [message for message in warnings if "time control" in message]


@pytest.mark.parametrize(
    "field, value, label",
    [
        ("ECF CODE", "999999K", "federation code 999999K"),
        ("FIDE NO", "2400101", "FIDE ID 2400101"),
    ],
)
def test_two_players_of_a_file_with_one_new_code_or_fide_id_are_refused_naming_both(
    client, arbiter, field, value, label
):
    client.force_login(arbiter)
    text = ECF_EXAMPLE.decode()
    for pin in ("#PIN=2", "#PIN=4"):
        line_start = text.index(pin)
        line_end = text.index("\n", line_start)
        line = text[line_start:line_end]
        line = line.replace("#ECF CODE=234567B", "")
        text = text[:line_start] + line + f"#{field}={value}" + text[line_end:]

    page = refused(upload(client, text.encode()))

    assert (
        f"players 2 (Baker, Brian, line 16) and 4 (Dunn, David) have the same {label}: one person cannot be two players"
    ) in page


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"event_date": "03/10/0001"}, "the event starts on 03/10/0001 (in the file): before 1900, a mistyped year"),
        (
            {"event_date": "03/10/2024"},
            "the event runs from 03/10/2024 (in the file) to 04/10/2026 (in the file): more "
            "than a year; upload each season or year as an event of its own",
        ),
        (
            {"event_date": "05/10/2026"},
            "the event ends (04/10/2026, in the file) before it starts (05/10/2026, in the file)",
        ),
        ({"event_name": "N" * 201}, "the file&#x27;s event name is 201 characters long: an event name is at most 200"),
    ],
)
def test_impossible_event_dates_and_names_are_refused_saying_where_they_came_from(client, arbiter, changes, message):
    client.force_login(arbiter)

    page = refused(upload(client, ecf_file(**changes)))

    assert message in page


def test_trf_dates_written_with_spaces_are_read():
    assert read_pair("28. 07. 2005", "30. 07. 2005") == (datetime.date(2005, 7, 28), datetime.date(2005, 7, 30))


def test_a_trf_rating_or_fide_id_out_of_range_is_dropped_with_a_warning_naming_the_line():
    event = parse_event_file(
        trf(
            trf_player(1, "Abbott, Alice", rating="9999", fide_id="12345678901"),
            trf_player(2, "Baker, Brian", rating="0"),
        )
    )

    warnings = [(p.line, p.message) for p in event.warnings if "is not a FIDE" in p.message]
    assert warnings == [
        (5, "starting rank 1: '9999' is not a FIDE rating (1 to 4000): it is ignored"),
        (5, "starting rank 1: '12345678901' is not a FIDE ID (6 to 9 digits): it is ignored"),
    ]
    assert (event.players[0].fide_rating, event.players[0].fide_id) == (None, None)
