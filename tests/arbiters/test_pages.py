import datetime

import pytest
from django.test import Client
from django.urls import reverse

from events import approval, workflow
from events.models import Entry, Event, Game, Upload
from tests.builders import DATA, ECF_EXAMPLE, PlayerFactory, ecf_file, trf_player, upload

pytestmark = pytest.mark.django_db


def test_an_arbiter_uploads_reads_the_report_and_submits(client, arbiter):
    PlayerFactory(code="123456A", surname="Abbott", forenames="Alice", birth_date=datetime.date(1990, 5, 12))
    client.force_login(arbiter)

    response = upload(client, ECF_EXAMPLE, "northquay.txt")

    event = Event.objects.get(code="NQ241001")
    assert response.status_code == 302
    assert response["Location"] == reverse("arbiter-event", args=[event.pk])
    assert (event.status, event.arbiter, event.rating_list.code) == ("checked", arbiter, "otb-standard")
    assert (event.start_date, event.end_date) == (datetime.date(2026, 10, 3), datetime.date(2026, 10, 4))
    assert event.entries.count() == 4
    assert Game.objects.filter(event=event).count() == 6
    assert Game.objects.filter(event=event, rated=False).get().unrated_reason == "default"
    assert Entry.objects.get(event=event, pin=1).player.code == "123456A"

    page = client.get(response["Location"]).content.decode()
    assert "Abbott, Alice (123456A), by code" in page
    assert "Games</dt><dd>6, of which 5 rated" in page
    assert "<dt>Dates</dt><dd>3 Oct 2026 to 4 Oct 2026</dd>" in page
    assert (
        "3 players are on no federation record and will be registered as new on approval (see Players); "
        "the file gives these codes, not on record: 234567B, 345678C"
    ) in page

    response = client.post(reverse("arbiter-submit", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == "submitted"
    assert [change.status for change in event.changes.all()] == ["uploaded", "checked", "submitted"]


def test_a_file_with_errors_stores_nothing_and_the_report_names_the_lines(client, arbiter):
    client.force_login(arbiter)
    broken = ECF_EXAMPLE.replace(b"#PIN1=1#SCORE=10#PIN2=2", b"#PIN1=1#SCORE=10#PIN2=9")

    response = upload(client, broken)

    assert response.status_code == 200
    page = response.content.decode()
    assert "1 error: nothing can be stored until it is fixed" in page
    assert "Line 20: the game refers to player 9, who is not in the player list" in page
    assert not Event.objects.exists()
    assert not Upload.objects.exists()


def test_a_file_too_large_is_refused_before_it_is_read(client, arbiter, settings):
    settings.MAX_UPLOAD_BYTES = 1000
    client.force_login(arbiter)

    response = upload(client, ECF_EXAMPLE)

    assert "The file is larger than 0 MB: no event file is that large." in response.content.decode()
    assert not Event.objects.exists()


def test_an_image_uploaded_as_results_is_refused_as_not_a_text_file_of_results(client, arbiter):
    client.force_login(arbiter)

    response = upload(client, (DATA / "not-results" / "chart.png").read_bytes(), "results.png")

    assert response.status_code == 200
    page = response.content.decode()
    assert "this is a PNG image, not a text file of results" in page
    assert "encoding" not in page
    assert not Event.objects.exists()


def test_a_hostile_name_is_shown_escaped(client, arbiter):
    client.force_login(arbiter)
    hostile = ECF_EXAMPLE.replace(b"Dunn, David", b"<script>alert(1)</script>, Eve")

    upload(client, hostile)
    event = Event.objects.get()
    page = client.get(reverse("arbiter-event", args=[event.pk])).content.decode()

    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;, Eve" in page


def test_the_same_file_twice_never_duplicates_anything(client, arbiter):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)

    response = upload(client, ECF_EXAMPLE)

    assert "this file was already uploaded for NQ241001: nothing changed" in response.content.decode()
    assert (Event.objects.count(), Upload.objects.count(), Game.objects.count(), Entry.objects.count()) == (1, 1, 6, 4)


def test_a_higher_submission_index_replaces_the_games_and_a_lower_one_is_refused(client, arbiter):
    client.force_login(arbiter)
    upload(client, ecf_file(submission_index=2))
    corrected = ecf_file(submission_index=3).replace(b"#PIN1=1#SCORE=10#PIN2=2", b"#PIN1=1#SCORE=01#PIN2=2")

    upload(client, corrected)
    response = upload(client, ecf_file(submission_index=1))

    event = Event.objects.get()
    assert event.submission_index == 3
    assert Game.objects.filter(event=event).count() == 6
    assert Game.objects.get(event=event, round=1, white_entry__pin=1).result == "0-1"
    assert "submission index 3: a replacement needs a higher index than 1" in response.content.decode()
    assert Upload.objects.count() == 2


def test_an_approved_event_cannot_be_replaced_by_its_arbiter(client, arbiter):
    client.force_login(arbiter)
    upload(client, ecf_file(submission_index=1))
    Event.objects.update(status="approved")

    response = upload(client, ecf_file(submission_index=2))

    assert "has been approved: ask a rating officer to send it back first" in response.content.decode()
    assert Event.objects.get().submission_index == 1


def test_an_arbiter_cannot_see_submit_or_overwrite_another_arbiters_event(client, arbiter, other_arbiter):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event = Event.objects.get()
    client = Client()
    client.force_login(other_arbiter)

    assert client.get(reverse("arbiter-event", args=[event.pk])).status_code == 404
    assert client.post(reverse("arbiter-submit", args=[event.pk])).status_code == 404
    assert "NQ241001" not in client.get(reverse("arbiter-events")).content.decode()
    response = upload(client, ecf_file(submission_index=5))
    assert "belongs to another arbiter&#x27;s event" in response.content.decode()
    event.refresh_from_db()
    assert (event.status, event.arbiter, event.submission_index) == ("checked", arbiter, 1)


def test_only_arbiters_may_upload(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("player", password="pw"))

    assert client.get(reverse("arbiter-upload")).status_code == 403
    assert client.get(reverse("arbiter-events")).status_code == 403


def test_a_visitor_is_asked_to_log_in(client):
    response = client.get(reverse("arbiter-upload"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_submitting_needs_a_post_with_a_csrf_token(arbiter):
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)

    assert client.get(reverse("arbiter-submit", args=[1])).status_code == 405
    assert client.post(reverse("arbiter-submit", args=[1])).status_code == 403


def test_a_csv_upload_takes_the_event_details_from_the_form(client, arbiter):
    PlayerFactory(code="123456A")
    PlayerFactory(code="234567B")
    client.force_login(arbiter)
    data = b"white,black,result,date\n123456A,234567B,1-0,2026-10-03\n234567B,123456A,1/2-1/2,2026-10-10\n"

    response = upload(
        client,
        data,
        "club.csv",
        code="LEAGUE-26",
        name="Northshire League",
        start_date="2026-10-01",
        end_date="2026-10-31",
        time_control="75+15",
    )

    assert response.status_code == 302, response.content.decode()
    event = Event.objects.get(code="LEAGUE-26")
    assert (event.name, event.rating_list.code) == ("Northshire League", "otb-standard")
    assert list(event.games.values_list("result", flat=True).order_by("date")) == ["1-0", "1/2-1/2"]


def test_a_control_character_in_a_name_is_refused_with_its_line(client, arbiter):
    client.force_login(arbiter)
    hostile = ECF_EXAMPLE.replace(b"Dunn, David", b"Dunn\x1b[31m, David")

    response = upload(client, hostile)

    page = response.content.decode()
    assert "1 error: nothing can be stored until it is fixed" in page
    assert "Line 18: contains the control character U+001B" in page  # the line of "Dunn, David"
    assert not Event.objects.exists() and not Upload.objects.exists()


def test_a_sent_back_event_says_who_sent_it_back_why_and_what_to_do(client, arbiter, officer):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event = Event.objects.get()
    workflow.do_send_back_event(
        workflow.do_submit_event(event, acting_user=arbiter), "Round 3 is missing", acting_user=officer
    )

    page = client.get(reverse("arbiter-event", args=[event.pk])).content.decode()
    form = client.get(reverse("arbiter-upload"), {"code": "NQ241001"}).content.decode()
    mine = client.get(reverse("arbiter-events")).content.decode()

    assert "Sent back by officer on " in page and "Round 3 is missing" in page
    assert 'href="/arbiter/upload/?code=NQ241001">Upload a corrected file</a>' in page
    assert "Submit it again unchanged" in page
    assert 'name="code" value="NQ241001"' in form
    assert "sent back: <strong>needs you</strong>" in mine


def test_an_approved_event_shows_the_federation_record_each_player_became(client, arbiter, officer):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event = approval.do_approve_event(
        workflow.do_submit_event(Event.objects.get(), acting_user=arbiter), acting_user=officer
    )

    page = client.get(reverse("arbiter-event", args=[event.pk])).content.decode()

    dunn = Entry.objects.get(event=event, pin=4).player  # new: registered on approval with a code of its own
    assert f'<a href="/players/{dunn.code}/">Dunn, David ({dunn.code})</a>' in page
    assert '<a href="/events/NQ241001/">its public page</a>' in page


def test_a_file_checked_once_is_kept_so_a_missing_detail_needs_no_second_search(client, arbiter):
    data = (
        "012 Northquay Open\n042 2026/10/03\n052 2026/10/04\n122 90+30\n"
        + trf_player(1, "Abbott, Alice", (2, "w", "1"))
        + "\n"
        + trf_player(2, "Baker, Brian", (1, "b", "0"))
        + "\n"
    )
    client.force_login(arbiter)

    first = upload(client, data.encode(), "open.trf")  # no event code: TRF files carry none
    token = first.context["kept_token"]
    again = client.post(reverse("arbiter-upload"), {"kept": token, "code": "NQ-OPEN"})

    assert "the file gives no event code" in first.content.decode()
    assert "open.trf is kept: leave the file box empty" in first.content.decode()
    assert again.status_code == 302 and Event.objects.get().code == "NQ-OPEN"
    assert Upload.objects.get().original_name == "open.trf"


def test_a_kept_file_is_only_its_arbiters(client, arbiter, other_arbiter):
    client.force_login(arbiter)
    token = upload(client, ECF_EXAMPLE.replace(b"#EVENT CODE=NQ241001", b"#EVENT CODE=")).context["kept_token"]
    client.force_login(other_arbiter)

    response = client.post(reverse("arbiter-upload"), {"kept": token, "code": "STOLEN"})

    assert "Choose the file: the one checked before is no longer kept." in response.content.decode()
    assert not Event.objects.exists()


def test_an_arbiter_has_one_file_kept_at_most_the_latest(client, arbiter):
    client.force_login(arbiter)
    refused_files = [
        ECF_EXAMPLE.replace(b"#EVENT CODE=NQ241001", f"#EVENT CODE=bad code {n}".encode()) for n in range(3)
    ]
    tokens = [upload(client, data).context["kept_token"] for data in refused_files]

    # The latest replaced the ones before: an arbiter holds one file in the cache, not one a check.
    first = client.post(reverse("arbiter-upload"), {"kept": tokens[0], "code": "NQ-FIRST"})
    assert "Choose the file: the one checked before is no longer kept." in first.content.decode()
    latest = client.post(reverse("arbiter-upload"), {"kept": tokens[2], "code": "NQ-LATEST"})
    assert latest.status_code == 302 and Event.objects.get().code == "NQ-LATEST"


def test_an_upload_without_a_file_asks_for_one(client, arbiter):
    client.force_login(arbiter)

    response = client.post(reverse("arbiter-upload"), {"code": "X"})

    assert "Choose the file to upload." in response.content.decode()


def test_an_arbiter_withdraws_an_event_before_approval_and_its_file_and_history_stay(client, arbiter):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event = Event.objects.get()
    assert "Withdraw this event" in client.get(reverse("arbiter-event", args=[event.pk])).content.decode()

    response = client.post(reverse("arbiter-withdraw", args=[event.pk]), follow=True)

    event.refresh_from_db()
    assert event.status == "withdrawn"
    assert "NQ241001 is withdrawn: it will not be rated." in response.content.decode()
    assert event.uploads.count() == 1
    assert [change.status for change in event.changes.all()] == ["uploaded", "checked", "withdrawn"]


def test_an_approved_event_or_another_arbiters_cannot_be_withdrawn(client, arbiter, other_arbiter, officer):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event = Event.objects.get()
    client.force_login(other_arbiter)
    assert client.post(reverse("arbiter-withdraw", args=[event.pk])).status_code == 404
    approval.do_approve_event(workflow.do_submit_event(event, acting_user=arbiter), acting_user=officer)
    client.force_login(arbiter)

    response = client.post(reverse("arbiter-withdraw", args=[event.pk]), follow=True)

    event.refresh_from_db()
    assert event.status == "approved"
    assert "only an event not yet approved can be withdrawn" in response.content.decode()


def test_a_corrected_file_of_another_name_and_dates_says_so_on_the_events_page(client, arbiter, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    renamed = ecf_file(submission_index=2, event_name="Northquay Winter Open")

    response = upload(client, renamed)

    page = " ".join(client.get(response["Location"]).content.decode().split())

    assert "This file changes the event" in page
    assert "name: Northquay Autumn Congress 2026 Open → Northquay Winter Open" in page
