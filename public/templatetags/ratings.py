"""Filters for writing rating numbers as the site writes them."""

from django import template
from django.utils.safestring import mark_safe

from grading.engine.tables import d_offset_row
from public.rendering import signed as signed_number

register = template.Library()


@register.filter
def signed(value):
    """A change with its sign: +11.4, -2.4, 0; empty for none."""
    return "" if value is None else signed_number(value)


@register.filter
def sub(value, other):
    """``value`` less ``other``: a rating's change from an earlier one."""
    return value - other


@register.filter
def d_row(d):
    """The D offset table's row (its lowest |D|) that a D falls in: the anchor of its line."""
    return d_offset_row(int(d))


MONTH_CHANGE = (
    ' <abbr title="A P rating or a first rating rates the month as a whole: this is the month&#x27;s change.">'
    "(month)</abbr>"
)


@register.simple_tag
def rated_cells(part):
    """One player's part of an event as rated (grading.event_ratings.EventPart): its performance,
    performance by the algorithm of 400 and change cells. A tag, not an include: a crosstable
    has a row per player. Every value is a number: nothing to escape."""
    if part is None:
        return mark_safe('<td class="num"></td><td class="num fold"></td><td class="num nowrap"></td>')
    change = part.change
    if change is None:
        shown = '<span class="muted">new</span>'
    else:
        shown = signed_number(change) + ("" if part.by_increments else MONTH_CHANGE)
    performance, by_400 = part.performance, part.performance_400
    return mark_safe(  # noqa: S308 - numbers and fixed text only
        f'<td class="num">{"" if performance is None else int(performance)}</td>'
        f'<td class="num fold">{"" if by_400 is None else int(by_400)}</td><td class="num nowrap">{shown}</td>'
    )
