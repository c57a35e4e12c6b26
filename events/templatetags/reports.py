"""Filters for showing a stored upload report, whose dates are ISO strings (it is JSON)."""

import datetime

from django import template
from django.utils.formats import date_format

register = template.Library()


@register.filter
def day(value):
    """ "2026-10-03" as "3 Oct 2026", as the rest of the site writes dates (the locale's
    DATE_FORMAT, as the templates' |date); anything else as is."""
    try:
        return date_format(datetime.date.fromisoformat(value))
    except (TypeError, ValueError):
        return value
