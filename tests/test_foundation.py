import subprocess
import sys

import pytest
from django.core.management import call_command

from grading.models import RatingList
from tests.builders import ROOT


def test_no_model_change_lacks_a_migration():
    result = subprocess.run(
        [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"DJANGO_SETTINGS_MODULE": "tests.settings", "PATH": ""},
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "No changes detected" in result.stdout


def test_the_system_checks_pass():
    call_command("check", fail_level="WARNING")


@pytest.mark.django_db
def test_the_three_lists_exist_from_the_start_with_the_2024_rules():
    lists = RatingList.objects.order_by("display_order")

    assert [(item.code, item.rule_set, item.standard_play, item.online) for item in lists] == [
        ("otb-standard", "ecf-2024", True, False),
        ("otb-rapid", "ecf-2024", False, False),
        ("online", "ecf-2024", False, True),
    ]
    assert [(item.min_minutes, item.max_minutes) for item in lists] == [(60, None), (10, 60), (0, None)]


def test_dev_serve_refuses_a_port_that_is_not_a_number_before_touching_anything():
    result = subprocess.run(
        ["./dev", "serve", "eighty"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=30,
    )

    assert result.returncode == 2
    assert result.stderr == "The port is a number from 1 to 65535, not 'eighty' (./dev serve 8001).\n"


def serve_as_dev_would(tmp_path, *arguments, **environment):
    """Run the ``dev`` script's ``serve`` for real, in a copy of it whose .venv's python only
    writes down the address and environment it was run with: what the served site is given."""
    (tmp_path / "dev").write_bytes((ROOT / "dev").read_bytes())
    (tmp_path / "dev").chmod(0o755)
    (tmp_path / "pyproject.toml").write_text("")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\n[ "$2" = runserver ] && echo "$3 ${SITE_URL:-unset}" > served\nexit 0\n')
    python.chmod(0o755)
    (tmp_path / ".venv" / ".installed-").touch()
    result = subprocess.run(
        [str(tmp_path / "dev"), "serve", *arguments],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", **environment},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    return (tmp_path / "served").read_text().split()


def test_dev_serve_on_a_port_of_its_own_gives_the_site_that_address_for_the_links_in_its_mails(tmp_path):
    assert serve_as_dev_would(tmp_path, "8151") == ["127.0.0.1:8151", "http://127.0.0.1:8151"]


def test_dev_serve_keeps_a_site_address_set_before_it(tmp_path):
    served = serve_as_dev_would(tmp_path, "8151", SITE_URL="https://ratings.example.org")

    assert served == ["127.0.0.1:8151", "https://ratings.example.org"]
