"""The project settings, with the few values a test run must not take from production."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-any-deployment")
# The suite reads one database: the replica tests (tests/test_replica.py) make the streaming replica
# they read, and add it themselves (tests/replica_server.py).
os.environ.pop("DATABASE_REPLICA_URL", None)

from config.settings import *  # noqa: E402,F403

SECURE_SSL_REDIRECT = False
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = VAR_DIR / "test-media"  # noqa: F405

# A worker process started by a test takes its own queue, and what it queues itself goes there too.
if os.environ.get("TEST_CELERY_QUEUE"):
    CELERY_TASK_DEFAULT_QUEUE = os.environ["TEST_CELERY_QUEUE"]

# A worker process started by a test reads the test database, whose name only the test run knows.
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["NAME"] = os.environ["TEST_DATABASE_NAME"]  # noqa: F405
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    # A file, not memory, so that a worker process can share the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}  # noqa: F405
