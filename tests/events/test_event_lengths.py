"""Approving the length of an event of more than 90 days (docs/rules.md 16.3): the service, its
refusals and history, new dates clearing it, and the admin's action, button and page."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from events import lengths, workflow
from events.models import Event, EventChange
from events.signals import rated_games_changed
from players.models import Player
from tests.builders import PlayerFactory, approved_event, change_form_data, ecf_file, stored_event

pytestmark = pytest.mark.django_db

JANUARY_5, MAY_4 = datetime.date(2026, 1, 5), datetime.date(2026, 5, 4)  # 120 days


def event_from(start, end, code="LONG", status=Event.Status.SUBMITTED):
    """An event of one game on its last day, from ``start`` to ``end``."""
    for player in ("111111A", "222222B"):
        if not Player.objects.filter(code=player).exists():
            PlayerFactory(code=player)
    event = approved_event(code, "otb-standard", end, [("111111A", "222222B", "1-0")], status=status)
    event.start_date = start
    event.save()
    return event


@pytest.fixture
def clerk(django_user_model):
    """Staff who see and change events, without the permission to approve them."""
    user = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_event", "change_event"]))
    return user


def history(event):
    return [(change.status, change.by, change.note) for change in event.changes.all()]


def test_an_officer_approves_the_length_of_a_long_event_and_its_history_says_who_when_and_what(officer):
    event = event_from(JANUARY_5, MAY_4)
    before = timezone.now()

    lengths.do_approve_length(event, acting_user=officer)

    event.refresh_from_db()
    assert event.length_approved and event.length_approved_by == officer
    assert before <= event.length_approved_at <= timezone.now()
    change = event.changes.get()
    assert (change.status, change.by, change.at, change.note) == (
        "submitted",
        officer,
        event.length_approved_at,
        "length of 120 days (2026-01-05 to 2026-05-04) approved for rating on Elo lists",
    )
    assert event.status == "submitted"  # the workflow's own step is unchanged


def test_an_event_of_91_days_needs_its_length_approved_and_one_of_90_does_not(officer):
    ninety = event_from(datetime.date(2026, 1, 1), datetime.date(2026, 3, 31), code="NINETY")
    ninety_one = event_from(datetime.date(2026, 1, 1), datetime.date(2026, 4, 1), code="NINETYONE")

    with pytest.raises(
        workflow.WorkflowError,
        match="^the event lasts 90 days: only an event of more than 90 needs its length approved$",
    ):
        lengths.do_approve_length(ninety, acting_user=officer)
    lengths.do_approve_length(ninety_one, acting_user=officer)

    assert not Event.objects.get(code="NINETY").length_approved
    assert not ninety.changes.exists()
    assert Event.objects.get(code="NINETYONE").length_approved


def test_a_user_without_the_permission_to_approve_events_is_refused_and_nothing_changes(clerk, arbiter):
    event = event_from(JANUARY_5, MAY_4)

    for user in (clerk, arbiter):
        with pytest.raises(
            workflow.WorkflowError,
            match="^you may not approve the length of an event: it needs the permission to approve events$",
        ):
            lengths.do_approve_length(event, acting_user=user)

    event.refresh_from_db()
    assert (event.length_approved_by, event.length_approved_at) == (None, None)
    assert not event.changes.exists()


def test_a_length_approved_already_is_refused_naming_who_approved_it(officer, django_user_model):
    event = event_from(JANUARY_5, MAY_4)
    lengths.do_approve_length(event, acting_user=officer)
    other = django_user_model.objects.create_user("second", password="pw", is_superuser=True)

    approved_on = timezone.localdate().strftime("%d/%m/%Y")
    with pytest.raises(
        workflow.WorkflowError, match=f"^its length was approved already, by officer on {approved_on}: nothing changed$"
    ):
        lengths.do_approve_length(event, acting_user=other)

    event.refresh_from_db()
    assert event.length_approved_by == officer
    assert event.changes.count() == 1


def test_withdrawing_an_approval_clears_it_in_the_history_and_only_an_approval_can_be_withdrawn(officer, clerk):
    event = event_from(JANUARY_5, MAY_4)
    with pytest.raises(workflow.WorkflowError, match="^its length is not approved: there is no approval to withdraw$"):
        lengths.do_withdraw_length_approval(event, acting_user=officer)
    lengths.do_approve_length(event, acting_user=officer)
    with pytest.raises(workflow.WorkflowError, match="^you may not withdraw the approval of an event's length"):
        lengths.do_withdraw_length_approval(event, acting_user=clerk)

    lengths.do_withdraw_length_approval(event, acting_user=officer)

    event.refresh_from_db()
    assert (event.length_approved_by, event.length_approved_at) == (None, None)
    assert history(event)[-1] == (
        "submitted",
        officer,
        "approval of the length of 120 days (2026-01-05 to 2026-05-04) for rating on Elo lists withdrawn",
    )


def test_approving_the_length_of_an_event_not_in_rating_revises_nothing(officer, django_capture_on_commit_callbacks):
    event = event_from(JANUARY_5, MAY_4)
    received = []
    rated_games_changed.connect(lambda **kwargs: received.append(kwargs), weak=False, dispatch_uid="t")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            lengths.do_approve_length(event, acting_user=officer)
            lengths.do_withdraw_length_approval(event, acting_user=officer)
    finally:
        rated_games_changed.disconnect(dispatch_uid="t")

    assert received == []


def test_a_new_upload_with_other_dates_clears_the_approval_and_one_with_the_same_dates_keeps_it(arbiter, officer):
    # The spec's example file run from 1 July: 96 days, to 4 October 2026.
    event = stored_event(arbiter, ecf_file(event_date="01/07/2026"))
    lengths.do_approve_length(event, acting_user=officer)

    stored_event(arbiter, ecf_file(event_date="01/07/2026", submission_index=2))
    event.refresh_from_db()
    assert event.length_approved_by == officer

    stored_event(arbiter, ecf_file(event_date="02/07/2026", submission_index=3))
    event.refresh_from_db()
    assert (event.length_approved_by, event.length_approved_at) == (None, None)
    cleared = event.changes.get(note__startswith="length approval cleared")
    assert (cleared.status, cleared.by, cleared.note) == (
        "checked",
        arbiter,
        "length approval cleared: it was for 96 days (2026-07-01 to 2026-10-04), and the new file gives 95 days "
        "(2026-07-02 to 2026-10-04); approve it again if they are right",
    )
    # In the history between the upload before and this one.
    notes = [change.note for change in event.changes.all()]
    assert notes[-3:] == [cleared.note, "results.txt, submission 3", "1 warning"]


# The admin.


def changelist_action(client, action, events):
    return client.post(
        reverse("admin:events_event_changelist"),
        {"action": action, "_selected_action": [event.pk for event in events]},
        follow=True,
    )


def shown(response):
    return [str(message) for message in response.context["messages"]]


def test_the_changelist_action_approves_the_long_events_and_says_why_it_refuses_the_others(client, officer):
    long = event_from(JANUARY_5, MAY_4)
    short = event_from(datetime.date(2026, 5, 1), MAY_4, code="SHORT")
    client.force_login(officer)

    response = changelist_action(client, "approve_length", [long, short])

    assert response.status_code == 200
    assert sorted(shown(response)) == [
        "LONG: its length of 120 days (2026-01-05 to 2026-05-04) is approved for rating on Elo lists.",
        "SHORT: the event lasts 4 days: only an event of more than 90 needs its length approved",
    ]
    assert Event.objects.get(code="LONG").length_approved_by == officer
    assert not Event.objects.get(code="SHORT").length_approved
    assert (
        "Approve the length of the selected events (over 90 days)"
        in client.get(reverse("admin:events_event_changelist")).content.decode()
    )


def test_staff_without_the_permission_have_no_action_and_nothing_is_approved(client, clerk):
    event = event_from(JANUARY_5, MAY_4)
    client.force_login(clerk)

    assert "Approve the length" not in client.get(reverse("admin:events_event_changelist")).content.decode()
    response = changelist_action(client, "approve_length", [event])

    assert response.status_code == 200  # the list again: no action of theirs was asked for
    assert shown(response) == []
    assert not Event.objects.get().length_approved
    assert not Event.objects.get().changes.exists()


def test_an_officer_approves_and_withdraws_from_the_events_page(client, officer):
    event = event_from(JANUARY_5, MAY_4)
    client.force_login(officer)
    change = reverse("admin:events_event_change", args=[event.pk])
    length = reverse("admin:events_event_length", args=[event.pk])

    page = client.get(change).content.decode()
    assert f'<a href="{length}">Approve the length</a>' in page
    assert "Not approved: the event lasts 120 days, more than 90" in page
    form = client.get(length).content.decode()
    assert "It lasts 120 days, from 05/01/2026 to 04/05/2026." in form
    assert 'value="Approve its length of 120 days"' in form

    response = client.post(length, {"approve": "1"}, follow=True)

    assert response.redirect_chain == [(change, 302)]
    assert shown(response) == [
        "LONG: its length of 120 days (2026-01-05 to 2026-05-04) is approved for rating on Elo lists."
    ]
    today = timezone.localdate().strftime("%d/%m/%Y")
    assert f"Length approved by officer on {today}" in response.content.decode()
    assert f'<a href="{length}">Withdraw the length approval</a>' in response.content.decode()
    assert (
        f"Length approved by officer on {today}."
        in client.get(reverse("admin:events_event_decide", args=[event.pk])).content.decode()
    )

    response = client.post(length, {"withdraw": "1"}, follow=True)

    assert shown(response) == ["LONG: the approval of its length of 120 days (2026-01-05 to 2026-05-04) is withdrawn."]
    assert not Event.objects.get().length_approved
    assert [note for _, _, note in history(event)] == [
        "length of 120 days (2026-01-05 to 2026-05-04) approved for rating on Elo lists",
        "approval of the length of 120 days (2026-01-05 to 2026-05-04) for rating on Elo lists withdrawn",
    ]


def test_the_page_of_a_short_event_offers_no_approval_and_a_crafted_post_is_refused_not_an_error(client, officer):
    event = event_from(datetime.date(2026, 5, 1), MAY_4, code="SHORT")
    client.force_login(officer)
    length = reverse("admin:events_event_length", args=[event.pk])

    page = client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()
    assert length not in page
    assert "Not needed: the event lasts 4 days" in page
    response = client.post(length, {"approve": "1"})

    assert response.status_code == 200
    assert (
        "SHORT: the event lasts 4 days: only an event of more than 90 needs its length approved"
        in response.content.decode()
    )
    assert not Event.objects.get().length_approved
    assert client.get(reverse("admin:events_event_length", args=[event.pk + 100])).status_code == 404


def test_staff_without_the_permission_see_no_button_and_are_forbidden_the_page(client, clerk):
    event = event_from(JANUARY_5, MAY_4)
    client.force_login(clerk)
    length = reverse("admin:events_event_length", args=[event.pk])

    assert length not in client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()
    assert client.get(length).status_code == 403
    assert client.post(length, {"approve": "1"}).status_code == 403
    assert not Event.objects.get().length_approved


def test_an_arbiter_or_a_visitor_never_reaches_the_page(client, arbiter):
    event = event_from(JANUARY_5, MAY_4)
    length = reverse("admin:events_event_length", args=[event.pk])

    assert client.post(length, {"approve": "1"}).status_code == 302  # to the login
    client.force_login(arbiter)
    assert client.post(length, {"approve": "1"}).status_code == 302
    assert not Event.objects.get().length_approved


def test_the_page_of_a_rated_event_shows_its_approval_and_offers_to_withdraw_it(client, officer):
    event = event_from(JANUARY_5, MAY_4, status=Event.Status.RATED)
    lengths.do_approve_length(event, acting_user=officer)
    client.force_login(officer)

    page = client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()

    assert "Length approved by officer on" in page
    assert "Withdraw the length approval" in page  # on the page of an event staff cannot edit
    form = client.get(reverse("admin:events_event_length", args=[event.pk])).content.decode()
    assert "withdrawing the approval revises the months of its games already published" in form


def test_new_dates_given_in_the_admin_clear_the_approval_with_a_history_note(client, officer):
    event = event_from(JANUARY_5, MAY_4)
    lengths.do_approve_length(event, acting_user=officer)
    client.force_login(officer)
    url = reverse("admin:events_event_change", args=[event.pk])

    kept = {**change_form_data(client.get(url)), "name": "Renamed", "_save": "Save"}
    assert client.post(url, kept).status_code == 302
    assert Event.objects.get().length_approved

    moved = {**change_form_data(client.get(url)), "start_date": "2026-04-01", "_save": "Save"}
    assert client.post(url, moved).status_code == 302

    event.refresh_from_db()
    assert not event.length_approved
    assert history(event)[-1] == (
        "submitted",
        officer,
        "length approval cleared: it was for 120 days (2026-01-05 to 2026-05-04), and its dates were changed to "
        "34 days (2026-04-01 to 2026-05-04); 90 days or fewer need none",
    )
    assert EventChange.objects.count() == 2
