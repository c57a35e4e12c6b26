"""Who reaches which page of the players' and arbiters' loop (issue 30) and of the role mails and
personal data (issue 40): a visitor, a logged-in user with no role, an arbiter, another arbiter,
a rating officer, an administrator, and a coordinator (staff who may handle events, not personal
data), on every new page and staff screen; each answer what its role should get, none a server
error."""

import datetime
import re

import pytest
from django.db.models import F
from django.urls import reverse

from accounts.roles import ARBITERS, RATING_OFFICERS
from corrections.reporting import send_report
from events.models import Event
from events.tokens import do_create_token
from mails.choices import do_set_mail_choices
from mails.models import Delivery, Kind, MailChoice, MailChoiceChange, Occasion
from privacy.services import do_restrict_player
from tests.builders import PlayerFactory, approved_event

pytestmark = pytest.mark.django_db

ROLES = ["visitor", "user", "arbiter", "other arbiter", "officer", "administrator", "coordinator"]
# The arbiters' coordinator: staff who look after events and look up the players in them, with no
# permission to handle personal data (players.handle_personal_data) nor to read its history.
COORDINATOR = [
    "events.view_event",
    "events.change_event",
    "events.approve_event",
    "events.view_entry",
    "events.view_game",
    "events.view_upload",
    "events.view_eventchange",
    "players.view_player",
]


@pytest.fixture
def people(django_user_model):
    from django.contrib.auth.models import Group, Permission

    def person(name, group=None, permissions=(), **flags):
        user = django_user_model.objects.create_user(name, password="pw", **flags)
        if group:
            user.groups.add(Group.objects.get(name=group))
        for dotted in permissions:
            app_label, codename = dotted.split(".")
            user.user_permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))
        return user

    return {
        "visitor": None,
        "user": person("user"),
        "arbiter": person("arbiter", ARBITERS),
        "other arbiter": person("other", ARBITERS),
        "officer": person("officer", RATING_OFFICERS, is_staff=True),
        "administrator": person("admin", is_staff=True, is_superuser=True),
        "coordinator": person("coordinator", permissions=COORDINATOR, is_staff=True),
    }


@pytest.fixture
def loop(people):
    """The arbiter's event with a report on it, the arbiter's token and mail choice, and a
    player's name restricted (a row of the players' data history)."""
    oakley = PlayerFactory(code="300001A", surname="Oakley")
    PlayerFactory(code="300002B", surname="Quill")
    event = approved_event("LEAGUE", "otb-standard", datetime.date(2026, 10, 3), [("300001A", "300002B", "1-0")])
    event.arbiter = people["arbiter"]
    event.save()
    report = send_report("result", "fan@example.net", "Round 1 was a draw.", event=event)
    token, _ = do_create_token("Swiss Manager", acting_user=people["arbiter"])
    do_set_mail_choices(people["arbiter"], {Kind.APPROVED: False}, acting_user=people["arbiter"])
    change = do_restrict_player(oakley, acting_user=people["officer"], reason="His letter of 2 November.")
    return {
        "event": event.pk,
        "report": report.pk,
        "token": token.pk,
        "player": oakley.pk,
        "setting": 1,
        "choice": MailChoice.objects.get().pk,
        "choice change": MailChoiceChange.objects.get().pk,
        "change": change.pk,
    }


@pytest.fixture
def mailed(loop, smtp_server, django_capture_on_commit_callbacks):
    """The loop, and a report's acknowledgement mailed through a real SMTP server: a role mail's
    occasion and its delivery."""
    with django_capture_on_commit_callbacks(execute=True):
        send_report("result", "parent@example.net", "Board 2 was a draw.", event=Event.objects.get())
    assert len(smtp_server.inbox.to("parent@example.net")) == 1
    return {**loop, "occasion": Occasion.objects.get().pk, "delivery": Delivery.objects.get(sent_at__isnull=False).pk}


