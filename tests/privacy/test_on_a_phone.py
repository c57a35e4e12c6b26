"""Issue 40's pages on a phone, in a real Chromium 390 px wide: the privacy page, a user's account
page and their mails, and a rating officer's Personal data page of a player. Nothing is wider
than the screen; every form control can be reached (on the screen, not covered, in the tab order)
and has a label, and the help it points to is there; each page's main action is done by touch and
its answer shown."""

import datetime

import pytest
from django.conf import settings
from django.test import Client
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mails.models import Kind, MailChoice
from players.models import Player, PlayerChange
from tests.builders import PlayerFactory
from tests.public.test_in_a_browser import PHONE
from tests.public.test_phones_in_a_browser import OVERFLOW

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# Every visible form control of the page, each scrolled to the middle of the screen: what names
# it (its labels, aria-label, aria-labelledby, a button's words), whether the ids its
# aria-describedby names are on the page, whether it lies within the screen's width, whether a
# touch at its middle lands on it (or its label), and whether Tab reaches it.
CONTROLS = """
const screen = document.documentElement.clientWidth;
const text = node => (node ? node.textContent.trim() : '');
return [...document.querySelectorAll('input:not([type=hidden]), textarea, select, button')]
  .filter(control => control.getClientRects().length > 0)
  .map(control => {
    control.scrollIntoView({block: 'center', inline: 'nearest'});
    const box = control.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const labels = [...(control.labels || [])];
    const labelledBy = (control.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
    const name = [
      ...labels.map(text),
      (control.getAttribute('aria-label') || '').trim(),
      ...labelledBy.map(id => text(document.getElementById(id))),
      control.tagName === 'BUTTON' ? text(control) : '',
      control.type === 'submit' ? control.value : '',
    ].filter(Boolean).join(' / ');
    const described = (control.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
    return {
      control: control.tagName.toLowerCase() + (control.name ? '[name=' + control.name + ']' : ''),
      named: name !== '',
      described: described.every(id => document.getElementById(id) !== null),
      within: box.left >= 0 && box.right <= screen && box.width > 0 && box.height > 0,
      touched: hit !== null && (hit === control || control.contains(hit) || labels.some(label => label.contains(hit))),
      tabbed: control.tabIndex >= 0 && !control.disabled,
    };
  });
"""


def wait(browser, condition):
    # Read while a click loads the next page, an element can belong to the page going away:
    # Chromium says so in more than one way, each "not yet" here.
    return WebDriverWait(browser, 10, ignored_exceptions=[WebDriverException]).until(condition)


def message(browser, css, starting):
    """The message of the page the last click loads, once it has come: the page it leaves may
    show another (the step before's)."""

    def shown(page):
        texts = [box.text for box in page.find_elements(By.CSS_SELECTOR, css)]
        return next((text for text in texts if text and text.startswith(starting)), None)

    return wait(browser, shown)


def log_in(browser, live_server, user):
    """The browser holds the session of ``user``, as after logging in."""
    client = Client()
    client.force_login(user)
    browser.get(live_server.url + "/privacy/")
    browser.delete_all_cookies()
    browser.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def fits_and_every_control_is_reachable_and_labelled(browser):
    (width, visible), wide = browser.execute_script(OVERFLOW)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE
    assert width <= visible <= PHONE and wide == []
    controls = browser.execute_script(CONTROLS)
    assert controls, "no form control on the page"
    failing = [
        (each["control"], [check for check in ("named", "described", "within", "touched", "tabbed") if not each[check]])
        for each in controls
    ]
    assert [(control, checks) for control, checks in failing if checks] == []
    return [each["control"] for each in controls]


@pytest.fixture
def alice(officer):
    """A junior on the federation's records, born on 2 June 2014, and the officer's address."""
    officer.email = "officer@example.org"
    officer.save()
    return PlayerFactory(code="400001A", surname="Fletcher", forenames="Alice", birth_date=datetime.date(2014, 6, 2))


@pytest.fixture
def robin(arbiter):
    arbiter.email, arbiter.first_name, arbiter.last_name = "robin@example.org", "Robin", "Hale"
    arbiter.save()
    return arbiter


def test_the_privacy_page_fits_a_phone_and_its_contents_lead_to_each_part(phone, live_server):
    phone.delete_all_cookies()
    phone.get(live_server.url + "/privacy/")

    # The site's search in the header is the page's one form: reached and labelled too.
    assert fits_and_every_control_is_reachable_and_labelled(phone) == ["input[name=q]", "button"]
    phone.find_element(By.LINK_TEXT, "How to ask").click()

    heading = phone.find_element(By.ID, "ask-h")
    wait(phone, lambda page: page.execute_script("return location.hash") == "#ask")
    top = phone.execute_script("return arguments[0].getBoundingClientRect().top", heading)
    assert 0 <= top < 200, top  # the part asked for is at the top of the screen


