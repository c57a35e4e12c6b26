"""The settings module, read in fresh processes with the environment a deployment gives it."""

import json
import os
import subprocess
import sys

from tests.builders import ROOT

PRODUCTION = {
    "SECRET_KEY": "a-production-secret-that-is-long-and-random-enough-0123456789abcdefgh",
    "DEBUG": "false",
    "ALLOWED_HOSTS": "ratings.example.org",
    "DATABASE_URL": "postgres://ratings@db.internal:5432/ratings",
    "REDIS_URL": "redis://cache.internal:6379/0",
    "EMAIL_HOST": "smtp.internal",
    "SITE_URL": "https://ratings.example.org",
}


def run_django(code, **env):
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in {*PRODUCTION, "TIME_ZONE", "CACHE_URL", "DATABASE_REPLICA_URL"}
    }
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; " + code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
    )


def read_settings(**env):
    names = ["DEBUG", "ALLOWED_HOSTS", "TIME_ZONE", "CELERY_TASK_ALWAYS_EAGER", "CELERY_BROKER_URL"]
    result = run_django(
        "import json; db = settings.DATABASES['default']; print(json.dumps({"
        + ", ".join(f"'{name}': settings.{name}" for name in names)
        + ", 'ENGINE': db['ENGINE'], 'NAME': str(db['NAME']), 'HOST': db.get('HOST', '')}))",
        **env,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_nothing_set_but_debug_it_runs_on_sqlite_with_eager_tasks():
    values = read_settings(DEBUG="true")

    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"].endswith("var/federation.sqlite3")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is True
    assert values["TIME_ZONE"] == "Europe/London"
    assert values["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost"]


def test_production_reads_the_database_and_broker_from_the_environment():
    values = read_settings(**PRODUCTION, TIME_ZONE="Europe/Dublin")

    assert (values["ENGINE"], values["NAME"], values["HOST"]) == (
        "django.db.backends.postgresql",
        "ratings",
        "db.internal",
    )
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False
    assert values["CELERY_BROKER_URL"] == "redis://cache.internal:6379/0"
    assert values["DEBUG"] is False
    assert values["ALLOWED_HOSTS"] == ["ratings.example.org"]
    assert values["TIME_ZONE"] == "Europe/Dublin"


def test_it_refuses_to_start_in_production_without_a_secret_key():
    result = run_django("print(settings.DEBUG)", DEBUG="false")

    assert result.returncode != 0
    assert "Set SECRET_KEY (or DEBUG=true for a development server)." in result.stderr


def test_it_refuses_a_debug_value_it_cannot_read():
    result = run_django("print(settings.DEBUG)", DEBUG="maybe")

    assert "DEBUG must be true or false, not 'maybe'" in result.stderr


def deploy_check(settings):
    """``manage.py check --deploy`` failing on warnings, under ``settings`` alone."""
    clean = {key: value for key, value in os.environ.items() if key not in {*PRODUCTION, "DATABASE_REPLICA_URL"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **settings},
        capture_output=True,
        text=True,
    )


def test_the_deployment_checklist_is_clean_under_production_settings():
    result = deploy_check(PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_deployment_checklist_warns_of_mail_printed_on_a_console_and_links_not_https():
    result = deploy_check({key: value for key, value in PRODUCTION.items() if key not in ("EMAIL_HOST", "SITE_URL")})

    assert result.returncode != 0
    assert "alerts.W001" in result.stderr and "alerts.W002" in result.stderr


def test_cache_url_puts_the_cache_in_redis_and_without_it_each_process_keeps_its_own():
    code = "print(settings.CACHES['default']['BACKEND'], settings.CACHES['default'].get('LOCATION', ''))"

    shared = run_django(code, **PRODUCTION, CACHE_URL="redis://cache.internal:6379/1")
    own = run_django(code, **PRODUCTION)

    assert shared.stdout.split() == ["common.cache.DegradingRedisCache", "redis://cache.internal:6379/1"]
    assert own.stdout.split() == ["django.core.cache.backends.locmem.LocMemCache"]


def test_a_migrate_on_sqlite_no_longer_warns_of_the_covering_index_it_cannot_make(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--database", "default"],
        cwd=ROOT,
        env={
            **{key: value for key, value in os.environ.items() if key != "DATABASE_URL"},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "true",
            "VAR_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stderr
    assert "W040" not in result.stdout + result.stderr
    assert "System check identified no issues (1 silenced)." in result.stdout


def test_on_postgresql_the_covering_index_warning_is_kept():
    result = run_django("print(settings.SILENCED_SYSTEM_CHECKS)", **PRODUCTION)

    assert result.stdout.strip() == "[]", result.stderr


def test_the_silenced_warning_can_only_be_about_the_current_states_index():
    from django.apps import apps

    covering = [
        (model.__name__, index.name) for model in apps.get_models() for index in model._meta.indexes if index.include
    ]

    assert covering == [("PlayerRating", "current_states")]


REPLICA_URL = "postgres://ratings@replica.internal:5432/ratings"


def test_a_replica_url_adds_the_replica_its_router_and_its_middleware():
    code = (
        "import json; from django.db import connections; replica = settings.DATABASES['replica']; print(json.dumps(["
        "replica['HOST'], replica['TEST']['MIRROR'], replica['OPTIONS']['connect_timeout'], settings.DATABASE_ROUTERS, "
        "settings.MIDDLEWARE[-1], settings.DATABASE_REPLICA_STICKY_SECONDS]))"
    )
    result = run_django(code, **PRODUCTION, DATABASE_REPLICA_URL=REPLICA_URL)

    assert json.loads(result.stdout) == [
        "replica.internal",
        "default",
        2,
        ["common.replica.ReplicaRouter"],
        "common.replica.ReplicaReads",
        10,
    ], result.stderr


def test_without_a_replica_url_there_is_one_database_and_no_routing():
    code = (
        "import json; print(json.dumps([list(settings.DATABASES), settings.DATABASE_ROUTERS, "
        "'common.replica.ReplicaReads' in settings.MIDDLEWARE]))"
    )

    assert json.loads(run_django(code, **PRODUCTION).stdout) == [["default"], [], False]


def test_the_deployment_checklist_warns_of_a_replica_url_naming_the_primarys_database():
    same = deploy_check({**PRODUCTION, "DATABASE_REPLICA_URL": "postgres://reader:secret@db.internal/ratings"})
    another = deploy_check({**PRODUCTION, "DATABASE_REPLICA_URL": REPLICA_URL})

    assert same.returncode != 0 and "common.W001" in same.stderr
    assert "DATABASE_REPLICA_URL names the database of DATABASE_URL" in same.stderr
    assert another.returncode == 0, another.stdout + another.stderr
