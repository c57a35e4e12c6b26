"""When the monthly run rates a month: on RATING_DAY of the month after, at
RATING_HOUR:RATING_MINUTE, in TIME_ZONE. Beat's schedule (config/celery.py) is this crontab, and a
month's page says when it is published (grading.selectors.months) by reading the same one."""

import datetime

from celery.schedules import crontab
from django.conf import settings
from django.utils import timezone

from chess.months import Month


def monthly_run() -> crontab:
    return crontab(minute=settings.RATING_MINUTE, hour=settings.RATING_HOUR, day_of_month=settings.RATING_DAY)


def scheduled_run(month: Month) -> datetime.datetime:
    """When beat's monthly run rates ``month``: the crontab's day, hour and minute in the month after."""
    run, after = monthly_run(), month + 1
    day, hour, minute = min(run.day_of_month), min(run.hour), min(run.minute)
    return timezone.make_aware(datetime.datetime(after.year, after.month, day, hour, minute))
