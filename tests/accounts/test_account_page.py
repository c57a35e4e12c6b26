"""Each user's account page: their password changed, their e-mail address changed only once a
link mailed to the new address (through a real SMTP server) is followed, the old one told."""

import time

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts.links import EMAIL_CHANGE_SALT, address_fingerprint
from accounts.models import AccountChange
from tests.accounts.mails import link_in, text_of

pytestmark = pytest.mark.django_db

OLD, NEW = "arbiter@example.org", "arbiter@new.example.net"


@pytest.fixture
def jane(django_user_model):
    return django_user_model.objects.create_user(
        "jsmith", email=OLD, password="old-horse-battery", first_name="Jane", last_name="Smith"
    )


@pytest.fixture
def logged_in(client, jane):
    client.force_login(jane)
    return client


def ask_for(client, email=NEW, password="old-horse-battery"):
    return client.post(reverse("account-email"), {"email": email, "password": password})


def test_the_account_page_is_for_a_logged_in_user_only(client, jane):
    assert client.get(reverse("account"))["Location"].startswith(reverse("login"))
    client.force_login(jane)

    page = client.get(reverse("account")).content.decode()

    assert "jsmith" in page and "Jane Smith" in page and OLD in page
    assert f'href="{reverse("password_change")}"' in page and 'href="/accounts/">Account</a>' in page


