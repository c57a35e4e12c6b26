"""Who reaches which page of the players' and arbiters' loop (issue 30): a visitor, a logged-in
user with no role, an arbiter, another arbiter, a rating officer and an administrator, on every
new page and staff screen; each answer what its role should get, none a server error."""

import datetime

import pytest
from django.urls import reverse

from accounts.roles import ARBITERS, RATING_OFFICERS
from corrections.reporting import send_report
from events.tokens import do_create_token
from tests.builders import PlayerFactory, approved_event

pytestmark = pytest.mark.django_db

ROLES = ["visitor", "user", "arbiter", "other arbiter", "officer", "administrator"]


@pytest.fixture
def people(django_user_model):
    from django.contrib.auth.models import Group

    def person(name, group=None, **flags):
        user = django_user_model.objects.create_user(name, password="pw", **flags)
        if group:
            user.groups.add(Group.objects.get(name=group))
        return user

    return {
        "visitor": None,
        "user": person("user"),
        "arbiter": person("arbiter", ARBITERS),
        "other arbiter": person("other", ARBITERS),
        "officer": person("officer", RATING_OFFICERS, is_staff=True),
        "administrator": person("admin", is_staff=True, is_superuser=True),
    }


@pytest.fixture
def loop(people):
    """The arbiter's event with a report on it, and the arbiter's token."""
    oakley = PlayerFactory(code="300001A", surname="Oakley")
    PlayerFactory(code="300002B", surname="Quill")
    event = approved_event("LEAGUE", "otb-standard", datetime.date(2026, 10, 3), [("300001A", "300002B", "1-0")])
    event.arbiter = people["arbiter"]
    event.save()
    report = send_report("result", "fan@example.net", "Round 1 was a draw.", event=event)
    token, _ = do_create_token("Swiss Manager", acting_user=people["arbiter"])
    return {"event": event.pk, "report": report.pk, "token": token.pk, "player": oakley.pk, "setting": 1}


# (method, URL name, its arguments from the loop) and each role's answer, in ROLES' order. 302
# for a visitor is the login page; the admin sends whoever is not staff to its own login (302).
MATRIX = [
    ("get", "arbiter-api-tokens", [], [302, 403, 200, 200, 403, 200]),
    ("post", "arbiter-revoke-api-token", ["token"], [302, 403, 302, 404, 403, 404]),
    ("get", "arbiter-event", ["event"], [302, 403, 200, 404, 403, 200]),
    ("get", "admin:corrections_report_changelist", [], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:corrections_report_change", ["report"], [302, 302, 302, 302, 200, 200]),
    ("post", "admin:corrections_report_answer", ["report"], [302, 302, 302, 302, 302, 302]),
    ("get", "admin:events_apitoken_changelist", [], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:alerts_follower_changelist", [], [302, 302, 302, 302, 403, 200]),
    ("get", "admin:grading_gamenotrated_changelist", [], [302, 302, 302, 302, 200, 200]),
    ("get", "alerts", [], [200] * 6),
    ("get", "mail-choices", [], [302, 200, 200, 200, 200, 200]),
    ("post", "mail-choices", [], [302, 302, 302, 302, 302, 302]),  # saved, and back to the page
    ("get", "admin:mails_occasion_changelist", [], [302, 302, 302, 302, 403, 200]),
    ("get", "report-error", [], [404] * 6),  # about nothing: a player or an event is named
    # Personal data (issue 40): the privacy page is everyone's; a player's data is the officers'
    # (a POST naming no action is answered with the page again); the setting is the
    # administrators' to change, the officers' to read.
    ("get", "privacy", [], [200] * 6),
    ("get", "admin:players_player_personal_data", ["player"], [302, 302, 302, 302, 200, 200]),
    ("post", "admin:players_player_personal_data", ["player"], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:players_privacysetting_change", ["setting"], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:players_privacysetting_changelist", [], [302, 302, 302, 302, 200, 200]),
    ("get", "admin:players_playerchange_changelist", [], [302, 302, 302, 302, 200, 200]),
]


@pytest.mark.parametrize("method, name, arguments, answers", MATRIX, ids=[row[1] for row in MATRIX])
def test_each_role_gets_what_it_should_of_each_page(client, people, loop, method, name, arguments, answers):
    got = []
    for role in ROLES:
        client.logout()
        if people[role]:
            client.force_login(people[role])
        data = {"state": "in-hand"} if name.endswith("answer") else {}
        got.append(getattr(client, method)(reverse(name, args=[loop[key] for key in arguments]), data).status_code)

    assert got == answers


def test_only_an_officer_answering_moves_a_report(client, people, loop):
    from corrections.models import Report

    for role in ["visitor", "user", "arbiter"]:
        client.logout()
        if people[role]:
            client.force_login(people[role])
        client.post(reverse("admin:corrections_report_answer", args=[loop["report"]]), {"state": "resolved"})
    assert Report.objects.get().state == "new"

    client.force_login(people["officer"])
    client.post(reverse("admin:corrections_report_answer", args=[loop["report"]]), {"state": "in-hand"})
    assert Report.objects.get().state == "in-hand"


def test_only_an_administrator_changes_the_privacy_setting(client, people, loop):
    from players.models import PrivacySetting

    url = reverse("admin:players_privacysetting_change", args=[1])
    for role in ["officer", "administrator"]:
        client.force_login(people[role])
        client.post(url, {"age_shown": "birth-year" if role == "officer" else "nothing", "requests_to": ""})
        # The officer's POST changes nothing (a read-only page); the administrator's saves.
        assert PrivacySetting.objects.get().age_shown == ("band" if role == "officer" else "nothing")


def test_only_its_arbiter_revokes_a_token_on_the_arbiters_page(client, people, loop):
    from events.models import ApiToken

    client.force_login(people["other arbiter"])
    client.post(reverse("arbiter-revoke-api-token", args=[loop["token"]]))
    assert ApiToken.objects.get().active

    client.force_login(people["arbiter"])
    client.post(reverse("arbiter-revoke-api-token", args=[loop["token"]]))
    assert not ApiToken.objects.get().active
