"""The systemd units of deploy/systemd/ (README, Production): each process is started again
whenever it ends, with the settings of one environment file."""

import configparser
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[1] / "deploy" / "systemd"


def unit(name):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(UNITS / name)
    return parser["Service"]


@pytest.mark.parametrize(
    ("name", "command"),
    [
        ("ratings-worker.service", "/.venv/bin/celery -A config worker "),
        ("ratings-beat.service", "/.venv/bin/celery -A config beat "),
        ("ratings-web.service", "/.venv/bin/gunicorn config.wsgi "),
    ],
)
def test_each_unit_restarts_its_process_whenever_it_ends_with_the_one_environment_file(name, command):
    service = unit(name)

    assert (service["Restart"], service["RestartSec"]) == ("always", "5")
    assert service["EnvironmentFile"] == "/etc/ratings/ratings.env"
    assert command in service["ExecStart"]


def test_the_environment_file_example_sets_what_production_needs():
    names = {
        line.split("=", 1)[0]
        for line in (UNITS / "ratings.env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }

    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "ALLOWED_HOSTS"} <= names
