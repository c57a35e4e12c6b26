"""A rating officer uploads an event file in the admin: the arbiters' check and report, the
officer recorded as uploading it, an arbiter (or none) owning the event, then the decision page."""

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import approval, workflow
from events.models import Entry, Event, Game, Upload
from tests.builders import DATA, ECF_EXAMPLE, change_form_data, ecf_file, stored_event, trf, trf_player

pytestmark = pytest.mark.django_db

BROKEN = ECF_EXAMPLE.replace(b"#PIN1=1#SCORE=10#PIN2=2", b"#PIN1=1#SCORE=10#PIN2=9")


def admin_upload(client, data, filename="league.txt", **fields):
    return client.post(reverse("admin:events_event_add"), {"file": SimpleUploadedFile(filename, data), **fields})


def test_a_file_with_errors_uploaded_in_the_admin_shows_its_lines_and_stores_nothing(client, officer):
    client.force_login(officer)

    response = admin_upload(client, BROKEN)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was stored." in page
    assert "1 error: nothing can be stored until it is fixed" in page
    assert "Line 20: the game refers to player 9, who is not in the player list" in page
    assert (Event.objects.count(), Upload.objects.count(), Entry.objects.count(), Game.objects.count()) == (0, 0, 0, 0)


def test_an_officer_uploads_for_an_arbiter_who_sees_the_event_and_another_arbiter_does_not(
    client, officer, arbiter, other_arbiter
):
    client.force_login(officer)

    response = admin_upload(client, ECF_EXAMPLE, arbiter=arbiter.pk)

    event = Event.objects.get(code="NQ241001")
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:events_event_decide", args=[event.pk])
    assert (event.status, event.arbiter, event.uploads.get().uploaded_by) == ("checked", arbiter, officer)
    assert (event.entries.count(), event.games.count(), event.games.filter(rated=True).count()) == (4, 6, 5)
    assert [(change.status, change.by) for change in event.changes.all()] == [
        ("uploaded", officer),
        ("checked", officer),
    ]
    decision = client.get(response["Location"]).content.decode()
    assert "You uploaded its file: approving it records that you submitted it." in decision
    assert 'name="approve" value="Approve for rating"' in decision
    assert "Line 20" not in decision and "Games</dt><dd>6, of which 5 rated" in decision

    client.force_login(arbiter)
    assert "NQ241001" in client.get(reverse("arbiter-events")).content.decode()
    assert client.get(reverse("arbiter-event", args=[event.pk])).status_code == 200
    client.force_login(other_arbiter)
    assert "NQ241001" not in client.get(reverse("arbiter-events")).content.decode()
    assert client.get(reverse("arbiter-event", args=[event.pk])).status_code == 404


def test_approving_an_officers_own_upload_records_that_the_officer_submitted_it(client, officer, arbiter):
    client.force_login(officer)
    event_page = admin_upload(client, ECF_EXAMPLE, arbiter=arbiter.pk)["Location"]

    response = client.post(event_page, {"approve": "Approve for rating", "reason": ""})

    event = Event.objects.get()
    assert response.status_code == 302 and event.status == "approved"
    assert [(change.status, change.by, change.note) for change in event.changes.all()] == [
        ("uploaded", officer, "league.txt, submission 1"),
        ("checked", officer, "1 warning"),
        ("submitted", officer, "submitted by the rating officer who uploaded it"),
        ("approved", officer, ""),
    ]
    assert event.entries.filter(player=None).count() == 0  # its players became records


def test_an_event_uploaded_in_the_admin_may_have_no_arbiter(client, officer):
    client.force_login(officer)

    response = admin_upload(client, ECF_EXAMPLE, arbiter="")

    event = Event.objects.get()
    assert event.arbiter is None and event.uploads.get().uploaded_by == officer
    decision = client.get(response["Location"]).content.decode()
    assert "no arbiter" in decision and 'value="Send back"' in decision
    client.post(response["Location"], {"send_back": "1", "reason": "The dates are wrong."})
    event.refresh_from_db()
    assert event.status == "sent-back"