def test_the_account_page_fits_a_phone_and_a_new_address_is_asked_for_by_touch(phone, live_server, robin, inbox):
    log_in(phone, live_server, robin)
    phone.get(live_server.url + "/accounts/")

    controls = fits_and_every_control_is_reachable_and_labelled(phone)
    assert controls[-3:] == ["input[name=email]", "input[name=password]", "button"]
    phone.find_element(By.NAME, "email").send_keys("robin.hale@example.net")
    phone.find_element(By.NAME, "password").send_keys("not-it")
    phone.find_element(By.XPATH, "//button[text()='Mail a link to the new address']").click()

    assert message(phone, "#id_password_error", "") == "That is not your password."
    assert phone.find_element(By.NAME, "password").get_attribute("aria-invalid") == "true"
    fits_and_every_control_is_reachable_and_labelled(phone)
    phone.find_element(By.NAME, "password").send_keys("pw")
    phone.find_element(By.XPATH, "//button[text()='Mail a link to the new address']").click()

    assert message(phone, ".messages li", "A link") == (
        "A link to confirm it is mailed to robin.hale@example.net: your address changes when you follow it."
    )
    wait(phone, lambda page: len(inbox.to("robin.hale@example.net")) == 1)


def test_the_mails_page_fits_a_phone_and_a_kind_is_turned_off_by_touching_its_label(phone, live_server, robin):
    log_in(phone, live_server, robin)
    phone.get(live_server.url + "/accounts/mails/")

    controls = fits_and_every_control_is_reachable_and_labelled(phone)
    kinds = [Kind.APPROVED, Kind.SENT_BACK, Kind.RATED, Kind.HELD, Kind.ACKNOWLEDGED]
    assert controls[-6:] == [f"input[name={kind}]" for kind in kinds] + ["button"]
    phone.find_element(By.CSS_SELECTOR, f"label[for=id_{Kind.ACKNOWLEDGED}]").click()
    assert not phone.find_element(By.NAME, Kind.ACKNOWLEDGED).is_selected()
    phone.find_element(By.XPATH, "//button[text()='Save']").click()

    assert message(phone, ".messages li", "Saved") == "Saved. Your error report is received: off."
    assert list(MailChoice.objects.filter(user=robin).values_list("kind", "on")) == [(Kind.ACKNOWLEDGED, False)]
    assert not phone.find_element(By.NAME, Kind.ACKNOWLEDGED).is_selected()


def test_an_officers_personal_data_page_fits_a_phone_and_restricts_and_erases_by_touch(
    phone, live_server, officer, alice
):
    log_in(phone, live_server, officer)
    phone.get(live_server.url + f"/admin/players/player/{alice.pk}/personal-data/")

    controls = fits_and_every_control_is_reachable_and_labelled(phone)
    for name in ("export-reason", "export-addresses", "restrict-reason", "erase-reason", "erase-sure"):
        assert f"textarea[name={name}]" in controls or f"input[name={name}]" in controls, name
    phone.find_element(By.NAME, "restrict-reason").send_keys("Her mother's letter of 3 November.")
    phone.find_element(By.CSS_SELECTOR, "#restrict [type=submit]").click()

    said = message(phone, ".messagelist li", "Fletcher")
    assert said == "Fletcher, Alice's name is now shown as initials on every public page."
    assert phone.find_element(By.CSS_SELECTOR, "#lift [type=submit]").get_attribute("value") == "Show the whole name"
    history = phone.find_element(By.CSS_SELECTOR, "table.data-history tbody").text
    assert "Her mother's letter of 3 November." in history and "officer" in history
    fits_and_every_control_is_reachable_and_labelled(phone)

    phone.find_element(By.NAME, "erase-reason").send_keys("Her mother's e-mail of 4 November.")
    phone.find_element(By.CSS_SELECTOR, "#erase [type=submit]").click()  # not yet ticked: the browser says so
    sure = phone.find_element(By.NAME, "erase-sure")
    assert phone.execute_script("return arguments[0].validationMessage", sure) != ""
    assert Player.objects.get(pk=alice.pk).birth_date is not None
    phone.find_element(By.CSS_SELECTOR, "label[for=id_erase-sure]").click()  # the sentence, touched
    phone.find_element(By.CSS_SELECTOR, "#erase [type=submit]").click()

    said = message(phone, ".messagelist li.success", "Fletcher, Alice's personal data is erased")
    assert said.startswith("Fletcher, Alice's personal data is erased: 1 birth date(s) of the record cleared")
    assert Player.objects.get(pk=alice.pk).birth_date is None
    assert list(PlayerChange.objects.filter(player=alice).order_by("pk").values_list("action", flat=True)) == [
        "restricted",
        "erased",
    ]
    fits_and_every_control_is_reachable_and_labelled(phone)
