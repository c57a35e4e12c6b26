"""A month not yet published: its page says what is in it so far and when it will be published;
a month not begun, or before the list's ratings began, is no page."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from chess.months import Month
from grading.models import RatingPeriod, RatingRun
from tests.builders import PlayerFactory, approved_event, publish_month, rating_list

pytestmark = pytest.mark.django_db

THIS_MONTH = Month.of(timezone.localdate())
LAST_MONTH = THIS_MONTH - 1


@pytest.fixture(autouse=True)
def schedule(settings):
    settings.RATING_DAY, settings.RATING_HOUR, settings.RATING_MINUTE = 1, 2, 0


@pytest.fixture
def published_before_last_month():
    ann = PlayerFactory(code="300001A", surname="Oakley", forenames="Ann")
    PlayerFactory(code="300002B", surname="Quill", forenames="Bob")
    publish_month("otb-standard", str(LAST_MONTH - 1), [{"player": ann, "rating": 150}])


def games(day, count):
    return [("300001A", "300002B", "1-0")] * count


@pytest.fixture
def last_month(published_before_last_month):
    """Last month's events on the standard list: 3 games approved, 2 submitted, 1 held; one
    uploaded but not submitted (its arbiter's still), one on the rapid list."""
    day = LAST_MONTH.first_day() + datetime.timedelta(days=9)
    approved_event("LEAGUE", "otb-standard", day, games(day, 3))
    approved_event("CONGRESS", "otb-standard", day, games(day, 2), status="submitted")
    approved_event("CUP", "otb-standard", day, games(day, 1), status="held")
    approved_event("DRAFT", "otb-standard", day, games(day, 4), status="checked")
    approved_event("RAPIDPLAY", "otb-rapid", day, games(day, 5), time_control="15+10")


def month_page(month, list_code="otb-standard"):
    return reverse("rating-list-period", args=[list_code, str(month)])


def test_a_month_ended_lists_its_events_so_far_with_their_games(client, last_month):
    page = client.get(month_page(LAST_MONTH)).content.decode()
    assert "In it so far" in page
    for code, status, count in [("LEAGUE", "Approved", 3), ("CONGRESS", "Submitted", 2), ("CUP", "Awaiting review", 1)]:
        assert f'<a href="/events/{code}/">{code}</a></td><td>{status}</td><td class="num">{count}</td>' in page
    assert "DRAFT" not in page and "RAPIDPLAY" not in page
    # 3 approved; 2 submitted + 1 held = 3 waiting.
    assert "3 games approved for rating; 3 more in events not yet approved" in page


def test_a_month_ended_and_past_its_run_says_it_is_published_once_rated(client, last_month):
    page = client.get(month_page(LAST_MONTH)).content.decode()
    due = THIS_MONTH.first_day().strftime("%-d %B %Y")
    assert f"its list, due on {due} at 02:00, is not yet rated" in page


def test_a_month_under_way_says_when_its_list_is_due(client, published_before_last_month):
    page = client.get(month_page(THIS_MONTH)).content.decode()
    due = (THIS_MONTH + 1).first_day().strftime("%-d %B %Y")
    assert f"This month is under way. Its games are rated after it ends: the list is due on {due} at 02:00." in page
    assert f"No event with games in {THIS_MONTH} has been submitted yet." in page


def test_a_month_being_rated_says_so(client, last_month):
    period = RatingPeriod.objects.create(rating_list=rating_list(), month=str(LAST_MONTH))
    RatingRun.objects.create(period=period, trigger="schedule", started_at=timezone.now(), outcome="running")
    assert "This month is being rated now" in client.get(month_page(LAST_MONTH)).content.decode()


def test_a_month_whose_run_failed_says_the_officers_are_told(client, last_month):
    period = RatingPeriod.objects.create(rating_list=rating_list(), month=str(LAST_MONTH))
    RatingRun.objects.create(period=period, trigger="schedule", started_at=timezone.now(), outcome="failed")
    assert "The run that rates this month did not finish" in client.get(month_page(LAST_MONTH)).content.decode()


def test_the_latest_list_links_to_the_month_after_it(client, last_month):
    page = client.get(reverse("rating-list", args=["otb-standard"])).content.decode()
    assert f'<a href="{month_page(LAST_MONTH)}">{LAST_MONTH} so far</a>' in page


def test_a_month_not_begun_or_before_the_lists_ratings_is_not_found(client, published_before_last_month):
    assert client.get(month_page(THIS_MONTH + 1)).status_code == 404
    assert client.get(month_page(LAST_MONTH - 2)).status_code == 404
    # The rapid list has never been rated: no month of it is in preparation.
    assert client.get(month_page(LAST_MONTH, "otb-rapid")).status_code == 404


def test_a_published_month_is_its_list_not_its_preparation(client, published_before_last_month):
    page = client.get(month_page(LAST_MONTH - 1)).content.decode()
    assert "In it so far" not in page and "Oakley" in page
