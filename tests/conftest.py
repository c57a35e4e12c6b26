import contextlib
import datetime
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"  # real files from other software: see its README


@pytest.fixture
def rate(django_capture_on_commit_callbacks):
    """Run a rating through the service as the admin would, and wait for it to end."""
    from grading.engine.periods import Month
    from grading.models import RatingList
    from grading.services import start_rating
    from grading.workers import wait_for

    def rate(list_code, month, today=datetime.date(2026, 11, 21)):
        with django_capture_on_commit_callbacks(execute=True):
            run = start_rating(RatingList.objects.get(code=list_code), Month.parse(month), "test", today=today)
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
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def fresh_cache(request):
    """Every test starts with an empty cache: with CACHE_URL it is a Redis database that outlives
    the test run, and what one test kept must not answer another."""
    if without_django(request):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def worker_needs():
    """Skip (fail on CI) where a real worker cannot run: no broker, or an in-memory database."""
    from django.conf import settings
    from django.db import connection

    if not settings.REDIS_URL:
        message = "needs REDIS_URL: a real worker needs a real broker"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    database = connection.settings_dict
    if database["ENGINE"].endswith("sqlite3") and not str(database["NAME"]).endswith(".sqlite3"):
        pytest.skip("an in-memory SQLite test database cannot be shared with a worker process")


@contextlib.contextmanager
def running_worker():
    """A real ``celery worker`` process on a queue of its own, reading the test database.

    Tests that use it must commit their data (``transactional_db``) for the worker to see it.
    """
    from django.db import connection

    from config.celery import app

    worker_needs()
    queue = f"tests-{uuid.uuid4().hex[:12]}"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="tests.settings",
        TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        TEST_CELERY_QUEUE=queue,
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "-Q",
            queue,
            "--loglevel=INFO",
            "-n",
            f"{queue}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    previous = app.conf.task_default_queue, app.conf.task_always_eager
    app.conf.task_default_queue, app.conf.task_always_eager = queue, False
    try:
        wait_for_worker(app, f"{queue}@", worker)
        yield worker
    finally:
        app.conf.task_default_queue, app.conf.task_always_eager = previous
        if worker.poll() is None:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker):
    with running_worker() as worker:
        yield worker


@pytest.fixture
def celery_worker_process(celery_worker_session):
    """The session's worker; tasks of the test go to it, not in process."""
    from config.celery import app

    app.conf.task_always_eager = False
    yield celery_worker_session
    app.conf.task_always_eager = True


def wait_for_worker(app, name_prefix, worker, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            pytest.fail("the celery worker exited early:\n" + worker.stdout.read())
        replies = app.control.ping(timeout=1) or []
        if any(name.startswith(name_prefix) for reply in replies for name in reply):
            return
    worker.kill()
    pytest.fail("the celery worker did not start within a minute:\n" + worker.stdout.read())
