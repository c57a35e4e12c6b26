"""The settings module, read in fresh processes with the environment a deployment gives it."""

import json
import os
import subprocess
import sys

import pytest

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


STORE = {
    "STORAGE_S3_BUCKET": "ratings-files",
    "STORAGE_S3_ENDPOINT_URL": "https://s3.internal:9000",
    "STORAGE_S3_REGION": "eu-west-2",
    "STORAGE_S3_ACCESS_KEY_ID": "ratings",
    "STORAGE_S3_SECRET_ACCESS_KEY": "a-secret-of-the-store-0123456789",
}
# What a test's settings must not take from the environment the tests run in (CI sets CACHE_URL).
NOT_INHERITED = {
    *PRODUCTION,
    *STORE,
    "STORAGE_S3_ADDRESSING_STYLE",
    "TIME_ZONE",
    "CACHE_URL",
    "WEB_MACHINES",
    "DATABASE_REPLICA_URL",
}


def run_django(code, **env):
    clean = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
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
    clean = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
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


def test_the_deployment_checklist_warns_that_without_a_broker_a_reset_answers_later_for_a_known_address():
    result = deploy_check({key: value for key, value in PRODUCTION.items() if key != "REDIS_URL"})

    assert result.returncode != 0
    assert "accounts.W001" in result.stderr
    assert "the time of the answer tells whether an account has it" in result.stderr


def test_cache_url_puts_the_cache_in_redis_and_without_it_each_process_keeps_its_own():
    code = "print(settings.CACHES['default']['BACKEND'], settings.CACHES['default'].get('LOCATION', ''))"

    shared = run_django(code, **PRODUCTION, CACHE_URL="redis://cache.internal:6379/1")
    own = run_django(code, **PRODUCTION)

    assert shared.stdout.split() == ["common.cache.DegradingRedisCache", "redis://cache.internal:6379/1"]
    assert own.stdout.split() == ["django.core.cache.backends.locmem.LocMemCache"]


def test_a_migrate_on_sqlite_no_longer_warns_of_the_covering_indexes_it_cannot_make(tmp_path):
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
    assert "System check identified no issues (2 silenced)." in result.stdout


def test_on_postgresql_the_covering_index_warning_is_kept():
    result = run_django("print(settings.SILENCED_SYSTEM_CHECKS)", **PRODUCTION)

    assert result.stdout.strip() == "[]", result.stderr


def test_the_silenced_warning_can_only_be_about_the_two_covering_indexes():
    from django.apps import apps

    covering = [
        (model.__name__, index.name) for model in apps.get_models() for index in model._meta.indexes if index.include
    ]

    assert sorted(covering) == [("ListEntry", "list_by_club"), ("PlayerRating", "current_states")]