# (method, URL name, its arguments from the loop) and each role's answer, in ROLES' order. 302
# for a visitor is the login page; the admin sends whoever is not staff to its own login (302),
# and answers staff without the permission 403.
STAFF_ONLY = [302, 302, 302, 302]
MATRIX = [
    ("get", "arbiter-api-tokens", [], [302, 403, 200, 200, 403, 200, 403]),
    ("post", "arbiter-revoke-api-token", ["token"], [302, 403, 302, 404, 403, 404, 403]),
    ("get", "arbiter-event", ["event"], [302, 403, 200, 404, 403, 200, 403]),
    ("get", "admin:corrections_report_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:corrections_report_change", ["report"], [*STAFF_ONLY, 200, 200, 403]),
    ("post", "admin:corrections_report_answer", ["report"], [*STAFF_ONLY, 302, 302, 403]),
    ("get", "admin:events_apitoken_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:alerts_follower_changelist", [], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:grading_gamenotrated_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "alerts", [], [200] * 7),
    ("get", "report-error", [], [404] * 7),  # about nothing: a player or an event is named
    # The role mails (issue 40): each user's own choices (test_each_role_chooses_its_own_mails
    # below); the record of what was sent and chosen, read only, the administrators'.
    ("get", "mail-choices", [], [302, 200, 200, 200, 200, 200, 200]),
    ("post", "mail-choices", [], [302, 302, 302, 302, 302, 302, 302]),  # saved, and back to the page
    ("get", "admin:mails_occasion_changelist", [], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:mails_delivery_changelist", [], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:mails_mailchoice_changelist", [], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:mails_mailchoice_change", ["choice"], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:mails_mailchoicechange_changelist", [], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:mails_mailchoicechange_change", ["choice change"], [*STAFF_ONLY, 403, 200, 403]),
    # Personal data (issue 40): the privacy page is everyone's; a player's data and its history
    # are for whoever may handle personal data (a POST naming no action is answered with the page
    # again; each action's POST: test_role_matrix_personal_data.py); the setting is the
    # administrators' to change, the officers' to read. The coordinator reads a player's record,
    # not their data's history.
    ("get", "privacy", [], [200] * 7),
    ("get", "admin:players_player_change", ["player"], [*STAFF_ONLY, 200, 200, 200]),
    ("get", "admin:players_player_personal_data", ["player"], [*STAFF_ONLY, 200, 200, 403]),
    ("post", "admin:players_player_personal_data", ["player"], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:players_privacysetting_change", ["setting"], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:players_privacysetting_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:players_playerchange_changelist", [], [*STAFF_ONLY, 200, 200, 403]),
    ("get", "admin:players_playerchange_change", ["change"], [*STAFF_ONLY, 200, 200, 403]),
]


# The pages of a mail sent (the mailed fixture: a real SMTP server each).
MAILED = [
    ("get", "admin:mails_occasion_change", ["occasion"], [*STAFF_ONLY, 403, 200, 403]),
    ("get", "admin:mails_delivery_change", ["delivery"], [*STAFF_ONLY, 403, 200, 403]),
]


def answers_of(client, people, method, url) -> list[int]:
    got = []
    for role in ROLES:
        client.logout()
        if people[role]:
            client.force_login(people[role])
        data = {"state": "in-hand"} if url.endswith("/answer/") else {}
        got.append(getattr(client, method)(url, data).status_code)
    return got


@pytest.mark.parametrize("method, name, arguments, answers", MATRIX, ids=[row[1] for row in MATRIX])
def test_each_role_gets_what_it_should_of_each_page(client, people, loop, method, name, arguments, answers):
    url = reverse(name, args=[loop[key] for key in arguments])

    assert answers_of(client, people, method, url) == answers


@pytest.mark.parametrize("method, name, arguments, answers", MAILED, ids=[row[1] for row in MAILED])
def test_each_role_gets_what_it_should_of_each_mail_sent(client, people, mailed, method, name, arguments, answers):
    url = reverse(name, args=[mailed[key] for key in arguments])

    assert answers_of(client, people, method, url) == answers


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


# The kinds of mail each role is offered on /accounts/mails/ (mails.choices.offered_kinds).
ARBITERS_KINDS = [Kind.APPROVED, Kind.SENT_BACK, Kind.RATED, Kind.HELD]
OFFERED = {
    "user": [Kind.ACKNOWLEDGED],
    "arbiter": [*ARBITERS_KINDS, Kind.ACKNOWLEDGED],
    "other arbiter": [*ARBITERS_KINDS, Kind.ACKNOWLEDGED],
    "officer": [Kind.DIGEST, Kind.ACKNOWLEDGED],
    "administrator": [*ARBITERS_KINDS, Kind.DIGEST, Kind.ACKNOWLEDGED],  # may be named an event's arbiter
    "coordinator": [Kind.DIGEST, Kind.ACKNOWLEDGED],  # staff who may approve events
}


def test_each_role_is_offered_its_own_mails_and_turns_off_only_its_own(client, people, loop):
    url = reverse("mail-choices")
    offered, sent_to = {}, {}
    for role in ROLES:
        client.logout()
        if people[role]:
            client.force_login(people[role])
        page = client.get(url).content.decode()
        offered[role] = re.findall(r'<input type="checkbox" name="([a-z-]+)"', page)
        # Every kind ticked but the acknowledgement, and another user named: only the role's own
        # choices change, and only of the kinds it is offered.
        ticked = {kind: "on" for kind in Kind.values if kind != Kind.ACKNOWLEDGED}
        sent_to[role] = client.post(url, {**ticked, "user": people["officer"].pk})["Location"]

    assert offered == {"visitor": [], **OFFERED}
    assert sent_to == dict.fromkeys(ROLES, url) | {"visitor": f"{reverse('login')}?next={url}"}
    # The arbiter's approvals, off since the loop, are on again: a row says so.
    chosen = MailChoice.objects.order_by("user__pk", "kind").values_list("user__username", "kind", "on")
    assert list(chosen) == [
        ("user", Kind.ACKNOWLEDGED, False),
        ("arbiter", Kind.APPROVED, True),
        ("arbiter", Kind.ACKNOWLEDGED, False),
        ("other", Kind.ACKNOWLEDGED, False),
        ("officer", Kind.ACKNOWLEDGED, False),
        ("admin", Kind.ACKNOWLEDGED, False),
        ("coordinator", Kind.ACKNOWLEDGED, False),
    ]
    assert not MailChoiceChange.objects.exclude(by=F("user")).exists()