def test_only_an_arbiter_may_be_named_the_events_owner(client, officer, django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    client.force_login(officer)

    response = admin_upload(client, ECF_EXAMPLE, arbiter=stranger.pk)

    assert "Select a valid choice." in response.content.decode()
    assert not Event.objects.exists()


def test_the_admin_keeps_a_checked_file_for_the_detail_the_form_adds(client, officer):
    client.force_login(officer)
    data = trf(trf_player(1, "Abbott, Alice", (2, "w", "1")), trf_player(2, "Baker, Bob", (1, "b", "0")))

    first = admin_upload(client, data.encode(), "open.trf")  # no event code: TRF files carry none
    again = client.post(reverse("admin:events_event_add"), {"kept": first.context["kept_token"], "code": "NQ-OPEN"})

    assert "the file gives no event code" in first.content.decode()
    assert "open.trf is kept: leave the file box empty" in first.content.decode()
    assert again.status_code == 302 and Event.objects.get().code == "NQ-OPEN"
    assert Upload.objects.get().uploaded_by == officer


def test_an_arbiter_or_a_visitor_cannot_reach_the_admin_upload(client, arbiter):
    assert client.get(reverse("admin:events_event_add")).status_code == 302  # to the login
    admin_upload(client, ECF_EXAMPLE)
    client.force_login(arbiter)
    assert client.get(reverse("admin:events_event_add")).status_code == 302
    admin_upload(client, ECF_EXAMPLE)

    assert not Event.objects.exists()


def test_only_staff_who_may_add_events_see_the_upload_and_reach_it(client, officer, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_event"))
    client.force_login(clerk)

    assert "Upload an event file" not in client.get(reverse("admin:index")).content.decode()
    assert "Upload an event file" not in client.get(reverse("admin:events_event_changelist")).content.decode()
    assert client.get(reverse("admin:events_event_add")).status_code == 403
    assert admin_upload(client, ECF_EXAMPLE).status_code == 403
    assert not Event.objects.exists()

    client.force_login(officer)
    assert "Upload an event file" in client.get(reverse("admin:index")).content.decode()
    assert "Upload an event file" in client.get(reverse("admin:events_event_changelist")).content.decode()
    assert client.get(reverse("admin:events_event_add")).status_code == 200


def test_staff_who_upload_without_deciding_land_on_the_events_page(client, django_user_model):
    loader = django_user_model.objects.create_user("loader", password="pw", is_staff=True)
    loader.user_permissions.add(*Permission.objects.filter(codename__in=["add_event", "view_event"]))
    client.force_login(loader)

    response = admin_upload(client, ECF_EXAMPLE)

    assert response["Location"] == reverse("admin:events_event_change", args=[Event.objects.get().pk])


def test_a_corrected_file_an_officer_uploads_keeps_the_events_arbiter_and_says_so(
    client, arbiter, other_arbiter, officer
):
    stored_event(arbiter, data=ecf_file(submission_index=1))
    client.force_login(officer)

    response = admin_upload(client, ecf_file(submission_index=2), arbiter=other_arbiter.pk)

    event = Event.objects.get()
    assert (event.submission_index, event.arbiter, event.uploads.latest("uploaded_at").uploaded_by) == (
        2,
        arbiter,
        officer,
    )
    page = client.get(response["Location"]).content.decode()
    assert "NQ241001 was stored before: the corrected file keeps its arbiter, not other." in page


def test_an_approved_event_is_replaced_only_once_sent_back(client, arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    client.force_login(officer)

    refused = admin_upload(client, ecf_file(submission_index=2))

    assert "NQ241001 has been approved: send it back first, then upload the corrected file" in (
        refused.content.decode()
    )
    event.refresh_from_db()
    assert (event.status, event.submission_index, event.uploads.count()) == ("approved", 1, 1)

    workflow.do_send_back_event(event, "Board 2 of round 1 was the other way round.", acting_user=officer)
    admin_upload(client, ecf_file(submission_index=2))

    event.refresh_from_db()
    assert (event.status, event.submission_index, event.arbiter, event.uploads.count()) == ("checked", 2, arbiter, 2)


def test_the_events_waiting_for_an_officers_approval_are_the_submitted_ones_and_their_own_uploads(
    client, officer, arbiter, django_user_model
):
    from accounts.roles import RATING_OFFICERS
    from tests.conftest import with_role

    colleague = with_role(django_user_model.objects.create_user("colleague", is_staff=True), RATING_OFFICERS)

    def file(code):
        return ECF_EXAMPLE.replace(b"=NQ241001", f"={code}".encode())

    workflow.do_submit_event(stored_event(arbiter, file("ARBSENT")), acting_user=arbiter)  # submitted by its arbiter
    stored_event(arbiter, file("ARBREAD"))  # checked: its arbiter has not submitted it
    client.force_login(colleague)
    admin_upload(client, file("THEIRS"), arbiter=arbiter.pk)  # checked: the colleague's to approve
    client.force_login(officer)
    admin_upload(client, file("MINE"), arbiter=arbiter.pk)  # checked: the officer's to approve

    home = client.get(reverse("admin:index")).content.decode()
    waiting = client.get(reverse("admin:events_event_changelist") + "?waiting=you").content.decode()

    assert 'href="/admin/events/event/?waiting=you">Events waiting for approval</a>' in home
    assert "submitted by their arbiter or by whoever uploaded their file, and the files you uploaded yourself" in home
    shown = [code for code in ("ARBSENT", "ARBREAD", "THEIRS", "MINE") if f">{code}</a>" in waiting]
    assert shown == ["ARBSENT", "MINE"]
    # Every one of them the officer may approve from its page, and none of the others.
    for event in Event.objects.all():
        decision = client.get(reverse("admin:events_event_decide", args=[event.pk])).content.decode()
        assert ('name="approve"' in decision) == (event.code in shown), event.code
        assert "until it is submitted again, by its arbiter or by whoever\n  uploaded its latest file." in decision


def test_a_game_of_a_forfeited_team_match_corrected_in_the_admin_stays_not_rated(client, admin_user, arbiter):
    data = (DATA / "trf-2026" / "northquay-league-forfeited-match.trf").read_bytes()
    event = stored_event(arbiter, data, code="NQLGE26")
    game = event.games.get(round=3, white_entry__pin=6)  # 1-0 on the board, the match forfeited (record 330)
    client.force_login(admin_user)  # only an administrator corrects a game
    url = reverse("admin:events_game_change", args=[game.pk])

    response = client.post(url, {**change_form_data(client.get(url)), "result": "0-1", "_save": "Save"})

    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.result, game.rated, game.unrated_reason) == ("0-1", False, "the team match was forfeited")
