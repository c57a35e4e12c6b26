"""Every public page read at 390 px wide, as on a phone, in a real Chromium: nothing scrolls
sideways, neither the page nor any table, until the reader asks for every column."""

import pytest
from selenium.webdriver.common.by import By

from events.models import Event
from players.models import Club
from tests.builders import publish_month
from tests.public.test_games_not_rated import october_refused
from tests.public.test_in_a_browser import PHONE

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# The page's width against the window's, and every box that cuts or scrolls its content wider
# than itself (a table's scrolling region, a pre, anything not overflow: visible); a screen
# reader's hidden label (1 px wide) aside.
OVERFLOW = """
const page = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
const wide = [...document.querySelectorAll('body *')]
  .filter(box => box.offsetParent !== null && box.clientWidth > 1 && getComputedStyle(box).overflowX !== 'visible')
  .filter(box => box.scrollWidth > box.clientWidth + 1)
  .map(box => (box.getAttribute('aria-label') || box.tagName.toLowerCase() + '.' + box.className)
              + ': ' + box.scrollWidth + ' > ' + box.clientWidth);
return [page, wide];
"""


@pytest.mark.parametrize(
    "path",
    [
        "/players/200002B/",
        "/lists/otb-standard/",
        "/events/NQ2609/",
        "/players/200002B/otb-standard/2026-09/",
        "/players/200001A/otb-standard/2026-09/",
        "/calculator/?list=otb-standard&player=200002B&o-0-opponent=200003C&o-0-result=0.5",
        "/help/",
        "/players/200002B/vs/200003C/",
        "/events/",
        "/lists/otb-standard/2026-11/",
        "/lists/otb-standard/live/",
    ],
)
def test_no_public_page_scrolls_sideways_at_phone_width(phone, live_server, federation, path):
    phone.get(live_server.url + path)

    (width, visible), wide = phone.execute_script(OVERFLOW)

    assert width <= visible <= PHONE, path
    assert wide == [], path


@pytest.fixture
def on_three_lists(federation):
    """Northquay's players rated on the three lists, a column each on the search's and the
    clubs' tables, and a club whose county's name is long, as a federation's are."""
    rows = [{"player": federation.david, "rating": 1790}, {"player": federation.alice, "rating": 1412}]
    publish_month("otb-rapid", "2026-10", rows)
    publish_month("online", "2026-10", [{"player": federation.david, "rating": 1745}])
    Club.objects.filter(code="NQC").update(county="Northshire and Islands Chess Association")
    return federation


@pytest.mark.parametrize("path", ["/", "/players/?q=fletcher", "/clubs/", "/clubs/NQC/", "/api/"])
def test_the_tables_of_the_home_search_clubs_and_api_pages_fit_a_phone(phone, live_server, on_three_lists, path):
    phone.get(live_server.url + path)

    (width, visible), wide = phone.execute_script(OVERFLOW)

    assert width <= visible <= PHONE, path
    assert wide == [], path


@pytest.mark.parametrize(
    "path, table, column", [("/clubs/NQC/", "club-players", "Code"), ("/api/", "endpoints", "Parameters")]
)
def test_a_folded_column_comes_back_when_asked_for(phone, live_server, on_three_lists, path, table, column):
    phone.get(live_server.url + path)
    header = phone.find_element(By.CSS_SELECTOR, f"#{table} thead th.fold")
    assert header.text == "" and not header.is_displayed()

    phone.find_element(By.CSS_SELECTOR, f"button.fold-toggle[aria-controls='{table}']").click()

    assert header.is_displayed() and header.text == column


def test_every_column_comes_back_on_a_phone_when_asked_for(phone, live_server, federation):
    phone.get(live_server.url + "/lists/otb-standard/")
    code = phone.find_element(By.CSS_SELECTOR, "#list-table thead th.fold")
    assert not code.is_displayed()

    phone.find_element(By.CSS_SELECTOR, "button.fold-toggle[aria-controls='list-table']").click()

    assert code.is_displayed()
    (width, visible), _ = phone.execute_script(OVERFLOW)
    assert width <= visible  # the table scrolls within its region, never the page


# The right edges of a table's shown header cells, and of the region it scrolls in.
EDGES = """
const table = document.getElementById(arguments[0]);
const shown = [...table.querySelectorAll('thead th')].filter(cell => cell.offsetParent !== null);
return [shown.map(cell => [cell.textContent.trim(), cell.getBoundingClientRect().right]),
        table.closest('.scroll').getBoundingClientRect().right];
"""


def test_an_events_change_column_is_whole_on_a_phone_however_long_the_names(phone, live_server, federation):
    # Names longer than a phone's column, and Alice's P rating's change marked "(month)".
    federation.congress.entries.update(surname="Featherstonehaughson", forenames="Maximiliana-Josephine")

    phone.get(live_server.url + "/events/NQ2609/")

    (width, visible), wide = phone.execute_script(OVERFLOW)
    headers, region = phone.execute_script(EDGES, "crosstable")
    assert width <= visible and wide == []
    assert [label for label, _ in headers] == ["#", "Name", "Before", "Pts", "Perf", "±"]
    assert max(right for _, right in headers) <= region + 1
    change = phone.find_element(By.CSS_SELECTOR, "#crosstable tbody tr td:last-child")
    assert change.text.replace("\n", " ") == "+250 (month)"


@pytest.mark.parametrize(
    "path, kind",
    [
        ("/events/MATCH/", "other"),
        ("/events/DUEL/", "other"),
        ("/events/DUEL/", "swiss"),
        ("/players/111111A/otb-standard/2026-10/", "other"),
    ],
)
def test_the_games_not_rated_and_why_fit_a_phone(phone, live_server, rate, path, kind):
    october_refused(rate)
    Event.objects.filter(code="DUEL").update(kind=kind)  # a match card, or a crosstable and a list

    phone.get(live_server.url + path)

    (width, visible), wide = phone.execute_script(OVERFLOW)
    assert "not rated: " in phone.page_source.lower()
    assert width <= visible <= PHONE, path
    # Only the games not rated: a calculation's Elo games with an unrated opponent do not fit yet.
    assert [region for region in wide if region.startswith("Games not rated")] == [], path
