"""Filters for showing a stored upload report, whose dates are ISO strings (it is JSON)."""

import datetime

from django import template
from django.utils.dateformat import format as format_date

register = template.Library()


@register.filter
def day(value):
    """ "2026-10-03" as "3 Oct 2026", as the rest of the site writes dates; anything else as is."""
    try:
        return format_date(datetime.date.fromisoformat(value), "j M Y")
    except (TypeError, ValueError):
        return value
