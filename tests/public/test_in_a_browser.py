"""A club player finds themself, sees their chart, opens a month's calculation; then sorts,
filters and downloads a list. One real Chromium, as the arbiters' round trip does."""

import csv
import io
import urllib.request

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as shows
from selenium.webdriver.support.ui import Select, WebDriverWait

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PHONE = 390  # a phone's width in CSS pixels: the phone fixture's (tests/conftest.py)

CHART_DRAWN = """
const canvas = document.getElementById('rating-chart');
const chart = canvas && window.Chart && Chart.getChart(canvas);
if (!chart || chart.width === 0) return null;
const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
let painted = 0;
for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] > 0) painted++; }
return {datasets: chart.data.datasets.map(d => d.label + ':' + d.data.length), painted: painted};
"""

POINT = """
const chart = Chart.getChart(document.getElementById('rating-chart'));
const point = chart.getDatasetMeta(arguments[0]).data[arguments[1]];
return [point.x - chart.width / 2, point.y - chart.height / 2];
"""


def wait(browser, condition, seconds=10):
    # A condition that reads the page while a click loads the next one can hold an element of
    # the old page: that is "not yet", not a failure.
    return WebDriverWait(browser, seconds, ignored_exceptions=[StaleElementReferenceException]).until(condition)


def table_names(browser):
    try:
        return [
            link.text for link in browser.find_elements(By.CSS_SELECTOR, "table.list-table tbody td:nth-child(2) a")
        ]
    except WebDriverException as error:
        # Chromium's way of saying "stale" when the page was replaced between finding a link and
        # reading it (a click still loading the next page): for wait(), "not yet".
        if "does not belong to the document" in str(error):
            raise StaleElementReferenceException(str(error)) from error
        raise


def test_a_player_finds_themself_and_a_captain_downloads_the_club_list(browser, live_server, federation):
    browser.delete_all_cookies()
    browser.get(live_server.url + "/")
    box = browser.find_element(By.ID, "site-search-q")
    box.send_keys("fletcher dav", Keys.ENTER)
    wait(browser, shows.title_contains("Find a player"))
    browser.find_element(By.LINK_TEXT, "Fletcher, David").click()

    wait(browser, shows.title_contains("Fletcher, David"))
    drawn = wait(browser, lambda driver: driver.execute_script(CHART_DRAWN))
    assert drawn["datasets"] == ["OTB standard:2"]
    assert drawn["painted"] > 1000  # the lines, points and axes are on the canvas

    # Tap the 2026-09 point: the page that explains that month's rating opens.
    x, y = browser.execute_script(POINT, 0, 1)
    ActionChains(browser).move_to_element_with_offset(
        browser.find_element(By.ID, "rating-chart"), round(x), round(y)
    ).click().perform()
    wait(browser, shows.title_contains("OTB standard 2026-09"))
    assert "1850 − 2.40 = 1847.60, rounded: 1848" in browser.find_element(By.TAG_NAME, "main").text

    browser.find_element(By.LINK_TEXT, "Lists").click()
    browser.find_element(By.LINK_TEXT, "The 2026-10 list").click()
    wait(browser, shows.title_contains("OTB standard 2026-10"))
    assert table_names(browser)[:2] == ["Fletcher, David", "Dunn, Grace"]

    browser.find_element(By.LINK_TEXT, "Name").click()
    wait(browser, lambda driver: table_names(driver)[0] == "Dunn, Grace")
    assert table_names(browser)[1:3] == ["Filler00, Sam", "Filler01, Sam"]

    Select(browser.find_element(By.ID, "id_club")).select_by_value("NQC")
    browser.find_element(By.XPATH, "//button[text()='Filter']").click()
    wait(browser, lambda driver: len(table_names(driver)) == 2)
    assert table_names(browser) == ["Fletcher, Alice", "Fletcher, David"]  # still sorted by name

    link = browser.find_element(By.ID, "csv-download")
    assert link.text == "Download these 2 players (CSV)"
    with urllib.request.urlopen(link.get_attribute("href"), timeout=10) as response:
        assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
        rows = list(csv.reader(io.StringIO(response.read().decode("utf-8-sig"))))
    assert [row[:3] + row[5:] for row in rows] == [
        ["rank", "code", "name", "rating", "previous", "change", "type", "category", "games", "last_played", "club"]
        + ["age"],
        ["", "200001A", "Fletcher, Alice", "1400", "1400", "0", "partial", "partial", "6", "2026-09", "Northquay"]
        + ["U12"],  # 11 on 1 October 2026
        ["1", "200002B", "Fletcher, David", "1848", "1848", "0", "full", "full", "122", "2026-09", "Northquay"]
        + [""],  # 46: in no age group
    ]
