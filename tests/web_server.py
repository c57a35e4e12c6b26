"""A web machine of a test's own: gunicorn serving the site, as production does, on a free port, in
a process apart with the environment the test gives it (its own VAR_DIR, so its own local disk)."""

import contextlib
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.builders import ROOT
from tests.ports import free_port, port_open


@contextlib.contextmanager
def web_server(log, **env):
    """Yields the address of a gunicorn serving the test's settings (tests/settings.py) with ``env``
    added; what it prints goes to the file ``log``, shown if it does not start."""
    port = free_port()
    with open(log, "w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
            cwd=ROOT,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", **env},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            address = f"http://127.0.0.1:{port}"
            wait_until_it_answers(process, address, log)
            yield address
        finally:
            process.terminate()
            process.wait(timeout=20)


def wait_until_it_answers(process, address, log, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if port_open(int(address.rsplit(":", 1)[1])):
            try:
                with urllib.request.urlopen(f"{address}/help/", timeout=10) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError):
                pass
        time.sleep(0.2)
    pytest.fail(f"the web server at {address} did not answer:\n{Path(log).read_text()[-3000:]}")
