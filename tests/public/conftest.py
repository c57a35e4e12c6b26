import pytest

from tests.public.test_in_a_browser import PHONE


@pytest.fixture
def phone(browser):
    """The browser at a phone's width for one test."""
    size = browser.get_window_size()
    browser.set_window_size(PHONE, 900)
    yield browser
    browser.set_window_size(size["width"], size["height"])
