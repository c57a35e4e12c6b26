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
