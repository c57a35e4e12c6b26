"""Approving the length of an event of more than 90 days (docs/rules.md 16.3): the service, its
refusals and history, new dates clearing it."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from events import lengths, services
from events.models import Event
from events.signals import rated_games_changed
from players.models import Player
from tests.builders import PlayerFactory, approved_event, ecf_file, stored_event

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

    lengths.approve_length(event, officer)

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
        services.WorkflowError,
        match="^the event lasts 90 days: only an event of more than 90 needs its length approved$",
    ):
        lengths.approve_length(ninety, officer)
    lengths.approve_length(ninety_one, officer)

    assert not Event.objects.get(code="NINETY").length_approved
    assert not ninety.changes.exists()
    assert Event.objects.get(code="NINETYONE").length_approved


def test_a_user_without_the_permission_to_approve_events_is_refused_and_nothing_changes(clerk, arbiter):
    event = event_from(JANUARY_5, MAY_4)

    for user in (clerk, arbiter):
        with pytest.raises(
            services.WorkflowError,
            match="^you may not approve the length of an event: it needs the permission to approve events$",
        ):
            lengths.approve_length(event, user)

    event.refresh_from_db()
    assert (event.length_approved_by, event.length_approved_at) == (None, None)
    assert not event.changes.exists()


def test_a_length_approved_already_is_refused_naming_who_approved_it(officer, django_user_model):
    event = event_from(JANUARY_5, MAY_4)
    lengths.approve_length(event, officer)
    other = django_user_model.objects.create_user("second", password="pw", is_superuser=True)

    approved_on = timezone.localdate().strftime("%d/%m/%Y")
    with pytest.raises(
        services.WorkflowError, match=f"^its length was approved already, by officer on {approved_on}: nothing changed$"
    ):
        lengths.approve_length(event, other)

    event.refresh_from_db()
    assert event.length_approved_by == officer
    assert event.changes.count() == 1


def test_withdrawing_an_approval_clears_it_in_the_history_and_only_an_approval_can_be_withdrawn(officer, clerk):
    event = event_from(JANUARY_5, MAY_4)
    with pytest.raises(services.WorkflowError, match="^its length is not approved: there is no approval to withdraw$"):
        lengths.withdraw_length_approval(event, officer)
    lengths.approve_length(event, officer)
    with pytest.raises(services.WorkflowError, match="^you may not withdraw the approval of an event's length"):
        lengths.withdraw_length_approval(event, clerk)

    lengths.withdraw_length_approval(event, officer)

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
            lengths.approve_length(event, officer)
            lengths.withdraw_length_approval(event, officer)
    finally:
        rated_games_changed.disconnect(dispatch_uid="t")

    assert received == []


def test_a_new_upload_with_other_dates_clears_the_approval_and_one_with_the_same_dates_keeps_it(arbiter, officer):
    # The spec's example file run from 1 July: 96 days, to 4 October 2026.
    event = stored_event(arbiter, ecf_file(event_date="01/07/2026"))
    lengths.approve_length(event, officer)

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
