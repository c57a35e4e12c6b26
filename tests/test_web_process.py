"""A web process's start (config/wsgi.py): what it loads then is compiled once and frozen out of
the garbage collector's walks, so that no request pays for a full collection over it."""

import os
import subprocess
import sys

from django.conf import settings

PROBE = """
import gc, config.wsgi
from django.template import engines
loader = engines["django"].engine.template_loaders[0]
print(gc.get_freeze_count(), len(loader.get_template_cache))
"""


def test_a_started_web_process_has_compiled_every_template_and_frozen_what_it_loaded():
    templates = sum(1 for _ in (settings.BASE_DIR / "templates").rglob("*.html"))
    env = {"DEBUG": "false", "SECRET_KEY": "a-test-key-long-enough-for-a-web-process-start-0123456789"}
    probe = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=settings.BASE_DIR,
        env={**os.environ, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )

    frozen, compiled = map(int, probe.stdout.split())

    assert frozen > 50_000  # settings, apps, models, routes, templates: over a hundred thousand objects
    assert compiled >= templates
