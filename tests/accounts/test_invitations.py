"""An officer invites an arbiter by e-mail: the account made, its link mailed through a real SMTP
server, working once, for its account, for INVITATION_TIMEOUT (seven days); sent again on an
officer's word; who invited recorded."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse

from accounts.links import invitation_tokens, uid
from accounts.models import AccountChange, Invitation
from accounts.roles import ARBITERS
from accounts.services.invitations import do_invite_arbiter
from accounts.services.making import AccountRefused
from tests.accounts.mails import link_in, text_of

pytestmark = pytest.mark.django_db

PASSWORD = {"new_password1": "castle-queenside-1977", "new_password2": "castle-queenside-1977"}
SEVEN_DAYS = 7 * 86400


@pytest.fixture
def officers(officer):
    client = Client()
    client.force_login(officer)
    return client


def invite(officers, **changes):
    data = {"email": "sam@example.org", "forenames": "Sam", "surname": "Baker", **changes}
    return officers.post(reverse("admin:accounts_invitation_add"), data)


def set_up(client, link, data=PASSWORD):
    opened = client.get(link)
    if opened.status_code != 302:
        return opened
    return client.post(opened["Location"], data)


def test_an_invited_arbiter_sets_a_password_and_lands_on_their_events(
    client, officers, officer, inbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = invite(officers)

    assert answer["Location"] == reverse("admin:accounts_invitation_changelist")
    invitation = Invitation.objects.get()
    sam = invitation.user
    assert (invitation.invited_by, sam.username, sam.email) == (officer, "sam.baker", "sam@example.org")
    assert invitation.expires_at == invitation.sent_at + datetime.timedelta(days=7)
    assert list(sam.groups.values_list("name", flat=True)) == [ARBITERS] and not sam.is_staff
    [message] = inbox.to("sam@example.org")
    assert message["Subject"] == "You are invited to upload results"
    assert "Your username is sam.baker." in text_of(message) and "within 7 days" in text_of(message)

    landed = set_up(client, link_in(message, "/accounts/welcome/"))

    assert landed["Location"] == reverse("arbiter-events")
    assert client.get(reverse("arbiter-events")).status_code == 200
    invitation.refresh_from_db()
    assert invitation.accepted_at is not None
    assert list(AccountChange.objects.order_by("pk").values_list("what", "by")) == [
        ("invited", officer.pk),
        ("set-up", sam.pk),
    ]
    changelist = officers.get(reverse("admin:accounts_invitation_changelist")).content.decode()
    assert "set up " in changelist and officer.username in changelist


def test_an_invitations_link_used_twice_opens_nothing_the_second_time(
    officers, inbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invite(officers)
    link = link_in(inbox.to("sam@example.org")[0], "/accounts/welcome/")
    set_up(Client(), link)

    again = set_up(Client(), link, {"new_password1": "taken-over-1234", "new_password2": "taken-over-1234"})

    assert again.status_code == 200 and "This link does not work" in again.content.decode()
    assert Invitation.objects.get().user.check_password(PASSWORD["new_password1"])


def test_an_invitation_lasts_seven_days_and_not_a_second_more(officer, monkeypatch):
    """The token carries the second it was made: 604,800 s (INVITATION_TIMEOUT) old still
    works, 604,801 s old does not. The clock is held at one moment: a second that passes between
    making the tokens and checking them would age both."""
    moment = invitation_tokens._now()
    monkeypatch.setattr(invitation_tokens, "_now", lambda: moment)
    sam = do_invite_arbiter("sam@example.org", "Sam", "Baker", acting_user=officer).user
    now = invitation_tokens._num_seconds(moment)
    week_old = invitation_tokens._make_token_with_timestamp(sam, now - SEVEN_DAYS, settings.SECRET_KEY)
    too_old = invitation_tokens._make_token_with_timestamp(sam, now - SEVEN_DAYS - 1, settings.SECRET_KEY)

    expired = set_up(Client(), reverse("account-set-up", args=[uid(sam), too_old]))
    assert "This link does not work" in expired.content.decode()
    assert "Expired? Ask the rating officers to send it again." in expired.content.decode()
    assert set_up(Client(), reverse("account-set-up", args=[uid(sam), week_old]))["Location"] == "/arbiter/"


def test_an_invitations_link_is_no_reset_link_nor_a_reset_link_an_invitations(officer, django_user_model):
    sam = do_invite_arbiter("sam@example.org", "Sam", "Baker", acting_user=officer).user
    other = django_user_model.objects.create_user("other", email="o@example.org", password="pw-horse-battery")

    as_reset = set_up(Client(), reverse("password_reset_confirm", args=[uid(sam), invitation_tokens.make_token(sam)]))
    as_set_up = set_up(
        Client(), reverse("account-set-up", args=[uid(other), default_token_generator.make_token(other)])
    )
    for another in (other, sam):  # one account's token on another's address
        token = invitation_tokens.make_token(sam if another is other else other)
        assert (
            "This link does not work"
            in set_up(Client(), reverse("account-set-up", args=[uid(another), token])).content.decode()
        )

    assert "This link does not work" in as_reset.content.decode()
    assert "This link does not work" in as_set_up.content.decode()
    sam.refresh_from_db()
    assert not sam.has_usable_password()


def test_the_link_is_sent_again_lasting_from_the_new_mail(officers, officer, inbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        invite(officers)
    first_sent = Invitation.objects.get().sent_at

    with django_capture_on_commit_callbacks(execute=True):
        officers.post(
            reverse("admin:accounts_invitation_changelist"),
            {"action": "send_again", "_selected_action": [Invitation.objects.get().pk]},
        )

    assert len(inbox.to("sam@example.org")) == 2
    assert Invitation.objects.get().sent_at > first_sent
    assert AccountChange.objects.filter(what="link-again", by=officer).count() == 1


def test_an_address_with_an_account_is_not_invited_and_the_officer_is_told_why(officers, django_user_model):
    django_user_model.objects.create_user("samb", email="SAM@example.org", password="pw-horse-battery")

    answer = invite(officers)

    assert answer.status_code == 400
    assert "An account already has the address sam@example.org: samb, in use." in answer.content.decode()
    assert not Invitation.objects.exists()


def test_an_invitation_not_set_up_is_sent_again_rather_than_made_twice(officer):
    do_invite_arbiter("sam@example.org", "Sam", "Baker", acting_user=officer)

    with pytest.raises(AccountRefused, match="not yet set up. Send its link again from the invitations instead."):
        do_invite_arbiter("sam@example.org", "Samuel", "Baker", acting_user=officer)


def test_a_hostile_name_is_refused_on_the_invitation_too(officers):
    answer = invite(officers, surname='Baker"><img src=x onerror=alert(1)>')

    assert (
        answer.status_code == 400
        and "Letters, spaces, hyphens, apostrophes and full stops only." in answer.content.decode()
    )
    assert not Invitation.objects.exists()


def test_only_an_officer_invites(arbiter, client):
    client.force_login(arbiter)

    assert client.post(reverse("admin:accounts_invitation_add"), {"email": "x@example.org"}).status_code == 302
    with pytest.raises(AccountRefused, match="Only a rating officer invites an arbiter."):
        do_invite_arbiter("x@example.org", "X", "Y", acting_user=arbiter)
    assert not Invitation.objects.exists()


def test_two_invitations_of_one_name_get_usernames_of_their_own(officer):
    first = do_invite_arbiter("sam@example.org", "Sam", "Baker", acting_user=officer)
    second = do_invite_arbiter("sam.baker@example.net", "Samantha", "Baker", acting_user=officer)
    third = do_invite_arbiter("s@example.com", "Sam", "Baker", acting_user=officer)

    assert [first.user.username, second.user.username, third.user.username] == [
        "sam.baker",
        "samantha.baker",
        "sam.baker2",
    ]
