"""Who reaches which page of the accounts (issue 40): the same six people as the players' and
arbiters' loop (test_role_matrix.py), on every new page and staff screen; each answer what its
role should get, none a server error."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse

from accounts.links import email_change_token, invitation_tokens, uid
from accounts.models import Application, Invitation
from accounts.services.addresses import USED
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
STAFF_ONLY = [302, 302, 302, 302]
MATRIX = [
    ("get", "account", [], [302, 200, 200, 200, 200, 200, 200]),
    ("post", "account-email", [], [302, 400, 400, 400, 400, 400, 400]),  # an empty form: its errors
    ("get", "password_change", [], [302, 200, 200, 200, 200, 200, 200]),
    ("get", "password_reset", [], [200] * 7),
    ("get", "password_reset_done", [], [200] * 7),
    ("get", "password_reset_confirm", ["uid", "token"], [200] * 7),  # "This link does not work"
    ("get", "account-set-up", ["uid", "token"], [200] * 7),
    ("get", "account-email-confirm", ["token"], [400] * 7),
    ("get", "account-apply", [], [200] * 7),
    ("get", "account-applied", [], [200] * 7),
    ("get", "admin:accounts_application_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:accounts_application_change", ["application"], [*STAFF_ONLY, 200, 200, 403]),
    ("post", "admin:accounts_application_decide", ["application"], [*STAFF_ONLY, 302, 302, 403]),
    ("get", "admin:accounts_invitation_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:accounts_invitation_add", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:accounts_invitation_change", ["invitation"], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:accounts_accountchange_changelist", [], [*STAFF_ONLY, 403, 200, 403]),
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
    for role in ["visitor", "user", "arbiter", "other arbiter", "coordinator"]:
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
    for role in ["visitor", "user", "arbiter", "other arbiter", "coordinator"]:
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


# POSTs to the public pages of the accounts (a reset asked for and its link followed, an
# application, an account set up, a new address confirmed), valid and not, from each role: the
# same answer for each, and the step taken for whichever account the link or form names. Each
# role is a connection of its own (the pages count what one connection asks): 198.51.100.1 to 7.

PASSWORD = {"new_password1": "castle-queenside-1977", "new_password2": "castle-queenside-1977"}
MISMATCHED = {"new_password1": "castle-queenside-1977", "new_password2": "castle-kingside-1977"}
BROKEN = "This link does not work"


def each_role(people, step) -> list:  # noqa: F811
    """``step(client, index)`` for each role, from a client logged in as that role, on a
    connection of its own: what each was answered, in ROLES' order."""
    answers = []
    for index, role in enumerate(ROLES):
        client = Client(HTTP_X_FORWARDED_FOR=f"10.9.9.9, 198.51.100.{index + 1}")
        if people[role]:
            client.force_login(people[role])
        answers.append(answered(step(client, index)))
    return answers


def answered(response) -> tuple:
    """What a role is told: the status, where it is sent, the page's heading and its alerts."""
    text = response.content.decode()
    heading = re.search(r"<h1>(.*?)</h1>", text)
    alerts = re.findall(r'role="alert"[^>]*>(.*?)</', text)
    return response.status_code, response.get("Location"), heading and heading.group(1), alerts


def test_a_reset_is_asked_for_alike_by_each_role_and_each_link_mailed(people, inbox, django_user_model):  # noqa: F811
    for index in range(len(ROLES)):
        django_user_model.objects.create_user(f"target{index}", email=f"target{index}@example.org", password="pw")
    url = reverse("password_reset")

    asked = each_role(people, lambda client, i: client.post(url, {"email": f"Target{i}@example.org"}))
    unknown = each_role(people, lambda client, i: client.post(url, {"email": f"nobody{i}@example.org"}))
    wrong = each_role(people, lambda client, i: client.post(url, {"email": "target0 at example.org"}))

    assert asked == unknown == [(302, reverse("password_reset_done"), None, [])] * 7
    assert wrong == [(200, None, "Reset your password", ["Enter a valid email address."])] * 7
    assert [len(inbox.to(f"target{index}@example.org")) for index in range(7)] == [1] * 7
    assert len(inbox.messages) == 7


def follow(client, link, data):
    """Open a reset or set-up link as a browser does (Django moves its token into the session),
    then send the form."""
    opened = client.get(link)
    return client.post(opened["Location"], data) if opened.status_code == 302 else opened


def test_a_reset_link_sets_its_own_accounts_password_whoever_follows_it(people, django_user_model):  # noqa: F811
    targets = [django_user_model.objects.create_user(f"target{i}", password="old-horse-battery") for i in range(7)]
    links = [reverse("password_reset_confirm", args=[uid(t), default_token_generator.make_token(t)]) for t in targets]

    mismatched = each_role(people, lambda client, i: follow(client, links[i], MISMATCHED))
    done = each_role(people, lambda client, i: follow(client, links[i], PASSWORD))
    again = each_role(people, lambda client, i: follow(client, links[i], PASSWORD))

    assert mismatched == [(200, None, "Set a new password", ["The two password fields didn’t match."])] * 7
    assert done == [(302, reverse("password_reset_complete"), None, [])] * 7
    assert all(
        user.check_password(PASSWORD["new_password1"])
        for user in django_user_model.objects.filter(username__startswith="target")
    )
    refused = "A reset link works once, for a limited time: this one has been used, has expired, or was cut short."
    assert again == [(200, None, BROKEN, [refused])] * 7


