"""Settings for the federation rating site, driven by environment variables.

Every setting that differs between a laptop and production is read from the environment:
DATABASE_URL (and DATABASE_REPLICA_URL), REDIS_URL, CACHE_URL, SECRET_KEY, DEBUG, ALLOWED_HOSTS,
TIME_ZONE, and the few below.
With none of them set the site runs on a SQLite file with Celery tasks run in process, which
is what the README's first command uses.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name, default):
    value = os.environ.get(name, "")
    try:
        return int(value) if value else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def envlist(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = envbool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=true for a development server).")
    # Development only: a fixed key so sessions survive restarts of the runserver.
    SECRET_KEY = "development-only-key-never-used-in-production-" + "x" * 20

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
# A refused POST: JSON under the API, Django's page elsewhere (common/errors.py).
CSRF_FAILURE_VIEW = "common.errors.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.postgres",
    "django_tables2",
    "django_filters",
    "axes",
    "players",
    "events",
    "grading",
    "laboratory",
    "alerts",
    "corrections",
    "mails",
    "privacy",
    "api",
    "accounts",
    "arbiters",
    "public",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.middleware.RefuseNulCharacters",
    "common.middleware.ContentSecurityPolicy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An ETag on every page and API answer that may be kept, and 304 to a request that already has it.
    "django.middleware.http.ConditionalGetMiddleware",
    # Who may keep a response, and how long (docs/cache-control.md): outside the middleware that set
    # cookies, so that it sees them.
    "common.cache_control.CachePolicy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # No session read for a visitor without one: a public page is not sent with Vary: Cookie.
    "common.cache_control.AnonymousWithoutSession",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# Pages never kept by a proxy or CDN, whatever their views declare (common/cache_control.py).
NEVER_SHARED_PATHS = ["/admin/", "/accounts/", "/arbiter/"]
WSGI_APPLICATION = "config.wsgi.application"

# Django's form renderer, with inputs and menus written without a template each (common/forms.py).
FORM_RENDERER = "common.forms.WidgetRenderer"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Data that the site writes (the SQLite file, uploaded event files) lives under VAR_DIR.
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'federation.sqlite3'}",
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # Rating runs hold a write lock for their whole transaction; wait for it, don't fail.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 30
    # SQLite has no covering indexes: PlayerRating's "current_states" and ListEntry's
    # "list_by_club" indexes (the only ones with INCLUDE columns, as tests/test_settings.py
    # checks) are made there without them, which is what the warning says. PostgreSQL keeps the
    # check.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A streaming replica of that database (docs/database-replica.md, common/replica.py): the public
# pages, feeds, downloads and the read API read it, the views of REPLICA_READERS' modules but for
# REPLICA_NEVER's (the forms whose next page reads what they wrote, and the API's events, which a
# pairing program reads back after an upload, keeping no cookie). Every write, every other page,
# the tasks and the commands read the primary, as does for DATABASE_REPLICA_STICKY_SECONDS a
# visitor who wrote. Unset, there is one database and nothing of this runs.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
DATABASE_REPLICA_STICKY_SECONDS = envint("DATABASE_REPLICA_STICKY_SECONDS", 10)
REPLICA_READERS = ["public", "api"]
REPLICA_NEVER = ["public.alerts", "public.corrections", "api.uploads"]
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL,
        conn_max_age=DATABASES["default"]["CONN_MAX_AGE"],
        # A test run reads the test database on the primary (the replica tests start their own).
        test_options={"MIRROR": "default"},
    )
    if DATABASES["replica"]["ENGINE"] == "django.db.backends.postgresql":
        # A replica that is gone costs a page two seconds before it is read from the primary.
        DATABASES["replica"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)
    DATABASE_ROUTERS = ["common.replica.ReplicaRouter"]
    MIDDLEWARE.append("common.replica.ReplicaReads")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))

# Stored files (the uploaded event files) go to an S3-compatible object store where STORAGE_S3_BUCKET
# names one, so that every web machine reads what any other stored (docs/deployment.md); to
# MEDIA_ROOT otherwise. Either way they are never served back as-is: no MEDIA_URL route exists, no
# object's address is ever shown, and staff download a file through the site.
STORAGE_S3_BUCKET = os.environ.get("STORAGE_S3_BUCKET", "")
STORAGE_S3_ENDPOINT_URL = os.environ.get("STORAGE_S3_ENDPOINT_URL", "")
STORAGE_S3_REGION = os.environ.get("STORAGE_S3_REGION", "")
STORAGE_S3_ACCESS_KEY_ID = os.environ.get("STORAGE_S3_ACCESS_KEY_ID", "")
STORAGE_S3_SECRET_ACCESS_KEY = os.environ.get("STORAGE_S3_SECRET_ACCESS_KEY", "")
# A server of one's own (MinIO, Garage, Ceph...) is reached at its host name with the bucket in the
# path; Amazon S3 (no endpoint) as boto3 chooses.
STORAGE_S3_ADDRESSING_STYLE = os.environ.get("STORAGE_S3_ADDRESSING_STYLE", "path" if STORAGE_S3_ENDPOINT_URL else "")
OBJECT_STORE = {
    "BACKEND": "storages.backends.s3.S3Storage",
    "OPTIONS": {
        "bucket_name": STORAGE_S3_BUCKET,
        "endpoint_url": STORAGE_S3_ENDPOINT_URL or None,
        "region_name": STORAGE_S3_REGION or None,
        # Neither key: boto3 finds its own (an instance's role on Amazon S3).
        "access_key": STORAGE_S3_ACCESS_KEY_ID or None,
        "secret_key": STORAGE_S3_SECRET_ACCESS_KEY or None,
        "addressing_style": STORAGE_S3_ADDRESSING_STYLE or None,
        # Private: no ACL is sent, so an object is as private as its bucket; an address, were one
        # ever asked for, would be signed and expire.
        "default_acl": None,
        "querystring_auth": True,
        # A name taken is never overwritten, as on the disk: another name is chosen.
        "file_overwrite": False,
    },
}
if STORAGE_S3_BUCKET:
    from botocore.config import Config  # boto3 is loaded only by a site that has a store

    # A store that does not answer is given up on within seconds, as Redis is (an upload is
    # refused in words, a download says so), not after boto3's minutes of tries.
    OBJECT_STORE["OPTIONS"]["client_config"] = Config(
        s3={"addressing_style": STORAGE_S3_ADDRESSING_STYLE or None},
        connect_timeout=3,
        read_timeout=10,
        retries={"mode": "standard", "max_attempts": 2},
    )
STORAGES = {
    "default": OBJECT_STORE if STORAGE_S3_BUCKET else {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# How many web machines serve the site behind its load balancer: past one, they share nothing but
# the database server, Redis and the object store, which manage.py check --deploy asks for
# (events/uploads/store.py, docs/deployment.md).
WEB_MACHINES = envint("WEB_MACHINES", 1)

# In development whitenoise serves straight from the source folders; in production from
# STATIC_ROOT, filled by collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGIN_URL = "login"  # after it, each role's own start page (accounts.roles.start_page)

# Accounts (docs/accounts.md): a link mailed to reset a password, or to confirm a new e-mail
# address, lasts PASSWORD_RESET_HOURS; the link that sets up an invited or approved arbiter's
# account lasts INVITATION_DAYS. Each works once.
PASSWORD_RESET_TIMEOUT = envint("PASSWORD_RESET_HOURS", 24) * 3600
INVITATION_TIMEOUT = envint("INVITATION_DAYS", 7) * 24 * 3600

# Password guessing: after LOGIN_FAILURE_LIMIT wrong passwords for one username from one address
# (on the site's login or the admin's), that pair is refused for LOGIN_COOLOFF_MINUTES; a
# successful login clears the count. An administrator unlocks an account early in the admin (Axes:
# access attempts) or with "manage.py axes_reset_username NAME".
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
# Behind the HTTPS proxy (BEHIND_PROXY, on unless DEBUG) the visitor's address is the last one
# the proxy added to X-Forwarded-For; otherwise the connection's own.
BEHIND_PROXY = envbool("BEHIND_PROXY", not DEBUG)
AXES_CLIENT_IP_CALLABLE = "common.middleware.client_address"

# Event files are small (a 3,000-player TRF is about 600 KB): anything larger is refused.
MAX_UPLOAD_BYTES = envint("MAX_UPLOAD_BYTES", 5 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES + 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES + 1024 * 1024
# An arbiter's pairing program uploads and submits through the API (api/uploads.py): a
# tournament's rounds are a few uploads an hour, a program stuck in a loop is not.
API_WRITES_PER_HOUR = envint("API_WRITES_PER_HOUR", 120)

# Security: sensible for production, switched off only where plain-http development needs it.
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# The cache keeps published lists' pages and sizes and the latest publication of each list.
# Each process's own memory by default; with CACHE_URL (a Redis database other than the
# broker's, as clearing the cache empties its database) every web process and the worker share
# it, so a publication by the worker is seen by every web process at once.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    # Down, it answers as an empty cache (common/cache.py): a page is slower, never an error; and
    # a Redis that hangs is given up on within a second.
    CACHES = {
        "default": {
            "BACKEND": "common.cache.DegradingRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "ratings",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }

# Mail (the e-mail alerts, docs/alerts.md; the role mails, docs/mails.md): an SMTP server from
# the environment; without EMAIL_HOST, mails are printed on the console (./dev serve) and sent
# nowhere.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 30)
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Federation ratings <ratings@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address as the public reaches it: the links in mails, which a worker writes.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# The hour (the federation's time) at which the rating officers are mailed what waits for them.
OFFICER_DIGEST_HOUR = envint("OFFICER_DIGEST_HOUR", 7)

# Celery: Redis is the broker and the result backend. Without REDIS_URL tasks run in process.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 7 * 24 * 3600
CELERY_TIMEZONE = TIME_ZONE
# A rating run acknowledges its message only when done (acks_late), so that a worker killed part
# way does not lose it. Redis redelivers an unacknowledged message after the visibility timeout:
# it must be longer than the longest run (a FIDE-sized month takes minutes), or a run still
# working would be delivered a second time (which finds it claimed and leaves it be).
# Redis down must not hold a page or a command for long: a message that cannot be sent is given
# up on within a few seconds and its run stays queued (grading/run/broker.py), where Celery's result
# store would otherwise try 20 times a second apart; a Redis that does not answer at all is
# given up on after REDIS_CONNECT_TIMEOUT seconds.
REDIS_CONNECT_TIMEOUT = envint("REDIS_CONNECT_TIMEOUT", 2)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("RATING_VISIBILITY_TIMEOUT", 6 * 3600),
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True  # a worker started before Redis waits for it
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": CELERY_TASK_PUBLISH_RETRY_POLICY}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # one long run at a time per worker process

# The monthly run: every list is rated for the month just ended, on this day at this time
# (the schedule is in config/celery.py, beside the Celery app).
RATING_DAY = envint("RATING_DAY", 1)
RATING_HOUR = envint("RATING_HOUR", 2)
RATING_MINUTE = envint("RATING_MINUTE", 0)

# Federation codes: NNNNNNL by default (six digits and an ECF check letter; no I).
PLAYER_CODE_PATTERN = os.environ.get("PLAYER_CODE_PATTERN", r"[0-9]{6}[ABCDEFGHJKL]")

# The FIDE federations whose players become records when they first play a rated game here. A
# player the file gives another federation (a visitor) and no code of ours is registered only
# when a rating officer says so.
HOME_FEDERATIONS = [code.upper() for code in envlist("HOME_FEDERATIONS", ["ENG"])]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # In process (no REDIS_URL) every task would log its success to the console.
        "celery.app.trace": {"level": "INFO" if REDIS_URL else "WARNING"},
        "axes": {"level": "WARNING"},  # its start-up banner in every command; lockouts still show
    },
}
