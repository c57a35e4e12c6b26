"""Fixtures only: the tests' builders are tests/builders.py."""

import datetime

import pytest

from tests.celery_worker import running_worker


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
