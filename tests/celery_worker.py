"""A real Celery worker process for the tests that need one (conftest.py's fixtures use it)."""

import contextlib
import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from kombu import pools

ROOT = Path(__file__).resolve().parents[1]


def worker_needs(redis_url=None):
    """Skip (fail on CI) where a real worker cannot run: no broker, or an in-memory database."""
    from django.conf import settings
    from django.db import connection

    if not (redis_url or settings.REDIS_URL):
        message = "needs REDIS_URL: a real worker needs a real broker"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    database = connection.settings_dict
    if database["ENGINE"].endswith("sqlite3") and not str(database["NAME"]).endswith(".sqlite3"):
        pytest.skip("an in-memory SQLite test database cannot be shared with a worker process")


@contextlib.contextmanager
def running_worker(redis_url=None, **env):
    """A real ``celery worker`` process on a queue of its own, reading the test database, its
    broker REDIS_URL's or ``redis_url`` (a test's own: this process then sends there too, see
    celery_on), with the settings ``env`` gives besides (the SMTP server of a test, say).

    Tests that use it must commit their data (``transactional_db``) for the worker to see it.
    """
    with running_workers(1, redis_url, **env) as (worker,):
        yield worker


@contextlib.contextmanager
def running_workers(count, redis_url=None, **extra):
    """``count`` real worker processes sharing a queue of their own (see running_worker)."""
    from django.db import connection

    from config.celery import app, worker_command

    worker_needs(redis_url)
    queue = f"tests-{uuid.uuid4().hex[:12]}"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="tests.settings",
        TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        TEST_CELERY_QUEUE=queue,
        **({"REDIS_URL": redis_url} if redis_url else {}),
        **extra,
    )
    names = [f"{queue}-{number}@" for number in range(count)]
    workers = [
        subprocess.Popen(
            worker_command(name, queue),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name in names
    ]
    previous = app.conf.task_default_queue, app.conf.task_always_eager
    app.conf.task_default_queue, app.conf.task_always_eager = queue, False
    if redis_url:
        forget_connections(app)  # a test's own Redis may have been restarted since
    try:
        for name, worker in zip(names, workers):
            wait_for_worker(app, name, worker)
        yield workers
    finally:
        app.conf.task_default_queue, app.conf.task_always_eager = previous
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()


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


def drain(app, timeout=60):
    """Wait until the workers have no task of the test left running or waiting, and revoke the
    delayed ones (a live-ratings computation waits a few seconds): a task that outlived its test
    would meet the next test's data in the same database, and could hold its list lock."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=1)
        for tasks in (inspect.scheduled() or {}).values():
            for task in tasks:
                app.control.revoke(task["request"]["id"])
        busy = [
            task
            for found in (inspect.active(), inspect.reserved())
            for tasks in (found or {}).values()
            for task in tasks
        ]
        if not busy:
            return
        time.sleep(0.2)
    pytest.fail(f"the worker still had tasks after {timeout} s: {busy}")


@contextlib.contextmanager
def celery_on(url):
    """This process's Celery sends to, and reads results from, the Redis at ``url`` (a test's
    own, tests/redis_server.py), as with REDIS_URL set: tasks are not run in process."""
    from config.celery import app

    names = ("broker_url", "result_backend", "task_always_eager")
    previous = {name: app.conf[name] for name in names}
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    forget_connections(app)
    try:
        yield
    finally:
        forget_connections(app)
        app.conf.update(previous)


def forget_connections(app):
    # The connections Celery and kombu keep were made to the Redis configured before, or to a
    # Redis since restarted.
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
    app._backend_cache = app._local.backend = None


def wait_until(condition, what, timeout=60):
    """Wait for ``condition()`` to hold, as a worker's work is seen from the test; fail after
    ``timeout`` seconds saying ``what`` was awaited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail(f"timed out waiting until {what}")
