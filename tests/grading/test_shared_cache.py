"""With CACHE_URL the cache is Redis, shared by every process: a publication made by the worker
is seen by the web processes at once, not after the minute the latest publications are kept."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

from grading.selectors.history import latest_publications
from tests.builders import ROOT, PlayerFactory, publish_month

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not settings.CACHE_URL, reason="needs CACHE_URL: a shared cache needs a real Redis"),
]


def forget_publications_in_another_process():
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); "
            "from grading.run.publishing import forget_publications; forget_publications()",
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        check=True,
    )


def test_a_publication_forgotten_by_another_process_is_seen_here_at_once():
    player = PlayerFactory()
    publish_month("otb-standard", "2026-09", [{"player": player, "rating": 1500}])
    assert latest_publications()  # now in the cache
    # Published by another process (a worker): what it forgets on commit, it forgets there.
    publish_month("otb-standard", "2026-10", [{"player": player, "rating": 1510}], on_commit=False)
    assert [published.period.month for published in latest_publications().values()] == ["2026-09"]

    forget_publications_in_another_process()

    assert [published.period.month for published in latest_publications().values()] == ["2026-10"]
