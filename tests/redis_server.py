"""A Redis server of a test's own, on a free port, that the test can stop to show an outage.
Never the machine's Redis, which other tests and the CI's broker use."""

import contextlib
import shutil
import subprocess
import time

import pytest

from tests.ports import free_port, port_open


@contextlib.contextmanager
def redis_server():
    """Yields a Server: ``url`` (database 0), and ``stop()`` for the outage."""
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server on the PATH")
    server = Server(free_port())
    try:
        yield server
    finally:
        server.stop()


class Server:
    """A redis-server process of the test's own."""

    def __init__(self, port):
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.start()

    def start(self):
        """Starts it (again, after ``stop()``: on the same port, empty, as a Redis that keeps nothing)."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not port_open(self.port):
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    @property
    def as_cache(self) -> dict:
        """The CACHES setting of the site's shared cache on this server, as production sets it."""
        return {
            "default": {
                "BACKEND": "common.cache.DegradingRedisCache",
                "LOCATION": self.url,
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            }
        }
