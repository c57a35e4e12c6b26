import os
import shutil
import tempfile

import pytest

from tests.builders import build_federation

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from Debian's packages, driven by Selenium with the system driver."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        message = "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(5)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(autouse=True)
def nothing_refused_by_the_content_security_policy(request):
    """After each browser test: the console shows no script, style or image the policy refused."""
    yield
    if "browser" in request.fixturenames:
        logs = request.getfixturevalue("browser").get_log("browser")
        assert [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]] == []


@pytest.fixture
def federation(db):
    """The public site's small federation (tests.builders.build_federation)."""
    return build_federation()
