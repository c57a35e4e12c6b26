"""System status says what staff must know of the services: here, that the flood limits count
nothing while the cache's Redis (a Redis of the test's own, stopped) is down."""

import pytest
from django.test import override_settings

from tests.redis_server import redis_server

pytestmark = pytest.mark.django_db

LIMITS_OFF = (
    "The cache (CACHE_URL) cannot be reached: pages are built without it, and the flood limits "
    "(API uploads and submissions, asks to follow by e-mail, error reports) count nothing until it is back."
)


def text(response):
    return " ".join(response.content.decode().split())


def test_system_status_says_the_flood_limits_count_nothing_while_the_caches_redis_is_down(admin_client):
    with redis_server() as server, override_settings(CACHES=server.as_cache):
        up = admin_client.get("/admin/status/")
        server.stop()

        down = admin_client.get("/admin/status/")

    assert up.status_code == 200 and "The cache (CACHE_URL) answers: the flood limits count." in text(up)
    assert LIMITS_OFF not in text(up)
    assert down.status_code == 200 and LIMITS_OFF in text(down)
