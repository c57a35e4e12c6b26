"""``{% link %}`` (public/templatetags/links.py): the header's and footer's addresses, reversed once
in a process, as ``{% url %}`` writes them, under whatever script prefix the site is served."""

from django.template import Context, Template
from django.urls import set_script_prefix

HEADER = "{% load links %}{% link 'home' %} {% link 'player-search' %} {% link 'admin:index' %} {% link 'privacy' %}"
AS_URL = "{% url 'home' %} {% url 'player-search' %} {% url 'admin:index' %} {% url 'privacy' %}"


def test_a_link_is_the_address_the_url_tag_writes_and_follows_the_script_prefix():
    try:
        at_root = Template(HEADER).render(Context())
        set_script_prefix("/ratings/")
        under_prefix = Template(HEADER).render(Context())
        assert under_prefix == Template(AS_URL).render(Context())
    finally:
        set_script_prefix("/")

    assert at_root == Template(AS_URL).render(Context()) == "/ /players/ /admin/ /privacy/"
    assert under_prefix == "/ratings/ /ratings/players/ /ratings/admin/ /ratings/privacy/"
