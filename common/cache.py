"""The shared cache, which a Redis outage turns into a miss rather than an error page.

The cache only saves work: every page can be built without it. So a cache that cannot be
reached answers as an empty one (reads miss, writes are dropped) and says so in the log, and the
site stays up while Redis is down.
"""

import functools
import logging
import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# What each operation answers when the cache cannot be reached: what an empty cache would.
WHEN_UNREACHABLE = {
    "get": lambda *args, default=None, **kwargs: args[1] if len(args) > 1 else default,
    "get_many": lambda *args, **kwargs: {},
    "has_key": lambda *args, **kwargs: False,
    "add": lambda *args, **kwargs: False,
    # An empty cache has no count to add to: a limit counted in the cache counts nothing then.
    "incr": lambda *args, **kwargs: 0,
    "set": lambda *args, **kwargs: None,
    "set_many": lambda *args, **kwargs: [],
    "touch": lambda *args, **kwargs: False,
    "delete": lambda *args, **kwargs: False,
    "delete_many": lambda *args, **kwargs: None,
    "clear": lambda *args, **kwargs: None,
}


def degrading(name, method):
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except RedisError as error:
            logger.warning("the cache is unreachable (%s on %s): answered as a miss", type(error).__name__, name)
            return WHEN_UNREACHABLE[name](*args, **kwargs)

    return call


class KeptClients(RedisCacheClient):
    """Django's Redis client maker, keeping one client for each connection pool: Django builds a
    new one for every call, which copies redis-py's 170-odd reply handlers, as long as the call
    itself (about 0.1 ms). A client holds no connection of its own; its pool's are shared."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)  # a server chosen as Django chooses it
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class DegradingRedisCache(RedisCache):
    """Django's Redis cache, answering as an empty cache while Redis cannot be reached."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClients


for _name in WHEN_UNREACHABLE:
    setattr(DegradingRedisCache, _name, degrading(_name, getattr(RedisCache, _name)))


def within_rate(key: str, most: int, seconds: int) -> tuple[bool, int]:
    """Count one use of ``key`` in the current window of ``seconds``: (whether it is within
    ``most`` uses, the seconds until the window ends). A limit guards against floods, it keeps
    nothing: with the cache unreachable every use is allowed."""
    now = time.time()
    window = int(now // seconds)
    counted = f"rate:{key}:{window}"
    cache.add(counted, 0, seconds + 1)
    try:
        used = cache.incr(counted)  # 0 with the cache unreachable (WHEN_UNREACHABLE)
    except ValueError:  # the count dropped between add and incr (evicted): count from here
        used = 1
    return used <= most, max(1, int((window + 1) * seconds - now))


def shared_cache_reachable() -> bool | None:
    """Whether the shared cache's Redis answers now (None: no shared cache, each process keeps its
    own). Asked past the degrading, as System status must tell what the pages do not: while it is
    down, within_rate lets every use by."""
    backend = caches["default"]
    if not isinstance(backend, DegradingRedisCache):
        return None
    try:
        RedisCache.has_key(backend, "reachable")
    except RedisError:
        return False
    return True
