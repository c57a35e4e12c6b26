"""A reporter of an error is mailed its reference at once, through a real SMTP server: only what
our records say, never the words they sent (the form must not carry anyone's text to anyone's
inbox); a reporter with an account may turn it off, one without is told there is nothing to."""

import datetime
import re

import pytest
from django.urls import reverse

from corrections.models import Report
from mails.choices import do_set_mail_choices
from mails.models import Occasion
from tests.builders import PlayerFactory, approved_event

pytestmark = pytest.mark.django_db

MESSAGE = "Round 1: Bob won, not Ann. Visit http://cheap-pills.example/ now!"


@pytest.fixture
def league():
    PlayerFactory(code="300001A", surname="Oakley", forenames="Ann")
    PlayerFactory(code="300002B", surname="Quill", forenames="Bob")
    return approved_event("LEAGUE", "otb-standard", datetime.date(2026, 10, 3), [("300001A", "300002B", "1-0")])


def report(client, email, mailed, query="?player=300001A"):
    data = {"kind": "result", "message": MESSAGE, "email": email, "event": "LEAGUE"}
    with mailed():
        return client.post(reverse("report-error") + query, data)


def test_a_reporter_is_mailed_the_reference_of_their_report_and_nothing_of_what_they_wrote(
    client, league, inbox, mailed
):
    page = report(client, "Parent@Example.net", mailed)

    sent = Report.objects.get()
    assert f"Your report's reference is {sent.reference}." in page.content.decode()
    assert "An acknowledgement with its reference is mailed to parent@example.net" in page.content.decode()
    [message] = inbox.to("parent@example.net")
    assert message["Subject"] == f"Your report {sent.reference} is received"
    text = message.get_body(("plain",)).get_content()
    assert text.startswith(
        f"We have received your report {sent.reference} (a result is wrong) about Oakley, Ann (300001A) in "
        "LEAGUE (LEAGUE).\n"
    )
    assert f"give its reference: {sent.reference}." in text
    assert "Not you? Someone gave this address" in text
    assert "there is nothing to turn off" in text and "/accounts/mails/" not in text
    for part in (message.as_string(), text, message.get_body(("html",)).get_content()):
        assert "cheap-pills" not in part and "Bob won" not in part
    assert re.fullmatch(rf"<report-acknowledged\.{sent.pk}\.\d+@ratings\.example\.org>", message["Message-ID"])


def test_a_reporter_with_an_account_is_given_the_link_to_turn_it_off_and_once_off_is_not_mailed(
    client, league, inbox, mailed, arbiter
):
    arbiter.email = "arbiter@example.net"
    arbiter.save()

    report(client, "ARBITER@example.net", mailed)
    do_set_mail_choices(arbiter, {"report-acknowledged": False}, acting_user=arbiter)
    report(client, "arbiter@example.net", mailed)

    [message] = inbox.messages
    assert "To turn off mails of this kind, or of any other kind: https://ratings.example.org/accounts/mails/" in (
        message.get_body(("plain",)).get_content()
    )
    assert list(Occasion.objects.order_by("pk").values_list("recipients", "sent")) == [(1, 1), (0, 0)]


def test_a_robot_filling_the_honeypot_is_told_a_reference_and_nothing_is_mailed(client, league, inbox, mailed):
    data = {"kind": "result", "message": MESSAGE, "email": "victim@example.net", "website": "http://spam.example"}
    with mailed():
        page = client.post(reverse("report-error") + "?event=LEAGUE", data)

    assert "Your report's reference is" in page.content.decode()
    assert inbox.messages == [] and not Report.objects.exists()
