"""With the cache's Redis down, every public page is still served: the cache answers as empty."""

import pytest
from django.core.cache import cache
from django.test import override_settings

from tests.redis_server import redis_server

PAGES = [
    "/",
    "/lists/",
    "/lists/otb-standard/",
    "/lists/otb-standard/2026-10/",
    "/players/?q=Fletcher",
    "/players/200002B/",
    "/clubs/",
    "/clubs/NQC/",
    "/events/",
    "/events/NQ2609/",
    "/lists/otb-standard/top/",
    "/api/v1/",
    "/api/v1/lists/otb-standard/",
]


@pytest.mark.parametrize("page", PAGES)
def test_every_public_page_is_served_while_the_caches_redis_is_down(client, federation, page):
    with redis_server() as server, override_settings(CACHES=server.as_cache):
        assert client.get(page).status_code == 200  # filled from the pages, with Redis up
        server.stop()

        response = client.get(page)

        assert response.status_code == 200
        assert cache.get("anything", "missed") == "missed"


def test_a_limit_counted_in_the_cache_counts_while_redis_is_up_and_lets_everything_by_while_it_is_down():
    from common.cache import within_rate

    with redis_server() as server, override_settings(CACHES=server.as_cache):
        assert [within_rate("outage-test", 2, 3600)[0] for _ in range(3)] == [True, True, False]
        server.stop()

        assert [within_rate("outage-test", 2, 3600)[0] for _ in range(3)] == [True, True, True]


def test_the_cache_answers_again_once_its_redis_is_back_through_the_client_it_keeps():
    with redis_server() as server, override_settings(CACHES=server.as_cache):
        cache.set("kept", "before")
        client = cache._cache.get_client()
        server.stop()
        assert cache.get("kept", "missed") == "missed"
        server.start()  # empty again, as a Redis that keeps nothing

        cache.set("kept", "after")

        assert cache.get("kept") == "after"
        assert cache._cache.get_client() is client  # one client a pool, not one a call
