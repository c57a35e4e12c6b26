"""A player tries the calculator in a real Chromium: on a desktop, then on a phone."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shows
from selenium.webdriver.support.ui import Select

from tests.public.test_in_a_browser import PHONE, wait

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

OVERFLOW = "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def fill_row(browser, row, opponent, result):
    browser.find_element(By.ID, f"id_o-{row}-opponent").send_keys(opponent)
    Select(browser.find_element(By.ID, f"id_o-{row}-result")).select_by_visible_text(result)


def test_a_player_adds_a_seventh_game_in_the_page_and_sees_the_rating_explained(browser, live_server, federation):
    browser.get(live_server.url + "/calculator/")
    browser.find_element(By.ID, "id_player").send_keys("200002B")
    for row in range(6):
        fill_row(browser, row, "1850", "drew")
    address = browser.current_url

    browser.find_element(By.ID, "more-opponents").click()  # a row added where it is: no request
    fill_row(browser, 6, "1900", "won")
    assert browser.current_url == address
    browser.find_element(By.ID, "calculate").click()

    wait(browser, shows.presence_of_element_located((By.ID, "trial")))
    text = browser.find_element(By.ID, "trial").text
    # David, 1848: six draws with 1850s (D = 2, offset 0: 0 each) and a win against a 1900
    # (D = 52, offset +1.4: +11.4): 1848 + 11.4 = 1859.4, rounded 1859.
    assert "New rating: 1859 (full)" in text
    assert "Score\n4 from 7 games" in text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#calculation-games tbody tr")) == 7


def test_the_calculator_and_its_answer_fit_a_phone(phone, live_server, federation):
    phone.get(live_server.url + "/calculator/?list=otb-standard&player=200002B&o-0-opponent=200003C&o-0-result=0.5")

    wait(phone, shows.presence_of_element_located((By.ID, "trial")))
    width, visible = phone.execute_script(OVERFLOW)
    assert width <= visible <= PHONE
