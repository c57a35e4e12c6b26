import pytest
from django.contrib.auth.models import Group
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from events.models import Event
from events.roles import ARBITERS
from tests.conftest import SHARED

pytestmark = pytest.mark.django_db(transaction=True)


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
    assert browser.find_element(By.TAG_NAME, "h1").text == "My events"
    browser.find_element(By.LINK_TEXT, "Upload results").click()
    browser.find_element(By.NAME, "file").send_keys(str(SHARED / "spec" / "example-ecf-results.txt"))
    browser.find_element(By.XPATH, "//button[text()='Check the file']").click()

    assert "NQ241001 is checked" in browser.find_element(By.CLASS_NAME, "messages").text
    report = browser.find_element(By.CLASS_NAME, "report").text
    assert "6, of which 5 rated" in report
    assert "Dunn, David" in report
    browser.find_element(By.XPATH, "//button[text()='Submit for approval']").click()
    assert "submitted for approval" in browser.find_element(By.CLASS_NAME, "messages").text
    assert Event.objects.get().status == "submitted"
    browser.find_element(By.XPATH, "//button[starts-with(text(), 'Log out')]").click()

    log_in(browser, live_server.url + "/admin/login/?next=/admin/events/event/", "officer", "a-long-password-2")
    browser.find_element(By.CSS_SELECTOR, "input.action-select").click()
    Select(browser.find_element(By.NAME, "action")).select_by_value("approve")
    browser.find_element(By.NAME, "index").click()

    assert "1 event(s) approved." in browser.find_element(By.CLASS_NAME, "messagelist").text
    assert Event.objects.get().status == "approved"
