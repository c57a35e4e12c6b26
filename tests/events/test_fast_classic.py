"""Approving an event as fast classic (docs/rules.md part 5, the rate of play): the service, its
refusals and history, the admin's page, and a list rated by fide-2025 rating the event's games
once it is approved."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from chess.months import Month
from events import fast_classic, workflow
from events.models import EventChange
from grading.models import GameNotRated, PlayerRating
from grading.rule_set_changes import do_change_rule_set
from tests.builders import PlayerFactory, approved_event, rating_list, succeeded, take_on

pytestmark = pytest.mark.django_db

OCTOBER_10 = datetime.date(2026, 10, 10)


@pytest.fixture
def clerk(django_user_model):
    """Staff who see and change events, without the permission to approve them."""
    user = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_event", "change_event"]))
    return user


@pytest.fixture
def fide_2025_list():
    """Two established adults rated 1900 (40 games each) on otb-standard, rated by fide-2025 from
    2026-10."""
    for code in ("500001A", "500002A"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 1, 1))
    take_on("otb-standard", "2026-09", "500001A,1900,full,40,76000,20,2026-09", "500002A,1900,full,40,76000,20,2026-09")
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "fide-2025", acting_user=None)


def fast_event(time_control="45 min + 30 s/move"):
    """A game between the two 1900s at 45 minutes and 30 seconds a move: 45 + 60 x 0.5 = 75
    minutes for 60 moves, where a player rated 1800 or more needs 90."""
    return approved_event(
        "FAST", "otb-standard", OCTOBER_10, [("500001A", "500002A", "1-0")], time_control=time_control
    )


def test_an_officer_approves_an_event_as_fast_classic_and_its_history_says_who_and_when(officer, fide_2025_list):
    event = fast_classic.do_approve_fast_classic(fast_event(), acting_user=officer)

    assert event.fast_classic and event.fast_classic_approved_by == officer
    change = EventChange.objects.get(event=event, step="approved as fast classic")
    assert change.by == officer and change.at == event.fast_classic_approved_at
    assert "45 min + 30 s/move" in change.note
    assert fast_classic.approval_text(event).startswith("by officer on ")


def test_a_user_without_the_permission_to_approve_events_is_refused_and_nothing_changes(clerk, fide_2025_list):
    event = fast_event()

    with pytest.raises(workflow.WorkflowError, match="you may not approve an event as fast classic"):
        fast_classic.do_approve_fast_classic(event, acting_user=clerk)

    event.refresh_from_db()
    assert not event.fast_classic and not EventChange.objects.filter(event=event).exists()


def test_an_event_faster_than_45_minutes_and_30_seconds_cannot_be_approved(officer, fide_2025_list):
    with pytest.raises(workflow.WorkflowError, match=r"faster than fast classic: at least 45 min \+ 30 s/move"):
        fast_classic.do_approve_fast_classic(fast_event("45 min + 20 s/move"), acting_user=officer)


def test_withdrawing_the_approval_is_recorded_and_only_an_approval_can_be_withdrawn(officer, fide_2025_list):
    event = fast_classic.do_approve_fast_classic(fast_event(), acting_user=officer)

    event = fast_classic.do_withdraw_fast_classic(event, acting_user=officer)

    assert not event.fast_classic
    assert EventChange.objects.filter(event=event, step="fast classic approval withdrawn").count() == 1
    with pytest.raises(workflow.WorkflowError, match="not approved as fast classic"):
        fast_classic.do_withdraw_fast_classic(event, acting_user=officer)


def test_a_fide_2025_list_rates_a_fast_classic_game_between_1900s_only_once_approved(officer, fide_2025_list, rate):
    event = fast_event()
    succeeded(rate("otb-standard", "2026-10"))
    # Not approved: 75 minutes where a 1900 needs 90, the game not rated for either.
    assert not PlayerRating.objects.filter(month="2026-10").exists()
    assert list(GameNotRated.objects.values_list("reason", flat=True)) == [
        "not rated: the time control gives 75 minutes for 60 moves; a game with a player rated 1800 or more needs 90"
    ]

    fast_classic.do_approve_fast_classic(event, acting_user=officer)
    succeeded(rate("otb-standard", "2026-10"))

    # Approved: rated as standard play. Equals at K 20: 20 x (1 - 0.50) = +10, and -10.
    ratings = dict(
        PlayerRating.objects.filter(month="2026-10", superseded_at=None).values_list("player__code", "rating")
    )
    assert ratings == {"500001A": 1910, "500002A": 1890}


def test_the_admin_page_approves_it_and_is_refused_to_staff_who_may_not_approve(client, officer, clerk, fide_2025_list):
    event = fast_event()
    url = reverse("admin:events_event_fast_classic", args=[event.pk])
    client.force_login(clerk)
    assert client.get(url).status_code == 403

    client.force_login(officer)
    page = client.get(url).content.decode()
    assert "It is not approved as fast classic." in page and 'name="approve"' in page
    response = client.post(url, {"approve": "1"})

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.fast_classic
    change_page = client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()
    assert "Approved as fast classic by officer on" in change_page
    assert "Withdraw the fast classic approval" in change_page
    assert client.get(reverse("admin:events_event_fast_classic", args=[99999])).status_code == 404
