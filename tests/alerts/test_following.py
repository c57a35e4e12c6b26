"""Following by e-mail: double opt-in (the confirmation mail, and nothing else, until its link is
followed), the page of one's alerts, one-click unsubscribe, and the abuse the form meets."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from alerts.follows import forget_unconfirmed
from alerts.letters import unsubscribe_token
from alerts.models import Follow, Follower
from tests.builders import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

ADDRESS = "parent@example.net"


@pytest.fixture
def ann():
    return PlayerFactory(
        code="300001A", surname="Oakley", forenames="Ann", club=ClubFactory(code="NQC", name="Northquay")
    )


def ask(client, query, address=ADDRESS, **extra):
    return client.post(reverse("alerts-follow") + query, {"email": address, **extra})


def link_in(message, kind):
    text = message.get_body(("plain",)).get_content()
    return re.search(rf"https://ratings\.example\.org(/alerts/[\w-]+/{kind}/)", text).group(1)


def test_asking_to_follow_mails_a_confirmation_and_nothing_is_confirmed_until_its_link(client, inbox, ann):
    response = ask(client, "?player=300001A")

    assert response.status_code == 200 and "Check your inbox" in response.content.decode()
    [message] = inbox.to(ADDRESS)
    assert message["Subject"] == "Confirm your rating alerts"
    assert "player: Oakley, Ann" in message.get_body(("plain",)).get_content()
    assert message.get_body(("html",)) is not None
    follow = Follow.objects.get()
    assert (follow.kind, follow.player, follow.confirmed_at) == ("player", ann, None)

    confirm = link_in(message, "confirm")
    assert "Oakley, Ann" in client.get(confirm).content.decode()
    assert Follow.objects.get().confirmed_at is None  # opening the link (a mail scanner) confirms nothing
    client.post(confirm, {"follow": [follow.pk]})
    assert Follow.objects.get().confirmed_at is not None


def test_a_second_ask_within_ten_minutes_sends_no_second_mail_and_the_first_link_confirms_both(client, inbox, ann):
    ask(client, "?player=300001A")
    ask(client, "?club=NQC")

    [message] = inbox.to(ADDRESS)
    page = client.get(link_in(message, "confirm")).content.decode()
    client.post(link_in(message, "confirm"), {"follow": re.findall(r'name="follow" value="(\d+)"', page)})
    assert Follow.objects.filter(confirmed_at__isnull=False).count() == 2


def test_the_confirmation_confirms_what_its_page_showed_and_not_what_was_asked_since(client, inbox, ann):
    ask(client, "?player=300001A")
    [message] = inbox.to(ADDRESS)
    page = client.get(link_in(message, "confirm")).content.decode()
    ask(client, "?club=NQC")  # someone else, after the page was read

    client.post(link_in(message, "confirm"), {"follow": re.findall(r'name="follow" value="(\d+)"', page)})

    assert list(Follow.objects.filter(confirmed_at__isnull=False).values_list("kind", flat=True)) == ["player"]
    assert Follow.objects.get(kind="club").confirmed_at is None


def test_an_address_that_never_confirms_is_mailed_three_times_then_once_a_day_and_the_page_says_so(client, inbox, ann):
    for _ in range(3):
        ask(Client(), "?player=300001A")
        Follower.objects.update(link_sent_at=timezone.now() - datetime.timedelta(minutes=11))
    assert len(inbox.to(ADDRESS)) == 3

    # The owner, asking after a stranger's three: told that no mail went, why, and until when.
    response = ask(Client(), "?player=300001A")
    page = response.content.decode()
    assert response.status_code == 200 and "No new mail was sent" in page
    assert "3 confirmation mails that nobody has answered yet" in page
    again = timezone.localtime(Follower.objects.get().link_sent_at + datetime.timedelta(days=1))
    assert f"Another can be asked for from {again:%H:%M} on {again.day} {again:%b}" in page
    assert "is on its way" not in page and len(inbox.to(ADDRESS)) == 3

    Follower.objects.update(link_sent_at=timezone.now() - datetime.timedelta(days=1, minutes=1))  # a day on
    assert "is on its way" in ask(Client(), "?player=300001A").content.decode()
    assert len(inbox.to(ADDRESS)) == 4
    assert "No new mail was sent" in ask(Client(), "?player=300001A").content.decode()


def test_a_second_ask_within_ten_minutes_says_no_mail_went_and_when_one_can_be_asked_for(client, inbox, ann):
    ask(client, "?player=300001A")

    page = ask(client, "?club=NQC").content.decode()

    assert "No new mail was sent" in page and "went to it less than 10 minutes ago: its link confirms this too" in page
    again = timezone.localtime(Follower.objects.get().link_sent_at + datetime.timedelta(minutes=10))
    assert f"Another can be asked for from {again:%H:%M} on {again.day} {again:%b}" in page
    assert "is on its way" not in page and len(inbox.to(ADDRESS)) == 1


def test_the_manage_page_confirms_what_waits_for_confirmation(client, inbox, ann):
    ask(client, "?player=300001A")
    Follow.objects.update(confirmed_at=timezone.now())
    ask(client, "?list=otb-standard")
    follower = Follower.objects.get()
    page = client.get(reverse("alerts-manage", args=[follower.key])).content.decode()
    confirm = reverse("alerts-confirm", args=[follower.key])
    waiting = Follow.objects.get(kind="list")
    assert f'action="{confirm}"' in page and f'name="follow" value="{waiting.pk}"' in page

    client.post(confirm, {"follow": [waiting.pk]})

    assert Follow.objects.filter(confirmed_at=None).count() == 0


def test_asking_for_what_is_followed_already_sends_nothing(client, inbox, ann):
    ask(client, "?player=300001A")
    Follow.objects.update(confirmed_at=timezone.now())
    Follower.objects.update(link_sent_at=None)
    inbox.clear()

    assert ask(client, "?player=300001A").status_code == 200
    assert inbox.messages == []


def test_follows_never_confirmed_are_forgotten_after_thirty_days(client, inbox, ann):
    ask(client, "?player=300001A")
    ask(client, "?list=otb-standard", "other@example.net")
    Follow.objects.filter(kind="list").update(confirmed_at=timezone.now())

    assert forget_unconfirmed(timezone.now() + datetime.timedelta(days=31)) == 1
    assert list(Follower.objects.values_list("email", flat=True)) == ["other@example.net"]


def test_the_honeypot_filled_in_is_answered_as_a_person_would_be_and_nothing_is_stored(client, inbox, ann):
    response = ask(client, "?player=300001A", website="http://spam.example")

    assert response.status_code == 200 and "Check your inbox" in response.content.decode()
    assert not Follower.objects.exists() and inbox.messages == []


def test_one_connection_asking_again_and_again_is_stopped(client, inbox, ann, settings):
    for number in range(20):
        ask(client, "?player=300001A", f"reader{number}@example.net")

    response = ask(client, "?player=300001A", "reader20@example.net")

    assert response.status_code == 400
    assert "Too many requests from your connection" in response.content.decode()
    assert Follower.objects.count() == 20


@pytest.mark.parametrize(
    "query, status",
    [
        ("?player=999999Z", 404),
        ("?club=%00", 400),
        ("?club=NOPE", 404),
        ("?list=" + "x" * 5000, 404),
        ("", 404),
        ("?player=", 404),
    ],
)
def test_following_nothing_of_ours_is_a_404(client, query, status):
    assert client.get(reverse("alerts-follow") + query).status_code == status


@pytest.mark.parametrize(
    "address, message",
    [
        ("not an address", "Enter a valid email address."),
        ("a@b", "Enter a valid email address."),
        ("<script>@example.net", "Enter a valid email address."),
        ("x" * 300 + "@example.net", "Ensure this value has at most 254 characters (it has 312)."),
    ],
)
def test_a_wrong_address_is_refused_and_nothing_stored(client, inbox, ann, address, message):
    response = ask(client, "?player=300001A", address)

    assert response.status_code == 400 and message in response.content.decode()
    assert not Follower.objects.exists() and inbox.messages == []


def test_the_form_needs_its_csrf_token(ann):
    response = ask(Client(enforce_csrf_checks=True), "?player=300001A")

    assert response.status_code == 403 and not Follower.objects.exists()


def test_the_manage_page_lists_the_follows_and_stops_one(client, inbox, ann):
    ask(client, "?player=300001A")
    ask(client, "?list=otb-standard")
    follower = Follower.objects.get()
    page = client.get(reverse("alerts-manage", args=[follower.key])).content.decode()
    assert "Oakley, Ann" in page and "OTB standard" in page and "to confirm" in page

    player_follow = Follow.objects.get(kind="player")
    client.post(reverse("alerts-remove", args=[follower.key, player_follow.pk]))

    assert list(Follow.objects.values_list("kind", flat=True)) == ["list"]


def test_one_address_cannot_stop_anothers_follow(client, inbox, ann):
    ask(client, "?player=300001A")
    ask(client, "?player=300001A", "other@example.net")
    mine, theirs = Follower.objects.get(email=ADDRESS), Follower.objects.get(email="other@example.net")

    client.post(reverse("alerts-remove", args=[mine.key, theirs.follows.get().pk]))

    assert theirs.follows.exists()


def test_a_key_or_token_that_is_not_ours_is_a_404(client, inbox, ann):
    ask(client, "?player=300001A")
    follower = Follower.objects.get()
    for key in ["nope", "x" * 64, "x" * 500]:
        assert client.get(reverse("alerts-manage", args=[key])).status_code == 404
        assert client.post(reverse("alerts-unsubscribe", args=[follower.pk, key])).status_code == 404
    # The key does not stop the alerts: the unsubscribe link's token does, and opens nothing else.
    assert client.post(reverse("alerts-unsubscribe", args=[follower.pk, follower.key])).status_code == 404
    assert client.get(reverse("alerts-manage", args=[unsubscribe_token(follower)])).status_code == 404
    assert client.post(f"/alerts/unsubscribe/{'9' * 30}/{unsubscribe_token(follower)}/").status_code == 404
    assert follower.follows.exists()


def test_the_one_click_unsubscribe_is_a_post_from_a_mail_program_with_no_csrf_token(client, inbox, ann):
    ask(client, "?player=300001A")
    follower = Follower.objects.get()
    program = Client(enforce_csrf_checks=True)

    address = reverse("alerts-unsubscribe", args=[follower.pk, unsubscribe_token(follower)])
    opened = program.get(address)
    assert opened.status_code == 200 and follower.follows.exists()  # a GET stops nothing
    response = program.post(
        address,
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200 and "will get no more rating alerts" in response.content.decode()
    assert not follower.follows.exists()


def test_the_manage_link_is_mailed_only_to_an_address_that_follows_something(client, inbox, ann):
    client.post(reverse("alerts"), {"email": "stranger@example.net"})
    assert inbox.messages == []
    ask(client, "?player=300001A")
    inbox.clear()
    Follower.objects.update(link_sent_at=None)
    client.post(reverse("alerts"), {"email": ADDRESS})
    assert inbox.messages == []  # it has confirmed nothing: only the confirmation goes to it

    Follow.objects.update(confirmed_at=timezone.now())
    Follower.objects.update(link_sent_at=None)
    response = client.post(reverse("alerts"), {"email": ADDRESS.upper()})

    assert "Check your inbox" in response.content.decode()
    [message] = inbox.to(ADDRESS)
    assert message["Subject"] == "Your rating alerts"
    assert Follower.objects.get().key in message.get_body(("plain",)).get_content()


def test_a_mail_server_down_says_so_and_the_address_may_ask_again(client, smtp_server, ann):
    smtp_server.stop()

    response = ask(client, "?player=300001A")

    assert response.status_code == 400
    assert "The mail cannot be sent just now" in response.content.decode()
    assert Follower.objects.get().link_sent_at is None
    smtp_server.start()
    assert ask(client, "?player=300001A").status_code == 200
    assert len(smtp_server.inbox.to(ADDRESS)) == 1
