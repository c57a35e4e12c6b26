"""Who may act on a player's personal data (issue 40): the seven people of the role matrix
(test_role_matrix.py) each POST every action of a player's Personal data page, valid and not,
and only those with the permission players.handle_personal_data (the rating officers and the
administrators) export, restrict, lift or erase anything; nor does a staff user without it read
the players' data history, whatever else they may read."""

import datetime
import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from alerts.models import Follow, Follower
from players.models import Player, PlayerChange
from privacy.services import do_restrict_player
from tests.accounts.test_role_matrix import ROLES, people  # noqa: F401 (the fixture)
from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db

BORN = datetime.date(2014, 6, 2)
REASON = "Her mother's letter of 3 November, checked against the club's records."


def posted(action, index, valid=True) -> dict:
    """An action's POST as the page's form sends it, for the junior of the role ``index``; not
    valid, it gives no reason (and an erasure is not ticked as understood)."""
    data = {"action": action, f"{action}-reason": REASON if valid else ""}
    if action in ("export", "erase"):
        data[f"{action}-addresses"] = f"mum{index}@example.net"
    if action == "erase" and valid:
        data["erase-sure"] = "on"
    return data


DONE = {"export": "exported", "restrict": "restricted", "lift": "lifted", "erase": "erased"}
# (birth date, name restricted, follows) after each action
AFTER = {
    "export": (BORN, False, 1),
    "restrict": (BORN, True, 1),
    "lift": (BORN, False, 1),
    "erase": (None, True, 0),
}
# What a role that may not is answered (the officer and the administrator may): the admin's login
# for whoever is not staff, 403 for the coordinator.
REFUSED = {"visitor": 302, "user": 302, "arbiter": 302, "other arbiter": 302, "coordinator": 403}
MAY = {"officer": "officer", "administrator": "admin"}  # role: username


@pytest.fixture
def juniors(people):  # noqa: F811
    """A junior for each role, born on 2 June 2014, followed by her mother's address; the name of
    each restricted already where the action is to lift it."""

    def junior(index, restricted):
        player = PlayerFactory(code=f"40000{index}A", surname=f"Fletcher{index}", forenames="Alice", birth_date=BORN)
        now = timezone.now()
        follower = Follower.objects.create(email=f"mum{index}@example.net", key=f"k{index}", created_at=now)
        Follow.objects.create(follower=follower, kind="player", player=player, created_at=now, confirmed_at=now)
        if restricted:
            do_restrict_player(player, acting_user=people["administrator"], reason="Asked in person.")
        return player

    return lambda restricted: {role: junior(index, restricted) for index, role in enumerate(ROLES)}


def post_as(person, url, data):
    client = Client()
    if person:
        client.force_login(person)
    return client.post(url, data)


def state(player) -> tuple:
    """What an action changes: the record's birth date and restriction, its follows, its history."""
    player = Player.objects.get(pk=player.pk)
    history = list(PlayerChange.objects.filter(player=player).order_by("pk").values_list("action", "by__username"))
    return player.birth_date, player.name_restricted, Follow.objects.filter(player=player).count(), history


def each_role_posts(people, players, action, valid):  # noqa: F811
    """Each role POSTs the action on its own junior: (their answers, each junior's state before)."""
    before = {role: state(player) for role, player in players.items()}
    answers = {}
    for index, (role, player) in enumerate(players.items()):
        url = reverse("admin:players_player_personal_data", args=[player.pk])
        answers[role] = post_as(people[role], url, posted(action, index, valid))
    return answers, before


@pytest.mark.parametrize("action", list(DONE))
def test_only_whoever_may_handle_personal_data_acts_on_it(people, juniors, action):  # noqa: F811
    players = juniors(restricted=action == "lift")

    answers, before = each_role_posts(people, players, action, valid=True)

    assert {role: answers[role].status_code for role in REFUSED} == REFUSED
    assert {role: state(players[role]) for role in REFUSED} == {role: before[role] for role in REFUSED}
    for role, username in MAY.items():
        answer, player = answers[role], players[role]
        *kept, history = state(player)
        assert (tuple(kept), history) == (AFTER[action], [*before[role][3], (DONE[action], username)])
        if action == "export":
            assert answer.status_code == 200
            assert answer["Content-Disposition"].startswith(f'attachment; filename="personal-data-{player.code}-')
            assert json.loads(answer.content)["records"][0]["birth_date"] == "2014-06-02"
        else:
            page = reverse("admin:players_player_personal_data", args=[player.pk])
            assert (answer.status_code, answer["Location"]) == (302, page)


@pytest.mark.parametrize("action", list(DONE))
def test_an_action_without_its_reason_does_nothing_for_anyone(people, juniors, action):  # noqa: F811
    players = juniors(restricted=action == "lift")

    answers, before = each_role_posts(people, players, action, valid=False)

    assert {role: answers[role].status_code for role in REFUSED} == REFUSED
    for role in MAY:
        page = answers[role].content.decode()
        assert answers[role].status_code == 200 and page.count("This field is required.") == (
            2 if action == "erase" else 1
        )
    assert {role: state(player) for role, player in players.items()} == before


def test_staff_given_the_historys_view_permission_alone_do_not_read_it(people, juniors, django_user_model):  # noqa: F811
    """Django's admin offers "Can view player change" beside the players' other permissions: given
    it without players.handle_personal_data, a user reads neither the history (who asked about whose
    data, when and how) nor the Personal data page, and the admin does not list it."""
    alice = juniors(restricted=True)["officer"]
    change = PlayerChange.objects.get(player=alice)
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    for codename in ("view_player", "view_playerchange"):
        clerk.user_permissions.add(Permission.objects.get(content_type__app_label="players", codename=codename))
    client = Client()
    client.force_login(clerk)

    history = [
        reverse("admin:players_playerchange_changelist"),
        reverse("admin:players_playerchange_change", args=[change.pk]),
        reverse("admin:players_player_personal_data", args=[alice.pk]),
    ]
    assert [client.get(url).status_code for url in history] == [403, 403, 403]
    assert "Players&#x27; data history" not in client.get(reverse("admin:index")).content.decode()
    record = client.get(reverse("admin:players_player_change", args=[alice.pk])).content.decode()
    assert record.count("Fletcher") >= 1 and "Personal data" not in record
    client.force_login(people["officer"])
    assert [client.get(url).status_code for url in history] == [200, 200, 200]
    assert "Players&#x27; data history" in client.get(reverse("admin:index")).content.decode()
    assert "Personal data" in client.get(reverse("admin:players_player_change", args=[alice.pk])).content.decode()


def test_the_coordinator_reads_a_players_record_without_its_personal_data_link(people, juniors):  # noqa: F811
    alice = juniors(restricted=False)["coordinator"]
    client = Client()
    client.force_login(people["coordinator"])

    record = client.get(reverse("admin:players_player_change", args=[alice.pk]))

    assert record.status_code == 200 and "Fletcher6" in record.content.decode()
    assert reverse("admin:players_player_personal_data", args=[alice.pk]) not in record.content.decode()
    assert "Personal data" not in record.content.decode()
