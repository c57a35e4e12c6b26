"""A held event across a list's months: rated, held (its month revised without it), released
(revised with it again); the runs and revisions counted, every run saying what it left out."""

import datetime

import pytest

from chess.months import Month
from events.workflow import do_hold_event, do_release_event
from grading.models import RatingPeriod, RatingRun
from grading.run.runs import do_start_rating
from tests.builders import rating_list, succeeded

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

SEPTEMBER, OCTOBER_DAY = Month(2026, 9), datetime.date(2026, 10, 5)


def runs_of_september():
    return list(
        RatingRun.objects.filter(period__month="2026-09").order_by("pk").values_list("trigger", "games", "revision")
    )


def test_holding_a_rated_event_revises_its_month_without_it_and_releasing_it_revises_it_back(gift, officer):
    run = do_start_rating(rating_list(), SEPTEMBER, "schedule", today=OCTOBER_DAY)
    run.refresh_from_db()  # carried out in process once its start committed
    succeeded(run)
    gift.refresh_from_db()
    assert gift.status == "rated"

    do_hold_event(gift, "A's six wins against 1900s", acting_user=officer)
    held = RatingRun.objects.order_by("-pk").first()
    assert "1 event awaiting review left out: GIFT" in held.message

    released = do_release_event(gift, "checked with the arbiter", acting_user=officer)
    assert released.status == "approved"
    gift.refresh_from_db()
    assert gift.status == "rated"
    # The original list with the six games, a revision without them, a revision with them again.
    assert runs_of_september() == [("schedule", 6, 0), ("late change to GIFT", 0, 1), ("late change to GIFT", 6, 2)]
    assert RatingPeriod.objects.get(rating_list=rating_list(), month="2026-09").revision == 2
