"""Which views read a replica and what the router answers (common/replica.py): settled without
one, so on SQLite too. The reads themselves are tests/test_replica.py's, against a real replica."""

from django.urls import URLPattern, URLResolver, get_resolver

from common.replica import ReplicaRouter, reads_replica_view


def views(resolver=None, prefix=""):
    """(path, url name, view) of every URL of the site."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from views(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name, pattern.callback


def test_the_public_pages_feeds_downloads_and_read_api_read_the_replica_and_no_other_page_does():
    readers = {path for path, _, view in views() if reads_replica_view(view)}
    primary = {path for path, _, view in views() if not reads_replica_view(view)}

    assert {
        "",
        "players/<str:code>/",
        "players/<str:code>/feed/",
        "feeds/publications/",
        "clubs/<path:code>/csv/",
    } < readers
    assert {
        "lists/<slug:code>/<month:month>/zip/",
        "lists/<slug:code>/live/",
        "calculator/",
        "events/<path:code>/",
    } < readers
    assert {
        "api/v1/players/<str:code>/",
        "api/v1/lists/<slug:code>/",
        "api/v1/calculator/",
        "api/v1/openapi.json",
    } < readers
    # The forms whose next page reads what they wrote; the API's events, which a pairing program reads back
    # after its upload, keeping no cookie.
    assert {
        "report/",
        "alerts/follow/",
        "alerts/<str:key>/confirm/",
        "api/v1/events/",
        "api/v1/events/<path:code>/",
    } < primary
    assert not any(path.startswith(("admin/", "accounts/", "arbiter/")) for path in readers)


def test_the_router_writes_and_migrates_on_the_primary_and_relates_rows_of_both():
    router = ReplicaRouter()

    class Row:
        class _state:
            db = "replica"

    class Other:
        class _state:
            db = "default"

    assert router.db_for_write(None) == "default"
    assert (router.allow_migrate("default", "players"), router.allow_migrate("replica", "players")) == (True, False)
    assert router.allow_relation(Row(), Other()) is True
    assert router.db_for_read(None) == "default"  # outside a request let read the replica
