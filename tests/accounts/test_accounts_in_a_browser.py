"""The accounts' pages in a real Chromium: at a phone's width nothing scrolls sideways, and an
arbiter asks for an account and reads each refusal beside its field."""

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from accounts.models import Application
from tests.public.test_in_a_browser import PHONE
from tests.public.test_phones_in_a_browser import OVERFLOW

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def wait(browser, condition):
    # Read while a click loads the next page, an element can belong to the page going away:
    # Chromium says so in more than one way ("stale", "does not belong to the document"), each
    # "not yet" here.
    return WebDriverWait(browser, 10, ignored_exceptions=[WebDriverException]).until(condition)


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/login/",
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/MQ/abc-def/",
        "/accounts/apply/",
        "/accounts/apply/sent/",
        "/accounts/welcome/MQ/abc-def/",
    ],
)
def test_no_accounts_page_scrolls_sideways_at_phone_width(phone, live_server, path):
    phone.get(live_server.url + path)

    (width, visible), wide = phone.execute_script(OVERFLOW)

    assert width <= visible <= PHONE, path
    assert wide == [], path


def test_an_arbiter_asks_for_an_account_and_reads_each_refusal_beside_its_field(phone, live_server):
    phone.get(live_server.url + "/accounts/login/")
    phone.find_element(By.LINK_TEXT, "Ask for one").click()
    for name, value in [
        ("forenames", "Jane<script>"),
        ("surname", "O'Connor"),
        ("email", "jane@example.org"),
        ("identity", "12345"),
        ("licence", "ECF/A-1234"),
    ]:
        phone.find_element(By.NAME, name).send_keys(value)
    phone.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()

    # The answer is a new page: read it once it has come, not the form it replaces.
    wait(phone, lambda page: page.find_elements(By.CSS_SELECTOR, "main .error"))
    errors = {box.get_attribute("id"): box.text for box in phone.find_elements(By.CSS_SELECTOR, "main .error")}
    assert errors == {
        "id_forenames_error": "Letters, spaces, hyphens, apostrophes and full stops only.",
        "id_identity_error": "A FIDE ID has 6 to 9 digits.",
    }
    assert phone.find_element(By.NAME, "forenames").get_attribute("aria-invalid") == "true"
    (width, visible), wide = phone.execute_script(OVERFLOW)
    assert width <= visible <= PHONE and wide == []

    phone.find_element(By.NAME, "forenames").clear()
    phone.find_element(By.NAME, "forenames").send_keys("Jane")
    phone.find_element(By.NAME, "identity").clear()
    phone.find_element(By.NAME, "identity").send_keys("4100018")
    phone.find_element(By.CSS_SELECTOR, "main button[type=submit]").click()

    assert wait(phone, lambda page: page.find_element(By.TAG_NAME, "h1").text == "Thank you")
    assert Application.objects.get().fide_id == 4100018
