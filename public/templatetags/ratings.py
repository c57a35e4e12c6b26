"""Filters for writing rating numbers as the site writes them."""

from django import template

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
