"""Filters for writing rating numbers as the site writes them."""

from django import template
from django.utils.safestring import mark_safe

from chess import numbers
from public import rendering

register = template.Library()


@register.filter
def signed(value):
    """A change with its sign: +11.4, -2.4, 0; empty for none."""
    return "" if value is None else numbers.signed(value)


@register.filter
def of_game(reasons: dict, pk):
    """A game's entry in ``reasons`` ({game id: why}), or None."""
    return reasons.get(pk)


@register.filter
def sub(value, other):
    """``value`` less ``other``: a rating's change from an earlier one."""
    return value - other


@register.simple_tag
def rated_cells(part):
    """One player's part of an event as rated: its performance, performance by the algorithm of
    400 and change cells (public.rendering.rated_cells). A tag, not an include: a crosstable has
    a row per player."""
    return mark_safe(rendering.rated_cells(part))  # noqa: S308 - numbers and fixed text only


@register.simple_tag
def ratings_in_cells(entry):
    """An event entry's rating going in and rating used cells (public.rendering.ratings_in_cells)."""
    return mark_safe(rendering.ratings_in_cells(entry))  # noqa: S308 - numbers only


@register.simple_tag
def calculation_rows(rows, method):
    """A calculation's games table rows (public.rendering.calculation_rows)."""
    return rendering.calculation_rows(rows, method)
