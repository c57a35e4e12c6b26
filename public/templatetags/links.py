"""``{% link "name" %}``: the address of a page that takes no arguments, as ``{% url %}`` writes
it, reversed once in a process for each URLconf and script prefix. Every page's header and footer
name a dozen; reversed anew on each page they were a twentieth of a list page's own work."""

import functools

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse

register = template.Library()


@register.simple_tag
def link(name: str) -> str:
    return reversed_once(name, get_urlconf(), get_script_prefix())


@functools.cache
def reversed_once(name: str, urlconf, prefix: str) -> str:
    return reverse(name, urlconf=urlconf)
