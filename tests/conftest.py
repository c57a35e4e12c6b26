"""Fixtures only: the tests' builders are tests/builders.py. Nothing of Django is imported at the
top: the engine's tests run without it (pytest tests/engine -p no:django)."""

import datetime
import os
import shutil
import tempfile

import pytest

from tests.celery_worker import running_worker


@pytest.fixture
def rate(django_capture_on_commit_callbacks):
    """Run a rating through the service as the admin would, and wait for it to end."""
    from chess.months import Month
    from grading.models import RatingList
    from grading.run.runs import do_start_rating
    from grading.run.workers import wait_for

    def rate(list_code, month, today=datetime.date(2026, 11, 21)):
        with django_capture_on_commit_callbacks(execute=True):
            run = do_start_rating(RatingList.objects.get(code=list_code), Month.parse(month), "test", today=today)
        return wait_for(run, pickup_timeout=5)

    return rate


def without_django(request) -> bool:
    """The engine's tests run with ``-p no:django`` too (docs/engine.md): no settings, no site."""
    return not request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def tasks_in_process(request):
    """Tests run Celery tasks in their own process, whatever REDIS_URL says, unless they start
    a real worker (running_worker, celery_worker_process), which switches this off."""
    if without_django(request):
        yield
        return
    from celery._state import _set_task_join_will_block

    from config.celery import app

    # Celery marks "inside a task" in one flag for the whole process, set and put back around
    # every task run in process: two threads running tasks at once (the tests of concurrent
    # approvals and runs) can put it back in the wrong order and leave it set, and every later
    # result.get() would then refuse to wait. Each test starts outside any task.
    _set_task_join_will_block(False)
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def fresh_cache(request):
    """Every test starts with an empty cache: with CACHE_URL it is a Redis database that outlives
    the test run, and what one test kept must not answer another (nor the club menu a process
    keeps)."""
    if without_django(request):
        yield
        return
    from django.core.cache import cache

    from common.memory import forget_everything

    cache.clear()
    forget_everything()  # what this process keeps in its own memory
    yield
    cache.clear()


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker):
    with running_worker() as worker:
        yield worker


@pytest.fixture
def celery_worker_process(celery_worker_session):
    """The session's worker; tasks of the test go to it, not in process, and are over when the
    test is."""
    from config.celery import app
    from tests.celery_worker import drain

    app.conf.task_always_eager = False
    yield celery_worker_session
    drain(app)
    app.conf.task_always_eager = True


# A real S3-compatible object store.


@pytest.fixture(scope="session")
def s3_server():
    """moto's S3 server, a process of the session's own (tests/s3_server.py)."""
    from tests.s3_server import s3_server

    with s3_server() as server:
        yield server


@pytest.fixture
def object_store(settings, s3_server):
    """The site stores its files in a new bucket of the test's own, as config/settings.py sets the
    store up from STORAGE_S3_*; yields the bucket, read with boto3 directly."""
    from tests.s3_server import site_stores_in

    bucket = s3_server.bucket()
    site_stores_in(settings, bucket)
    return bucket


@pytest.fixture(scope="session")
def streaming_replica(django_db_setup):
    """A streaming replica of the test database, made once it is migrated, for the session
    (tests/replica_server.py); the alias ``replica`` reads it."""
    from tests.replica_server import streaming_replica

    with streaming_replica() as replica:
        yield replica


@pytest.fixture
def replica(streaming_replica, settings):
    """The site as DATABASE_REPLICA_URL makes it (config/settings.py): the router, and the
    middleware that lets the public pages and the read API read the replica."""
    settings.DATABASE_ROUTERS = ["common.replica.ReplicaRouter"]
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "common.replica.ReplicaReads"]
    yield streaming_replica
    streaming_replica.resume()  # a test that paused it leaves it replaying for the next


# The roles' users.


def with_role(user, role):
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def arbiter(django_user_model):
    from accounts.roles import ARBITERS

    user = django_user_model.objects.create_user("arbiter", password="pw")
    return with_role(user, ARBITERS)


@pytest.fixture
def other_arbiter(django_user_model):
    from accounts.roles import ARBITERS

    user = django_user_model.objects.create_user("other", password="pw")
    return with_role(user, ARBITERS)


@pytest.fixture
def officer(django_user_model):
    from accounts.roles import RATING_OFFICERS

    user = django_user_model.objects.create_user("officer", password="pw", is_staff=True)
    return with_role(user, RATING_OFFICERS)


@pytest.fixture
def federation(db):
    """The public site's small federation with known numbers (tests.builders.build_federation)."""
    from tests.builders import build_federation

    return build_federation()


# A real browser.

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


@pytest.fixture
def phone(browser):
    """The browser at a phone's width for one test."""
    from tests.public.test_in_a_browser import PHONE

    size = browser.get_window_size()
    browser.set_window_size(PHONE, 900)
    yield browser
    browser.set_window_size(size["width"], size["height"])


@pytest.fixture(autouse=True)
def nothing_refused_by_the_content_security_policy(request):
    """After each browser test: the console shows no script, style or image the policy refused."""
    yield
    if "browser" in request.fixturenames:
        logs = request.getfixturevalue("browser").get_log("browser")
        assert [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]] == []


# A real SMTP server.


@pytest.fixture
def smtp_server(settings, tmp_path):
    """The site's mail goes through a real SMTP server the test starts (tests/mail_server.py);
    its inbox reads what arrived."""
    from tests.mail_server import SMTPServer

    server = SMTPServer(tmp_path)
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", server.port, 5
    settings.SITE_URL = "https://ratings.example.org"
    yield server
    server.stop()


@pytest.fixture
def inbox(smtp_server):
    return smtp_server.inbox
