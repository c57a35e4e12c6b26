"""An arbiter hears of their event from the site: approved, sent back with the officer's
reason, rated with the publication it is in, held for review (that it awaits review, never
why); each mail once, through a real SMTP server, with the link to turn its kind off."""

import datetime

import pytest

from events import approval, workflow
from events.models import Event
from mails.choices import do_set_mail_choices
from mails.models import Delivery, Occasion
from mails.tasks import mail_event_steps, mail_missed
from tests.builders import PlayerFactory, approved_event, stored_event, succeeded, take_on

pytestmark = pytest.mark.django_db

SITE = "https://ratings.example.org"
CHOICES = f"{SITE}/accounts/mails/"
HOLD_REASON = "Abbott lost all five games to Baker's clubmates: a closed pool, looked into."


@pytest.fixture
def submitted(arbiter, inbox):
    """The ECF example file (a congress of 2026-09), stored and submitted by its arbiter."""
    arbiter.email = "arbiter@example.net"
    arbiter.save()
    PlayerFactory(code="123456A")
    PlayerFactory(code="100000A")
    return workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)


def body(message, kind="plain"):
    return message.get_body((kind,)).get_content()


def test_the_arbiter_is_mailed_once_when_their_event_is_approved(submitted, officer, inbox, mailed):
    with mailed():
        approval.do_approve_event(submitted, acting_user=officer)

    [message] = inbox.to("arbiter@example.net")
    assert message["Subject"] == f"{submitted.name} ({submitted.code}) is approved for rating"
    text = body(message)
    assert f"{submitted.name} ({submitted.code}) is approved for rating by a rating officer." in text
    assert f"Its games are rated on the {submitted.rating_list.name} list" in text
    assert f"Your event: {SITE}/arbiter/events/{submitted.pk}/" in text
    assert f"To turn off mails of this kind, or of any other kind: {CHOICES}" in text
    assert f'<a href="{CHOICES}">Turn off mails of this kind</a>' in body(message, "html")
    assert message["Auto-Submitted"] == "auto-generated"

    mail_event_steps(list(submitted.changes.values_list("pk", flat=True)))  # the task again: nothing
    mail_missed()  # nor beat's
    assert len(inbox.messages) == 1
    delivery = Delivery.objects.get()
    assert (delivery.occasion.kind, delivery.address, delivery.user, delivery.attempts) == (
        "event-approved",
        "arbiter@example.net",
        submitted.arbiter,
        1,
    )
    assert delivery.sent_at is not None and message["Message-ID"].endswith("@ratings.example.org>")


def test_a_sent_back_event_is_mailed_with_the_officers_reason(submitted, officer, inbox, mailed):
    reason = "Round 4, board 2 is 1-0 in the file; the wallchart says 0-1.\nPlease correct and upload it again."
    with mailed():
        workflow.do_send_back_event(submitted, reason, acting_user=officer)

    [message] = inbox.messages
    assert message["Subject"] == f"{submitted.name} ({submitted.code}) is sent back to you"
    assert f"is sent back to you by a rating officer, who says:\n\n{reason}\n" in body(message)
    assert "the wallchart says 0-1.<br>Please correct" in body(message, "html")


def test_a_held_event_is_mailed_that_it_awaits_review_and_never_why(submitted, officer, inbox, mailed):
    with mailed():
        workflow.do_hold_event(submitted, HOLD_REASON, acting_user=officer)

    [message] = inbox.messages
    assert message["Subject"] == f"{submitted.name} ({submitted.code}) awaits review"
    assert "awaits review by the rating officers: it is not rated while it does." in body(message)
    raw = message.as_string()
    for word in ("Abbott", "closed pool", "clubmates", "looked into"):
        assert word not in raw and word not in body(message) and word not in body(message, "html")
    assert Event.objects.get().changes.last().note == HOLD_REASON  # kept for the officers


def test_an_officers_release_and_the_arbiters_own_steps_are_not_mailed(submitted, officer, inbox, mailed):
    with mailed():
        workflow.do_hold_event(submitted, HOLD_REASON, acting_user=officer)
        workflow.do_release_event(submitted, "Checked with the arbiter: the games were played.", acting_user=officer)
        workflow.do_withdraw_event(submitted, acting_user=submitted.arbiter)

    assert [message["Subject"] for message in inbox.messages] == [f"{submitted.name} ({submitted.code}) awaits review"]


def test_an_officer_approving_an_event_they_arbitrate_is_not_mailed_of_their_own_step(officer, inbox, mailed):
    officer.email = "officer@example.net"
    officer.save()
    PlayerFactory(code="123456A")
    PlayerFactory(code="100000A")
    event = stored_event(officer)  # uploaded by the officer, its arbiter

    with mailed():
        approval.do_approve_event(event, acting_user=officer)

    assert inbox.messages == []
    assert Occasion.objects.get().recipients == 0  # decided, and not asked again


def test_an_arbiter_who_turned_approvals_off_is_not_mailed_them_and_still_hears_of_a_send_back(
    submitted, officer, inbox, mailed
):
    do_set_mail_choices(submitted.arbiter, {"event-approved": False}, acting_user=submitted.arbiter)

    with mailed():
        approval.do_approve_event(submitted, acting_user=officer)
        workflow.do_send_back_event(submitted, "The event is in 2025, not 2026.", acting_user=officer)

    assert [message["Subject"] for message in inbox.messages] == [
        f"{submitted.name} ({submitted.code}) is sent back to you"
    ]
    approved = Occasion.objects.get(kind="event-approved")
    assert (approved.recipients, approved.sent, approved.finished_at is not None) == (0, 0, True)


def test_the_arbiter_is_mailed_when_the_monthly_run_rates_their_event_with_its_list_and_month(
    arbiter, rate, inbox, mailed
):
    """Abbott 1500 and Baker 1900, taken on for 2026-09, draw in October: the run of 2026-10
    publishes the OTB standard list, the event becomes rated and its arbiter is told where."""
    arbiter.email = "arbiter@example.net"
    arbiter.save()
    PlayerFactory(code="111111A", surname="Abbott", forenames="Sam")
    PlayerFactory(code="222222B", surname="Baker", forenames="Jo")
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    event = approved_event("OCT-OPEN", "otb-standard", datetime.date(2026, 10, 3), [("111111A", "222222B", "1/2-1/2")])
    Event.objects.filter(pk=event.pk).update(arbiter=arbiter, name="Northquay October Open")

    succeeded(rate("otb-standard", "2026-10"))

    assert Event.objects.get().status == "rated"
    [message] = inbox.to("arbiter@example.net")
    assert message["Subject"] == "Northquay October Open (OCT-OPEN) is rated"
    text = body(message)
    assert (
        "Northquay October Open (OCT-OPEN) is rated: its games are in the OTB standard list for 2026-10, published."
        in text
    )
    assert f"The list: {SITE}/lists/otb-standard/2026-10/\n" in text
    assert f"The event's page: {SITE}/events/OCT-OPEN/\n" in text
    assert f'<a href="{SITE}/lists/otb-standard/2026-10/">OTB standard list for 2026-10</a>' in body(message, "html")