def test_a_set_up_link_sets_up_its_own_account_and_logs_whoever_follows_it_into_it(people):  # noqa: F811
    invited = [
        do_invite_arbiter(f"new{i}@example.org", "New", f"Arbiter{i}", acting_user=people["officer"]).user
        for i in range(7)
    ]
    links = [reverse("account-set-up", args=[uid(user), invitation_tokens.make_token(user)]) for user in invited]
    logged_in_as = []

    def set_up(client, index, data):
        answer = follow(client, links[index], data)
        logged_in_as.append(client.get(reverse("alerts")).context["user"].get_username())
        return answer

    mismatched = each_role(people, lambda client, i: set_up(client, i, MISMATCHED))
    done = each_role(people, lambda client, i: set_up(client, i, PASSWORD))
    broken = each_role(
        people, lambda client, i: client.post(reverse("account-set-up", args=["MQ", "abc-def"]), PASSWORD)
    )

    assert mismatched == [(200, None, "Set up your account", ["The two password fields didn’t match."])] * 7
    assert logged_in_as[:7] == ["", "user", "arbiter", "other", "officer", "admin", "coordinator"]  # as they were
    assert done == [(302, reverse("arbiter-events"), None, [])] * 7
    # Whoever was logged in before, the browser that set an account up is logged in to it.
    assert logged_in_as[7:] == [user.username for user in invited]
    assert all(user.has_usable_password() for user in get_user_model().objects.filter(email__startswith="new"))
    refused = (
        "An invitation's link works once, for a limited time: this one has been used, has expired, or was cut short."
    )
    assert broken == [(200, None, BROKEN, [refused])] * 7


def test_a_new_address_is_confirmed_for_its_own_account_whoever_follows_the_link(people, django_user_model):  # noqa: F811
    owners = [django_user_model.objects.create_user(f"owner{i}", f"owner{i}@example.org", "pw") for i in range(7)]
    links = [
        reverse("account-email-confirm", args=[email_change_token(owner, f"new{i}@example.org")])
        for i, owner in enumerate(owners)
    ]

    done = each_role(people, lambda client, i: client.post(links[i]))
    again = each_role(people, lambda client, i: client.post(links[i]))
    forged = each_role(people, lambda client, i: client.post(reverse("account-email-confirm", args=["not-a-link"])))

    # To the login page, whoever was logged in: the account changed is the link's, not theirs.
    assert done == [(302, reverse("login"), None, [])] * 7
    assert [owner.email for owner in django_user_model.objects.filter(username__startswith="owner").order_by("pk")] == [
        f"new{i}@example.org" for i in range(7)
    ]
    assert again == [(400, None, BROKEN, [USED])] * 7
    assert (
        forged
        == [(400, None, BROKEN, ["This link is not one of ours, or it was cut short: open it from the mail again."])]
        * 7
    )


def test_an_owner_logged_in_confirms_their_new_address_and_reads_it_on_their_account_page(people):  # noqa: F811
    arbiter = people["arbiter"]
    client = Client()
    client.force_login(arbiter)

    done = client.post(
        reverse("account-email-confirm", args=[email_change_token(arbiter, "robin@example.org")]), follow=True
    )

    assert done.redirect_chain == [(reverse("account"), 302)]
    page = done.content.decode()
    assert "The account arbiter now has the e-mail address robin@example.org." in page
    assert "<dt>E-mail address</dt><dd>robin@example.org</dd>" in page


def test_an_application_is_taken_alike_from_each_role(people):  # noqa: F811
    def apply(client, index, **changes):
        data = {
            "forenames": "Jane",
            "surname": "Smith",
            "email": f"jane{index}@example.org",
            "identity": "4100018",
            "licence": "ECF/A-1234",
            **changes,
        }
        return client.post(reverse("account-apply"), data)

    refused = each_role(people, lambda client, i: apply(client, i, forenames="Jane<script>", identity="12345"))
    done = each_role(people, lambda client, i: apply(client, i))
    robots = each_role(people, lambda client, i: apply(client, i, email=f"robot{i}@example.org", website="x"))

    errors = ["Letters, spaces, hyphens, apostrophes and full stops only.", "A FIDE ID has 6 to 9 digits."]
    assert refused == [(400, None, "Ask for an arbiter's account", errors)] * 7
    assert done == robots == [(302, reverse("account-applied"), None, [])] * 7
    waiting = Application.objects.filter(email__startswith="jane").order_by("pk").values_list("email", "fide_id")
    assert list(waiting) == [(f"jane{i}@example.org", 4100018) for i in range(7)]
    assert not Application.objects.filter(email__startswith="robot").exists()
