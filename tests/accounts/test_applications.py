"""An arbiter asks for an account on the public form; a rating officer approves it (the account
made, its link mailed through a real SMTP server, the arbiter setting a password and landing on
their events) or declines it (the reason mailed). Hostile input is refused field by field."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import AccountChange, Application, Invitation
from accounts.roles import ARBITERS
from accounts.services.applications import do_approve_application, do_decline_application
from accounts.services.making import AccountRefused
from mails.models import Delivery
from mails.tasks import mail_missed
from tests.accounts.mails import link_in, text_of
from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db

JANE = {
    "forenames": "Jane",
    "surname": "O'Connor-Smith",
    "email": "jane@example.org",
    "identity": "300001A",
    "licence": "ECF/A-1234",
}
PASSWORD = {"new_password1": "castle-queenside-1977", "new_password2": "castle-queenside-1977"}


@pytest.fixture
def jane_on_record():
    return PlayerFactory(code="300001A", surname="O'Connor-Smith", forenames="Jane")


def apply(client, connection="198.51.100.7", **changes):
    return client.post(reverse("account-apply"), {**JANE, **changes}, HTTP_X_FORWARDED_FOR=f"10.9.9.9, {connection}")


def decide(client, application, **data):
    return client.post(reverse("admin:accounts_application_decide", args=[application.pk]), data)


def test_an_approved_arbiter_sets_a_password_from_the_mail_and_lands_on_their_events(
    client, inbox, officer, jane_on_record, django_capture_on_commit_callbacks, django_user_model
):
    assert apply(client)["Location"] == reverse("account-applied")
    application = Application.objects.get()
    assert (application.player, application.player_code, application.state) == (jane_on_record, "300001A", "waiting")
    assert inbox.messages == []  # nothing is mailed until an officer decides

    officers = Client()
    officers.force_login(officer)
    with django_capture_on_commit_callbacks(execute=True):
        decide(officers, application, approve="1")

    application.refresh_from_db()
    jane = application.user
    assert (application.state, application.decided_by, jane.username) == ("approved", officer, "jane.oconnor-smith")
    assert not jane.has_usable_password() and list(jane.groups.values_list("name", flat=True)) == [ARBITERS]
    [message] = inbox.to("jane@example.org")
    assert message["Subject"] == "Your arbiter's account is approved"
    assert "Your username is jane.oconnor-smith." in text_of(message)
    opened = client.get(link_in(message, "/accounts/welcome/"))
    page = client.get(opened["Location"]).content.decode()
    assert "Your username is <strong>jane.oconnor-smith</strong>" in page
    landed = client.post(opened["Location"], PASSWORD)
    assert landed["Location"] == reverse("arbiter-events")
    assert client.get(reverse("arbiter-events")).status_code == 200
    jane.refresh_from_db()
    assert jane.check_password(PASSWORD["new_password1"])
    assert Invitation.objects.get().accepted_at is not None
    history = AccountChange.objects.order_by("at", "pk").values_list("what", "by")
    assert list(history) == [("approved", officer.pk), ("set-up", jane.pk)]


def test_a_declined_application_mails_its_reason_and_records_who_and_when(
    inbox, officer, jane_on_record, django_capture_on_commit_callbacks
):
    apply(Client())
    officers = Client()
    officers.force_login(officer)
    changelist = reverse("admin:accounts_application_changelist")
    with django_capture_on_commit_callbacks(execute=True):
        officers.post(
            changelist,
            {
                "action": "decline",
                "_selected_action": [Application.objects.get().pk],
                "reason": "We have no arbiter licence ECF/A-1234: send a copy of yours.",
            },
        )

    application = Application.objects.get()
    assert (application.state, application.decided_by) == ("declined", officer)
    assert application.decided_at is not None and application.user is None
    [message] = inbox.to("jane@example.org")
    assert message["Subject"] == "Your application for an account"
    assert "We have no arbiter licence ECF/A-1234: send a copy of yours." in text_of(message)
    assert "This is the one mail about this request" in text_of(message)


def test_a_decline_whose_message_was_lost_is_mailed_by_beat_once(inbox, officer, jane_on_record):
    apply(Client())
    # Declined, and its commit's message never sent (the broker away): nothing mailed yet.
    do_decline_application(Application.objects.get(), "No licence of that number.", acting_user=officer)
    assert inbox.messages == []

    mail_missed()  # beat's, a quarter of an hour later
    mail_missed()

    [message] = inbox.to("jane@example.org")
    assert "No licence of that number." in text_of(message)
    delivery = Delivery.objects.get()
    assert (delivery.occasion.kind, delivery.occasion.subject) == (
        "application-declined",
        str(Application.objects.get().pk),
    )


def test_a_decline_says_why_or_is_refused(client, officer, jane_on_record):
    apply(Client())
    client.force_login(officer)

    answer = decide(client, Application.objects.get(), reason="  ")

    assert Application.objects.get().state == "waiting"
    assert "Say why: the reason is mailed to the applicant." in client.get(answer["Location"]).content.decode()


def test_an_application_is_decided_once(officer, jane_on_record):
    apply(Client())
    application = do_approve_application(Application.objects.get(), acting_user=officer)

    with pytest.raises(AccountRefused, match="It was approved on .* already."):
        do_decline_application(application, "Too late", acting_user=officer)


def test_an_address_that_has_an_account_already_is_not_given_a_second(officer, jane_on_record, django_user_model):
    django_user_model.objects.create_user("jane", email="Jane@Example.org", password="pw-horse-battery")
    apply(Client())

    with pytest.raises(AccountRefused, match="An account already has the address jane@example.org: jane, in use."):
        do_approve_application(Application.objects.get(), acting_user=officer)
    assert django_user_model.objects.count() == 2  # the officer and jane


def test_an_arbiter_cannot_approve_an_application(client, arbiter, jane_on_record):
    apply(Client())
    client.force_login(arbiter)

    answer = decide(client, Application.objects.get(), approve="1")

    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
    assert Application.objects.get().state == "waiting"
    with pytest.raises(AccountRefused, match="Only a rating officer"):
        do_approve_application(Application.objects.get(), acting_user=arbiter)


def test_a_second_application_from_one_address_gets_the_same_answer_and_is_not_stored(client, jane_on_record):
    first, second = apply(Client()), apply(Client(), licence="ECF/A-9999")

    assert first["Location"] == second["Location"] == reverse("account-applied")
    assert Application.objects.get().licence == "ECF/A-1234"


def test_a_fide_id_is_taken_without_a_record_and_a_record_with_it(client):
    assert apply(client, identity="4100018")["Location"] == reverse("account-applied")
    application = Application.objects.get()
    assert (application.fide_id, application.player, application.player_code) == (4100018, None, "")


HOSTILE = [
    ("forenames", "<script>alert(1)</script>", "Letters, spaces, hyphens, apostrophes and full stops only."),
    ("surname", "Smith" * 21, "Ensure this value has at most 100 characters (it has 105)."),
    ("forenames", "Jane\x07", "A name has no control characters"),
    ("surname", "Smith\u202etxt.exe", "A name has no control characters"),
    ("surname", "Smith\x00", "Null characters are not allowed."),
    ("surname", "1234", "Letters, spaces, hyphens, apostrophes and full stops only."),
    ("email", "jane@example.org\r\nBcc: all@example.org", "Enter a valid email address."),
    ("email", "j" * 250 + "@example.org", "Ensure this value has at most 254 characters"),
    ("identity", "999999A", "No player has the federation code 999999A"),
    ("identity", "12345", "A FIDE ID has 6 to 9 digits."),
    ("identity", "<b>1</b>", "Give your FIDE ID (6 to 9 digits) or your federation code (such as 123456A)."),
    ("identity", "１２３４５６７", "Give your FIDE ID"),  # full-width digits are not a FIDE ID
    ("licence", "'; DROP TABLE users; --", "Letters, digits, spaces, hyphens, slashes and full stops only"),
    ("licence", "A" * 31, "Ensure this value has at most 30 characters (it has 31)."),
]


@pytest.mark.parametrize("field, value, message", HOSTILE, ids=[f"{row[0]}-{n}" for n, row in enumerate(HOSTILE)])
def test_each_hostile_field_is_refused_with_a_message_of_its_own(client, jane_on_record, field, value, message):
    answer = apply(client, **{field: value})

    page = answer.content.decode()
    assert answer.status_code == 400
    assert f'id="id_{field}_error">' in page and message in page
    assert "<script>alert" not in page and "<b>1</b>" not in page  # what was typed is escaped
    assert not Application.objects.exists()


def test_a_robot_filling_the_hidden_field_is_answered_as_a_person_and_nothing_is_stored(client, jane_on_record):
    assert apply(client, website="https://spam.example")["Location"] == reverse("account-applied")
    assert not Application.objects.exists()


def test_one_connection_applies_five_times_a_day_at_most(client, jane_on_record):
    answers = [apply(client, email=f"arbiter{n}@example.org").status_code for n in range(6)]

    assert answers == [302] * 5 + [400]
    assert "Too many applications from your connection today" in apply(client, email="x@example.org").content.decode()
    assert Application.objects.count() == 5


def test_the_officers_see_waiting_applications_from_the_admins_home(client, officer, jane_on_record):
    apply(Client())
    client.force_login(officer)

    home = client.get(reverse("admin:index")).content.decode()
    waiting = client.get(reverse("admin:accounts_application_changelist") + "?state__exact=waiting")

    assert "Applications for accounts" in home and "Invite an arbiter" in home
    assert "O&#x27;Connor-Smith" in waiting.content.decode() and "300001A" in waiting.content.decode()
    assert Group.objects.get(name="Rating officers").permissions.filter(codename="decide_application").exists()
