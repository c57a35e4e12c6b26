"""How ratings work: explanations with the rule sets' own numbers, the two tables from the
engine's, and the terms of the list, player and calculation pages linked to them."""

import html

import pytest

from tests.public.test_elo_pages import text

pytestmark = pytest.mark.django_db


def test_the_help_page_explains_with_the_numbers_of_the_rules_in_force(client, federation):
    page = text(client.get("/help/"))

    # ecf-2024 rates the federation's lists: a 36-month window, dummy 1800 or 100 a year of age,
    # the eight titles, K 20 or 40, the cap 700, Q 20.
    assert "played within the last 36 months" in page
    assert "1800 for an adult" in page and "a 12-year-old's dummy is 1200" in page
    assert "GM 2500, IM 2350" in page
    assert "K is 20; 40 for a junior whose games raised their rating" in page
    assert "from 0 for equal ratings up to 8.4 for a difference of 392 or more" in page
    assert "OTB standard ecf-2024" in page


def test_the_two_tables_are_pages_of_their_own_from_the_engines_tables(client, db):
    offsets = client.get("/help/d-offsets/").content.decode()
    performance = client.get("/help/performance/").content.decode()

    assert '<tr id="d-47"><td class="num">47 to 53</td><td class="num">1.4</td></tr>' in offsets
    assert '<tr id="d-392"><td class="num">392 or more</td><td class="num">8.4</td></tr>' in offsets
    assert '<tr id="p-0.75"><td class="num">0.75</td><td class="num">+193</td></tr>' in performance
    assert '<tr id="p-0.00"><td class="num">0.00</td><td class="num">-800</td></tr>' in performance


@pytest.mark.parametrize(
    ("path", "anchors"),
    [
        ("/lists/otb-standard/", ["#passes", "#rank", "#category", "#full-partial", "#editions"]),
        ("/players/200002B/", ["#rank", "#full-partial", "#category"]),
        (
            "/players/200002B/otb-standard/2026-09/",
            ["#category", "#k-rating", "#k", "#lists", "#d", "#q", "/help/d-offsets/"],
        ),
        ("/players/200001A/otb-standard/2026-09/", ["#p-rating", "#dummy", "#passes"]),
    ],
)
def test_the_terms_of_the_lists_players_and_calculations_link_to_their_explanation(client, federation, path, anchors):
    page = client.get(path).content.decode()

    for anchor in anchors:
        target = anchor if anchor.startswith("/") else f"/help/{anchor}"
        assert f'href="{target}"' in page, anchor


def test_each_elo_rule_set_in_force_has_its_own_k(client, federation):
    from chess.months import Month
    from grading.rule_set_changes import do_change_rule_set
    from tests.builders import rating_list

    do_change_rule_set(rating_list("otb-rapid"), Month.parse("2026-01"), "fide-2017-rapid", acting_user=None)
    do_change_rule_set(rating_list("online"), Month.parse("2026-01"), "fide-2017", acting_user=None)

    page = text(client.get("/help/"))

    assert "Under fide-2017-rapid: K is 20 for every player." in page
    assert "Under fide-2017: K is 20; 40 for a player with fewer than 30 games rated, and for a junior" in page


def test_a_visitors_kept_help_page_follows_a_rule_set_change_at_once(client, federation):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from chess.months import Month
    from grading.rule_set_changes import do_change_rule_set
    from tests.builders import rating_list

    client.get("/help/")
    with CaptureQueriesContext(connection) as queries:
        kept = client.get("/help/").content
    read = len(queries.captured_queries)  # before the next request empties the connection's log
    do_change_rule_set(rating_list("online"), Month.parse("2026-01"), "fide-2017", acting_user=None)
    changed = text(client.get("/help/"))

    assert read == 1  # the lists and their rule sets in force: the page was kept
    assert b"Under fide-2017: K is 20" not in kept
    assert "Under fide-2017: K is 20" in changed


def test_the_calculation_derives_the_dummy_and_links_each_d_offset_to_its_row(client, federation):
    alice = html.unescape(text(client.get("/players/200001A/otb-standard/2026-09/")))
    david = client.get("/players/200002B/otb-standard/2026-09/").content.decode()
    typed = html.unescape(text(client.get("/calculator/?list=online&age=40&title=IM&o-0-opponent=1500&o-0-result=1")))
    junior = html.unescape(text(client.get("/calculator/?list=otb-standard&age=11&o-0-opponent=1500&o-0-result=1")))

    # Alice is 11, and a junior's exact age is never public: her dummy, 100 a year of her age
    # (1100), is not written; an age typed into the calculator is the visitor's own.
    assert "Dummy rating A junior's, from their age, which is not published" in alice
    assert "1100" not in alice.split("Dummy rating")[1].split("Rule set")[0]
    assert "Dummy rating 1100: 100 × 11 years, a junior's" in junior
    # David beat Grace: D = 1700 - 1850 = -150, in the row of 146 to 153: -4.0.
    assert 'href="/help/d-offsets/#d-146" title="Its row of the D offset table">-4.0</a>' in david
    # An IM without a Full OTB standard rating, on online: 2350 less 100.
    assert "Dummy rating 2250: IM's 2350, a titled player without a Full OTB standard rating, − 100" in typed
