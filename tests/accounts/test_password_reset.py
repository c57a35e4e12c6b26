"""A password reset by e-mail: Django's own views, the link mailed through a real SMTP server,
working once, for its own account, for PASSWORD_RESET_TIMEOUT (a day); and the same answer
whether or not an account has the address."""

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse

from accounts.links import uid
from accounts.models import AccountChange
from tests.accounts.mails import link_in, text_of
from tests.ports import free_port

pytestmark = pytest.mark.django_db

ADDRESS = "arbiter@example.org"
NEW = {"new_password1": "castle-queenside-1977", "new_password2": "castle-queenside-1977"}


@pytest.fixture
def arbiter(django_user_model):
    return django_user_model.objects.create_user("jsmith", email=ADDRESS, password="old-horse-battery")


def ask(client, address, connection="198.51.100.7"):
    return client.post(reverse("password_reset"), {"email": address}, HTTP_X_FORWARDED_FOR=f"10.9.9.9, {connection}")


def set_password(client, link):
    """Open the link as a browser does (it moves the token into the session and the address to
    .../set-password/), then send the form: the last answer."""
    opened = client.get(link)
    if opened.status_code != 302:
        return opened
    return client.post(opened["Location"], NEW)


def test_a_reset_link_mailed_through_the_smtp_server_sets_a_new_password(client, inbox, arbiter):
    answer = ask(client, ADDRESS)

    assert answer.status_code == 302 and answer["Location"] == reverse("password_reset_done")
    [message] = inbox.to(ADDRESS)
    assert message["Subject"] == "Reset your password"
    assert "your account jsmith" in text_of(message) and "within 24 hours" in text_of(message)
    assert message.get_body(("html",)) is not None
    done = set_password(client, link_in(message, "/accounts/reset/"))
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    arbiter.refresh_from_db()
    assert arbiter.check_password(NEW["new_password1"])
    assert list(AccountChange.objects.values_list("username", "what", "by")) == [("jsmith", "reset", arbiter.pk)]


def test_a_reset_link_used_twice_opens_nothing_the_second_time(client, inbox, arbiter):
    ask(client, ADDRESS)
    link = link_in(inbox.to(ADDRESS)[0], "/accounts/reset/")
    set_password(client, link)

    again = Client().get(link, follow=True)

    assert "This link does not work" in again.content.decode()
    assert "has been used, has expired" in again.content.decode()


def test_a_reset_link_for_one_account_opens_nothing_for_another(client, inbox, arbiter, django_user_model):
    other = django_user_model.objects.create_user("other", email="other@example.org", password="x-horse-battery")
    ask(client, ADDRESS)
    link = link_in(inbox.to(ADDRESS)[0], "/accounts/reset/")
    token = link.rstrip("/").rsplit("/", 1)[1]

    answer = set_password(client, reverse("password_reset_confirm", args=[uid(other), token]))

    assert answer.status_code == 200 and "This link does not work" in answer.content.decode()
    other.refresh_from_db()
    assert other.check_password("x-horse-battery")


def test_a_reset_link_works_for_a_day_and_not_a_second_more(client, arbiter, monkeypatch):
    """The token carries the second it was made: one made 86,400 s ago (PASSWORD_RESET_TIMEOUT)
    still works, one made 86,401 s ago does not (the clock held at one moment, as for an
    invitation)."""
    tokens = default_token_generator
    moment = tokens._now()
    monkeypatch.setattr(tokens, "_now", lambda: moment)
    now = tokens._num_seconds(moment)
    day_old = tokens._make_token_with_timestamp(arbiter, now - 86400, settings.SECRET_KEY)
    too_old = tokens._make_token_with_timestamp(arbiter, now - 86401, settings.SECRET_KEY)

    expired = set_password(Client(), reverse("password_reset_confirm", args=[uid(arbiter), too_old]))
    assert "This link does not work" in expired.content.decode()
    in_time = set_password(client, reverse("password_reset_confirm", args=[uid(arbiter), day_old]))
    assert in_time.status_code == 302
    arbiter.refresh_from_db()
    assert arbiter.check_password(NEW["new_password1"])


def test_the_answer_is_the_same_whether_or_not_an_account_has_the_address(client, inbox, arbiter):
    known = ask(Client(), ADDRESS)
    unknown = ask(Client(), "nobody@example.org")

    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known.content == unknown.content
    page = client.get(known["Location"]).content.decode()
    assert "If an account has that address, a link to reset its password is on its way." in page
    assert [message["X-RcptTo"] for message in inbox.messages] == [ADDRESS]


def test_no_link_goes_to_an_inactive_account_or_one_with_no_password_yet(client, inbox, django_user_model):
    django_user_model.objects.create_user("gone", email="gone@example.org", password="pw-horse", is_active=False)
    waiting = django_user_model.objects.create_user("new", email="new@example.org")
    waiting.set_unusable_password()
    waiting.save()

    assert ask(client, "gone@example.org").status_code == 302
    assert ask(client, "new@example.org").status_code == 302
    assert inbox.messages == []


def test_an_address_is_mailed_three_links_an_hour_at_most_and_the_answer_does_not_change(client, inbox, arbiter):
    answers = {ask(Client(), ADDRESS, connection=f"198.51.100.{n}")["Location"] for n in range(5)}

    assert answers == {reverse("password_reset_done")}
    assert len(inbox.to(ADDRESS)) == 3


def test_one_connection_asking_again_and_again_is_paused_for_an_hour(client, arbiter):
    answers = [ask(client, f"someone{n}@example.org").status_code for n in range(11)]

    assert answers == [302] * 10 + [200]
    assert "Too many resets asked for from your connection" in ask(client, ADDRESS).content.decode()


def test_the_login_page_links_to_the_reset_and_the_reset_page_is_the_sites(client):
    login = client.get(reverse("login")).content.decode()
    page = client.get(reverse("password_reset")).content.decode()

    assert f'href="{reverse("password_reset")}">Forgotten your password?' in login
    assert 'id="site-search-q"' in page and "The link works once, for 24 hours." in page


def test_with_the_mail_server_away_the_answer_is_still_the_same(client, settings, arbiter):
    """Tasks run in process here (no broker): the task's failure must not show on the page, or
    the page would tell that an account has the address."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 1

    known, unknown = ask(Client(), ADDRESS), ask(Client(), "nobody@example.org")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("password_reset_done")


def test_a_link_mailed_before_the_account_was_made_inactive_opens_nothing(client, inbox, arbiter):
    ask(client, ADDRESS)
    arbiter.is_active = False
    arbiter.save()

    answer = set_password(client, link_in(inbox.to(ADDRESS)[0], "/accounts/reset/"))

    assert "This link does not work" in answer.content.decode()


def test_the_admins_login_links_to_the_same_reset(client):
    login = client.get("/admin/login/").content.decode()

    assert 'href="/admin/password_reset/">Forgotten your login credentials?' in login
    assert client.get("/admin/password_reset/")["Location"] == reverse("password_reset")