def test_a_new_address_changes_only_once_its_link_is_followed_and_the_old_one_is_told(
    logged_in, jane, inbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        asked = ask_for(logged_in)

    assert asked["Location"] == reverse("account")
    assert (
        "A link to confirm it is mailed to arbiter@new.example.net" in logged_in.get(asked["Location"]).content.decode()
    )
    [message] = inbox.to(NEW)
    assert message["Subject"] == "Confirm your new e-mail address" and "account jsmith" in text_of(message)
    jane.refresh_from_db()
    assert jane.email == OLD
    link = link_in(message, "/accounts/email/confirm/")
    page = Client().get(link)  # a mail program opening the link changes nothing
    assert "is to use <strong>arbiter@new.example.net</strong>" in page.content.decode()
    jane.refresh_from_db()
    assert jane.email == OLD

    with django_capture_on_commit_callbacks(execute=True):
        Client().post(link)

    jane.refresh_from_db()
    assert jane.email == NEW
    [told] = inbox.to(OLD)
    assert told["Subject"] == "Your account's e-mail address was changed"
    assert "its address is now a***@new.example.net" in text_of(told) and NEW not in text_of(told)
    history = list(AccountChange.objects.order_by("pk").values_list("what", "by", "note"))
    assert history == [
        ("email-asked", jane.pk, f"to {NEW}"),
        ("email", jane.pk, f"from {OLD} to {NEW}"),
    ]


def test_a_confirmation_link_used_twice_changes_nothing_the_second_time(
    logged_in, jane, inbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        ask_for(logged_in)
        ask_for(logged_in, email="third@example.com")
    first, second = (
        link_in(inbox.to(address)[0], "/accounts/email/confirm/") for address in (NEW, "third@example.com")
    )
    Client().post(first)

    again, other = Client().post(first), Client().post(second)

    assert again.status_code == other.status_code == 400
    assert "This link has been used, or a newer change was made since" in again.content.decode()
    jane.refresh_from_db()
    assert jane.email == NEW


def test_a_confirmation_link_lasts_a_day(jane):
    """The signature carries the second it was made: 86,399 s old still works, 86,401 s does not
    (the check counts the fraction of the second under way, so 86,400 s is on the edge)."""

    def link_made(seconds_ago):
        class Then(signing.TimestampSigner):
            def timestamp(self):
                return signing.b62_encode(int(time.time()) - seconds_ago)

        payload = {"user": jane.pk, "email": NEW, "was": address_fingerprint(OLD)}
        return reverse("account-email-confirm", args=[Then(salt=EMAIL_CHANGE_SALT).sign_object(payload, compress=True)])

    expired = Client().post(link_made(86401))
    assert expired.status_code == 400 and "This link has expired" in expired.content.decode()
    jane.refresh_from_db()
    assert jane.email == OLD
    Client().post(link_made(86399))
    jane.refresh_from_db()
    assert jane.email == NEW


def test_a_link_tampered_with_opens_nothing(jane):
    payload = {"user": jane.pk, "email": "thief@example.com", "was": address_fingerprint(OLD)}
    forged = signing.dumps(payload, salt="another-salt", compress=True)

    answer = Client().post(reverse("account-email-confirm", args=[forged]))

    assert answer.status_code == 400 and "This link is not one of ours" in answer.content.decode()
    jane.refresh_from_db()
    assert jane.email == OLD


def test_the_change_asks_for_the_password_and_a_wrong_one_sends_nothing(logged_in, jane, inbox):
    answer = ask_for(logged_in, password="guess")

    assert answer.status_code == 400 and "That is not your password." in answer.content.decode()
    assert inbox.messages == [] and not AccountChange.objects.exists()


def test_guessing_the_password_on_the_form_is_paused_after_ten_tries(logged_in, jane, inbox):
    answers = [ask_for(logged_in, password=f"guess-{n}") for n in range(10)]
    paused = ask_for(logged_in)  # even the right one, now

    assert all("That is not your password." in answer.content.decode() for answer in answers)
    assert paused.status_code == 400 and "Too many tries: please try again in an hour." in paused.content.decode()
    assert inbox.messages == []


def test_an_address_another_account_has_by_then_is_refused_at_confirmation(
    logged_in, jane, inbox, django_user_model, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        ask_for(logged_in)
    django_user_model.objects.create_user("other", email=NEW.upper(), password="pw-horse-battery")

    answer = Client().post(link_in(inbox.to(NEW)[0], "/accounts/email/confirm/"))

    assert answer.status_code == 400 and "one address, one account" in answer.content.decode()
    jane.refresh_from_db()
    assert jane.email == OLD


def test_a_hostile_new_address_is_refused(logged_in, inbox):
    for hostile in ("a@b.example\r\nBcc: all@example.org", "<script>@example.org", "x" * 260 + "@example.org"):
        answer = ask_for(logged_in, email=hostile)
        assert answer.status_code == 400 and 'id="id_email_error"' in answer.content.decode()
    assert "is your address already" in ask_for(logged_in, email=OLD.upper()).content.decode()
    assert inbox.messages == []


def test_the_password_is_changed_on_its_page_and_the_user_stays_logged_in(logged_in, jane):
    new = "castle-queenside-1977"
    answer = logged_in.post(
        reverse("password_change"),
        {"old_password": "old-horse-battery", "new_password1": new, "new_password2": new},
    )

    assert answer["Location"] == reverse("account")
    assert "Your password is changed." in logged_in.get(reverse("account")).content.decode()
    jane.refresh_from_db()
    assert jane.check_password(new)
    assert list(AccountChange.objects.values_list("what", "by")) == [("password", jane.pk)]


def test_the_admins_own_password_change_keeps_the_admins_look(client, officer):
    client.force_login(officer)

    page = client.get(reverse("admin:password_change")).content.decode()

    assert "Federation ratings: staff" in page and 'id="site-search-q"' not in page


def test_a_password_set_and_an_address_changed_by_an_administrator_go_into_the_accounts_history(
    client, jane, admin_user
):
    client.force_login(admin_user)
    new = "castle-queenside-1977"
    password_page = reverse("admin:auth_user_password_change", args=[jane.pk])

    wrong = client.post(password_page, {"password1": new, "password2": "other", "set_usable_password": "true"})
    set_ = client.post(password_page, {"password1": new, "password2": new, "set_usable_password": "true"})
    nobody = client.get(reverse("admin:auth_user_password_change", args=["not-a-number"]))

    assert wrong.status_code == 200 and set_.status_code == 302 and nobody.status_code == 404
    jane.refresh_from_db()
    assert jane.check_password(new)
    assert list(AccountChange.objects.values_list("what", "by")) == [("password-set", admin_user.pk)]

    change_page = reverse("admin:auth_user_change", args=[jane.pk])
    form = {"username": "jsmith", "email": NEW, "first_name": "Jane", "last_name": "Smith", "is_active": "on"}
    form |= {"date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"}
    assert client.post(change_page, form).status_code == 302
    assert list(AccountChange.objects.values_list("what", "by", "note")) == [
        ("email", admin_user.pk, "by an administrator"),
        ("password-set", admin_user.pk, ""),
    ]
