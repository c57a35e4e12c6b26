"""Who reaches which page of the accounts (issue 40): the same six people as the players' and
arbiters' loop (test_role_matrix.py), on every new page and staff screen; each answer what its
role should get, none a server error."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Application, Invitation
from accounts.services.applications import do_apply_for_account
from accounts.services.invitations import do_invite_arbiter
from tests.accounts.test_role_matrix import ROLES, people  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(people):  # noqa: F811
    application = do_apply_for_account("Jane", "Smith", "jane@example.org", "ECF-1", fide_id=4100018, acting_user=None)
    invitation = do_invite_arbiter("sam@example.org", "Sam", "Baker", acting_user=people["administrator"])
    return {"application": application.pk, "invitation": invitation.pk, "uid": "MQ", "token": "abc-def"}


# (method, URL name, its arguments, each role's answer in ROLES' order). 302 for a visitor on the
# account's pages is the login page; the admin sends whoever is not staff to its own login (302).
MATRIX = [
    ("get", "account", [], [302, 200, 200, 200, 200, 200]),
    ("post", "account-email", [], [302, 400, 400, 400, 400, 400]),  # an empty form: its errors
    ("get", "password_change", [], [302, 200, 200, 200, 200, 200]),
    ("get", "password_reset", [], [200] * 6),
    ("get", "password_reset_done", [], [200] * 6),
    ("get", "password_reset_confirm", ["uid", "token"], [200] * 6),  # "This link does not work"
    ("get", "account-set-up", ["uid", "token"], [200] * 6),
    ("get", "account-email-confirm", ["token"], [400] * 6),
    ("get", "account-apply", [], [200] * 6),
    ("get", "account-applied", [], [200] * 6),
    ("get", "admin:accounts_application_changelist", [], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:accounts_application_change", ["application"], [302, 302, 302, 302, 200, 200]),
    ("post", "admin:accounts_application_decide", ["application"], [302, 302, 302, 302, 302, 302]),
    ("get", "admin:accounts_invitation_changelist", [], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:accounts_invitation_add", [], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:accounts_invitation_change", ["invitation"], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:accounts_accountchange_changelist", [], [302, 302, 302, 302, 403, 200]),
]


@pytest.mark.parametrize("method, name, arguments, answers", MATRIX, ids=[row[1] for row in MATRIX])
def test_each_role_gets_what_it_should_of_each_accounts_page(client, people, waiting, method, name, arguments, answers):  # noqa: F811
    got = []
    for role in ROLES:
        client.logout()
        if people[role]:
            client.force_login(people[role])
        got.append(getattr(client, method)(reverse(name, args=[waiting[key] for key in arguments])).status_code)

    assert got == answers


def test_only_an_officer_deciding_approves_an_application(people, waiting):  # noqa: F811
    decide = reverse("admin:accounts_application_decide", args=[waiting["application"]])
    for role in ["visitor", "user", "arbiter", "other arbiter"]:
        client = Client()
        if people[role]:
            client.force_login(people[role])
        client.post(decide, {"approve": "1"})
    assert Application.objects.get().state == "waiting"

    client = Client()
    client.force_login(people["officer"])
    client.post(decide, {"approve": "1"})
    assert Application.objects.get().state == "approved"


def test_only_an_officer_inviting_makes_an_account(people, waiting):  # noqa: F811
    for role in ["visitor", "user", "arbiter", "other arbiter"]:
        client = Client()
        if people[role]:
            client.force_login(people[role])
        client.post(
            reverse("admin:accounts_invitation_add"), {"email": "x@example.org", "forenames": "X", "surname": "Y"}
        )
    assert Invitation.objects.count() == 1

    client = Client()
    client.force_login(people["officer"])
    client.post(reverse("admin:accounts_invitation_add"), {"email": "x@example.org", "forenames": "X", "surname": "Y"})
    assert Invitation.objects.count() == 2