def storage_settings(**env):
    """The site's storage as a process builds it from ``env``: its class and what it was given."""
    code = (
        "import json; from django.core.files.storage import storages; store = storages['default']; "
        "options = settings.STORAGES['default'].get('OPTIONS', {}); config = options.pop('client_config', None); "
        "print(json.dumps({'class': type(store).__name__, **options, 'location': str(getattr(store, 'location', '')), "
        "**({'config': [config.connect_timeout, config.read_timeout, config.retries, config.s3]} if config else {})}))"
    )
    result = run_django(code, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_a_bucket_every_stored_file_goes_to_the_object_store_privately():
    store = storage_settings(**PRODUCTION, **STORE)

    assert store["class"] == "S3Storage"
    assert (store["bucket_name"], store["endpoint_url"], store["region_name"]) == (
        "ratings-files",
        "https://s3.internal:9000",
        "eu-west-2",
    )
    assert (store["access_key"], store["secret_key"]) == ("ratings", "a-secret-of-the-store-0123456789")
    # No ACL sent (as private as the bucket), never an unsigned address, never a file overwritten.
    assert (store["default_acl"], store["querystring_auth"], store["file_overwrite"]) == (None, True, False)
    assert store["addressing_style"] == "path"  # a server of one's own: the bucket in the path
    # Given up on within seconds when it does not answer.
    assert store["config"] == [3, 10, {"mode": "standard", "max_attempts": 2}, {"addressing_style": "path"}]


def test_on_amazon_s3_boto3_chooses_the_address_and_finds_its_own_keys():
    store = storage_settings(**PRODUCTION, STORAGE_S3_BUCKET="ratings-files", STORAGE_S3_REGION="eu-west-2")

    assert store["class"] == "S3Storage"
    assert (store["endpoint_url"], store["addressing_style"], store["access_key"]) == (None, None, None)
    assert store["config"][3] == {"addressing_style": None}


def test_without_a_bucket_files_stay_on_the_local_disk_as_before(tmp_path):
    store = storage_settings(DEBUG="true", VAR_DIR=str(tmp_path))

    assert store == {"class": "FileSystemStorage", "location": str(tmp_path / "media")}


CONFIGURED = {**PRODUCTION, **STORE, "CACHE_URL": "redis://cache.internal:6379/1", "WEB_MACHINES": "3"}


def test_the_deployment_checklist_is_clean_with_several_web_machines_sharing_the_store_and_cache():
    result = deploy_check(CONFIGURED)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_several_web_machines_are_told_what_they_do_not_share():
    result = deploy_check({**PRODUCTION, "WEB_MACHINES": "2"})

    assert result.returncode != 0
    assert "WEB_MACHINES is 2 but STORAGE_S3_BUCKET is not set: an event file uploaded through one machine" in (
        result.stderr
    )
    assert "WEB_MACHINES is 2 but CACHE_URL is not set" in result.stderr
    assert "DATABASE_URL is not set" not in result.stderr  # PostgreSQL: shared


def test_several_web_machines_on_sqlite_are_told_to_share_a_database_server():
    settings = {key: value for key, value in CONFIGURED.items() if key != "DATABASE_URL"}

    result = deploy_check(settings)

    assert "WEB_MACHINES is 3 but DATABASE_URL is not set: each machine would have a SQLite file" in result.stderr


@pytest.mark.parametrize(
    ("left_out", "said"),
    [
        (
            ["STORAGE_S3_BUCKET"],
            "STORAGE_S3_ENDPOINT_URL, STORAGE_S3_REGION, STORAGE_S3_ACCESS_KEY_ID, STORAGE_S3_SECRET_ACCESS_KEY are "
            "set without STORAGE_S3_BUCKET: uploaded files are kept on this machine's disk",
        ),
        (
            ["STORAGE_S3_ENDPOINT_URL", "STORAGE_S3_REGION"],
            "STORAGE_S3_BUCKET is set without STORAGE_S3_ENDPOINT_URL or STORAGE_S3_REGION",
        ),
        (
            ["STORAGE_S3_SECRET_ACCESS_KEY"],
            "STORAGE_S3_BUCKET is set without STORAGE_S3_SECRET_ACCESS_KEY: the store would refuse every upload",
        ),
        (
            ["STORAGE_S3_ACCESS_KEY_ID", "STORAGE_S3_SECRET_ACCESS_KEY"],
            "STORAGE_S3_BUCKET is set without STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY",
        ),
    ],
)
def test_a_store_half_set_up_is_named_with_what_it_lacks(left_out, said):
    result = deploy_check({key: value for key, value in CONFIGURED.items() if key not in left_out})

    assert result.returncode != 0
    assert said in " ".join(result.stderr.split())


def test_amazon_s3_with_a_region_and_no_keys_is_whole_boto3_finds_the_instances_role():
    store = {"STORAGE_S3_BUCKET": "ratings-files", "STORAGE_S3_REGION": "eu-west-2"}

    result = deploy_check({**PRODUCTION, **store})

    assert result.returncode == 0, result.stdout + result.stderr


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
