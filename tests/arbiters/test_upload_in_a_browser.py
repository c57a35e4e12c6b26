import pytest
from django.contrib.auth.models import Group
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shows
from selenium.webdriver.support.ui import Select, WebDriverWait

from accounts.roles import ARBITERS
from events.models import Event
from tests.builders import DATA

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def wait_for_text(browser, css_class, text):
    """Wait for the page the last click loads, not the one it leaves. An element of the page
    being left can vanish while it is read: Chromium then says so in a WebDriverException, and
    the wait tries again."""
    wait = WebDriverWait(browser, 10, ignored_exceptions=(WebDriverException,))
    wait.until(shows.text_to_be_present_in_element((By.CLASS_NAME, css_class), text))
    return browser.find_element(By.CLASS_NAME, css_class).text


def log_in(browser, url, username, password):
    browser.get(url)
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "[type=submit]").click()


def test_an_arbiter_uploads_and_submits_and_an_officer_approves(browser, live_server, django_user_model):
    arbiter = django_user_model.objects.create_user("arbiter", password="a-long-password-1")
    arbiter.groups.add(Group.objects.get(name=ARBITERS))
    django_user_model.objects.create_superuser("officer", "officer@example.org", "a-long-password-2")
    browser.delete_all_cookies()

    log_in(browser, live_server.url + "/accounts/login/", "arbiter", "a-long-password-1")
    WebDriverWait(browser, 10).until(shows.title_contains("My events"))
    browser.find_element(By.LINK_TEXT, "Upload results").click()
    browser.find_element(By.NAME, "file").send_keys(str(DATA / "ecf" / "example-ecf-results.txt"))
    browser.find_element(By.XPATH, "//button[text()='Check the file']").click()

    wait_for_text(browser, "messages", "NQ241001 is checked")
    report = browser.find_element(By.CLASS_NAME, "report").text
    assert "6, of which 5 rated" in report
    assert "Dunn, David" in report
    browser.find_element(By.XPATH, "//button[text()='Submit for approval']").click()
    wait_for_text(browser, "messages", "submitted for approval")
    assert Event.objects.get().status == "submitted"
    browser.find_element(By.XPATH, "//button[starts-with(text(), 'Log out')]").click()

    WebDriverWait(browser, 10).until(shows.title_contains("Logged out"))
    log_in(browser, live_server.url + "/admin/login/?next=/admin/events/event/", "officer", "a-long-password-2")
    browser.find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("approve")
    browser.find_element(By.NAME, "index").click()

    wait_for_text(browser, "messagelist", "1 event approved.")
    assert Event.objects.get().status == "approved"
