"""/accounts/mails/: a logged-in user turns each kind of mail their role receives on or off, each
change recorded; a visitor is sent to log in; what the page does not offer cannot be posted."""

import pytest
from django.test import Client
from django.urls import reverse

from mails.choices import choices_of
from mails.models import MailChoice, MailChoiceChange

pytestmark = pytest.mark.django_db

URL = "/accounts/mails/"


def boxes(page) -> list[str]:
    return [field.name for field in page.context["form"]]


def test_the_page_is_at_accounts_mails_and_a_visitor_is_asked_to_log_in(client):
    assert reverse("mail-choices") == URL
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"] == f"{reverse('login')}?next={URL}"


def test_each_role_is_offered_the_kinds_it_receives(client, arbiter, officer, django_user_model):
    client.force_login(arbiter)
    assert boxes(client.get(URL)) == [
        "event-approved",
        "event-sent-back",
        "event-rated",
        "event-held",
        "report-acknowledged",
    ]
    client.force_login(officer)
    assert boxes(client.get(URL)) == ["officer-digest", "report-acknowledged"]
    client.force_login(django_user_model.objects.create_user("reader", "reader@example.net", "pw"))
    page = client.get(URL)
    assert boxes(page) == ["report-acknowledged"]
    assert "What the site mails you at reader@example.net." in page.content.decode()


def test_an_arbiter_turns_approvals_and_acknowledgements_off_and_each_change_is_recorded(client, arbiter):
    arbiter.email = "arbiter@example.net"
    arbiter.save()
    client.force_login(arbiter)
    ticked = {"event-sent-back": "on", "event-rated": "on", "event-held": "on"}

    response = client.post(URL, ticked, follow=True)

    page = response.content.decode()
    assert "Saved. Your event is approved: off; Your error report is received: off." in page
    assert not response.context["form"]["event-approved"].value()
    assert response.context["form"]["event-rated"].value()
    assert choices_of(arbiter) == {
        "event-approved": False,
        "event-sent-back": True,
        "event-rated": True,
        "event-held": True,
        "officer-digest": True,
        "report-acknowledged": False,
    }
    changes = MailChoiceChange.objects.order_by("kind")
    assert list(changes.values_list("kind", "on", "by")) == [
        ("event-approved", False, arbiter.pk),
        ("report-acknowledged", False, arbiter.pk),
    ]

    client.post(URL, ticked)  # the same again: nothing changed, nothing recorded
    client.post(URL, {**ticked, "event-approved": "on"})  # turned on again
    assert MailChoiceChange.objects.count() == 3
    assert MailChoice.objects.get(kind="event-approved").on


def test_a_kind_the_page_does_not_offer_cannot_be_turned_off_by_posting_it(client, arbiter):
    client.force_login(arbiter)

    client.post(URL, {"officer-digest": "", "made-up": "on", "event-approved": "<script>", "event-rated": "on"})

    chosen = choices_of(arbiter)
    assert chosen["officer-digest"] is True  # not an arbiter's to change, so untouched
    assert chosen["event-approved"] is True and chosen["event-held"] is False


def test_the_page_refuses_a_post_without_its_csrf_token(arbiter):
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)

    assert client.post(URL, {}).status_code == 403
    assert not MailChoice.objects.exists()


def test_a_user_without_an_address_is_told_nothing_is_mailed_to_them(client, officer):
    client.force_login(officer)

    assert "Your account has no e-mail address, so nothing is mailed to you" in client.get(URL).content.decode()


def test_a_post_with_no_box_ticked_turns_every_kind_offered_off(client, officer):
    client.force_login(officer)

    assert client.post(URL, {}).status_code == 302

    assert {kind for kind, on in choices_of(officer).items() if not on} == {"officer-digest", "report-acknowledged"}
