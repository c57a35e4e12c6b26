"""A club player opens their page the evening after a congress, in a real Chromium: the live
rating counts the game approved since the October list, and its calculation says provisional."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shows

from tests.grading.live.test_live_ratings import november_win
from tests.public.test_in_a_browser import wait

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_player_sees_their_live_rating_and_how_it_was_reached(browser, live_server, officer):
    november_win(officer)  # David (1850 on the October list) beat Grace (1700); approved

    browser.get(live_server.url + "/players/100001A/")
    live = browser.find_element(By.CSS_SELECTOR, ".live-rating").text

    # (-4.0 + 10) x 20 / 20 = +6: 1856.
    assert live.startswith("Live OTB standard: 1856 (+6) from 1 approved game since the 2026-10 list.")
    assert "Provisional, computed" in live
    browser.find_element(By.CSS_SELECTOR, ".live-rating a[href*='/live/otb-standard/2026-11/']").click()
    wait(browser, shows.title_contains("OTB standard 2026-11"))
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "How Fletcher, David's live OTB standard rating for 2026-11 is calculated" in page
    assert "Provisional." in page and "Rating: 1850 + 6.00 = 1856.00, rounded: 1856" in page

    browser.find_element(By.LINK_TEXT, "Fletcher, David").click()
    browser.find_element(By.LINK_TEXT, "The live list").click()
    wait(browser, shows.title_contains("live list"))
    first = browser.find_element(By.CSS_SELECTOR, "#list-table tbody tr").text
    assert "Fletcher, David" in first and "1856" in first
