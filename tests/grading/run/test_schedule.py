"""One schedule for the monthly run (grading.run.schedule): beat's crontab, and the moment a month's
page says the month is published, read from it."""

import datetime

from django.utils import timezone

from chess.months import Month
from grading.run.schedule import monthly_run, scheduled_run


def test_the_month_page_says_the_moment_beats_crontab_runs_after_the_month_ends(settings):
    settings.RATING_DAY, settings.RATING_HOUR, settings.RATING_MINUTE = 3, 5, 45
    month = Month.parse("2026-11")
    month_ended = timezone.make_aware(datetime.datetime(2026, 12, 1))  # the first moment of December

    due = scheduled_run(month)
    since, waits, _now = monthly_run().remaining_delta(month_ended)  # beat's own reckoning of its next run

    assert due == timezone.make_aware(datetime.datetime(2026, 12, 3, 5, 45))
    assert since + waits == due
