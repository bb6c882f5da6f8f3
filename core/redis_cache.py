"""Django's Redis cache backend, with one Redis client per connection pool (issue 15).

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` for every cache call, and
building one registers its ~170 response callbacks: about 60 µs of CPU, as much as the
round trip itself, on each of a page's cache reads and on every poll the lean path answers.
A `redis.Redis` is safe to share between threads (each command borrows a connection from
the pool), so one per pool serves every thread of a process; a forked process gets fresh
connections from the pool as before (redis-py checks the process id).
"""

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            # A race here builds two clients over the same pool: harmless, one is kept.
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
