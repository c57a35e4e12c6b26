"""An event of more than 90 days on a list rated by the Elo method (docs/rules.md 16.3): left out
until a rating officer approves its length, then rated in the revision of its month; the
approval withdrawn, left out again."""

import datetime

import pytest
from django.urls import reverse

from events import lengths
from events.models import Event
from grading.models import GameNotRated, PlayerRating, RatingPeriod, RatingRun
from tests.builders import elo_federation, elo_october, succeeded

pytestmark = pytest.mark.django_db


def ratings():
    """A, B and D's latest ratings on the list (month, rating): D's Partial record of the take-on
    is pending under the Elo method, none."""
    latest = {}
    for code in ("111111A", "222222B", "444444D"):
        rating = PlayerRating.objects.filter(player__code=code, superseded_at=None).latest("month")
        latest[code] = (rating.month, rating.rating if rating.type != "partial" else None)
    return latest


def not_rated_by_latest_run():
    run = RatingRun.objects.filter(outcome=RatingRun.Outcome.SUCCEEDED).latest("pk")
    return sorted(set(GameNotRated.objects.filter(run=run).values_list("reason", flat=True)))


@pytest.fixture
def long_october_event_rated(rate):
    """elo_october's games (A beats B, draws with C, beats D on 10 October) in an event from 1
    October to 31 December: 92 days. October rated: the event is rated, its games left out."""
    elo_federation()
    event = elo_october()
    event.start_date, event.end_date = datetime.date(2026, 10, 1), datetime.date(2026, 12, 31)
    event.save()
    succeeded(rate("otb-standard", "2026-10"))
    event.refresh_from_db()
    return event


def test_a_rated_event_of_more_than_90_days_is_left_out_until_its_length_is_approved_then_rated_in_the_revision(
    long_october_event_rated, officer, client, django_capture_on_commit_callbacks
):
    event = long_october_event_rated
    assert event.status == Event.Status.RATED
    # Left out whole: nobody has a rating of October; A, B and D are as the take-on left them.
    assert ratings() == {"111111A": ("2026-09", 1500), "222222B": ("2026-09", 1900), "444444D": ("2026-09", None)}
    assert not_rated_by_latest_run() == [
        "not rated: the event lasted 92 days, more than 90, and a rating officer has not approved its length"
    ]

    client.force_login(officer)

    with django_capture_on_commit_callbacks(execute=True):  # the button on the event's admin page
        response = client.post(reverse("admin:events_event_length", args=[event.pk]), {"approve": "1"}, follow=True)

    assert [str(message) for message in response.context["messages"]] == [
        "OCT: its length of 92 days (2026-10-01 to 2026-12-31) is approved for rating on Elo lists; the months of "
        "its games already published are revised."
    ]
    # October is published again, as after a late result, with the games rated
    # (tests/grading/run/test_elo_run.py works the same games out: A 1518, B 1882, D 1193).
    period = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10")
    assert period.revision == 1
    assert ratings() == {"111111A": ("2026-10", 1518), "222222B": ("2026-10", 1882), "444444D": ("2026-10", 1193)}
    assert not_rated_by_latest_run() == []
    assert RatingRun.objects.latest("pk").trigger == "late change to OCT"

    with django_capture_on_commit_callbacks(execute=True):
        lengths.do_withdraw_length_approval(event, acting_user=officer)

    period.refresh_from_db()
    assert period.revision == 2
    assert ratings() == {"111111A": ("2026-09", 1500), "222222B": ("2026-09", 1900), "444444D": ("2026-09", None)}
    assert not_rated_by_latest_run() == [
        "not rated: the event lasted 92 days, more than 90, and a rating officer has not approved its length"
    ]
    assert not RatingRun.objects.filter(outcome__in=["queued", "running"]).exists()


def test_approving_the_length_of_an_approved_event_not_yet_rated_leaves_it_to_its_months_run(
    officer, rate, django_capture_on_commit_callbacks
):
    elo_federation()
    event = elo_october()
    event.start_date, event.end_date = datetime.date(2026, 10, 1), datetime.date(2026, 12, 31)
    event.save()

    with django_capture_on_commit_callbacks(execute=True):
        lengths.do_approve_length(event, acting_user=officer)

    # Nothing published since the take-on to revise: October's run rates the games.
    assert list(RatingRun.objects.values_list("trigger", flat=True)) == [RatingRun.IMPORT]
    succeeded(rate("otb-standard", "2026-10"))
    assert ratings() == {"111111A": ("2026-10", 1518), "222222B": ("2026-10", 1882), "444444D": ("2026-10", 1193)}
