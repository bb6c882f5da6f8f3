"""The stream server marks the public topics its streams follow (issue 29: the worker renders
a part in a language other than the source one only where an open page shows it in it):
marked as a stream opens, again every FOLLOW_REFRESH seconds, private topics never."""

import asyncio

from core import push, streams
from tests.push.sse import fresh_hub, run


class FakeRedis:
    def __init__(self) -> None:
        self.marked: list[tuple[str, int]] = []

    def pipeline(self, transaction: bool = True) -> "FakeRedis":
        return self

    async def __aenter__(self) -> "FakeRedis":
        return self

    async def __aexit__(self, *exc) -> None:
        return None

    def set(self, key: str, value, ex: int) -> None:
        self.marked.append((key, ex))

    async def execute(self) -> None:
        return None


def test_public_topics_are_marked_as_a_stream_opens_and_again_later():
    async def test():
        hub = fresh_hub(healthy=True)
        redis = hub._redis = FakeRedis()
        es, en, private = "public:cup:standings:es", "public:cup:standings", "tournament:1"
        hub.add(streams.Listener([es, private], {}))
        await asyncio.sleep(0.01)
        assert redis.marked == [(push.FOLLOW_PREFIX + es, push.FOLLOW_SECONDS)]
        hub.add(streams.Listener([es, en], {}))  # es followed here already: en alone
        await asyncio.sleep(0.01)
        assert redis.marked[1:] == [(push.FOLLOW_PREFIX + en, push.FOLLOW_SECONDS)]
        redis.marked.clear()
        hub._marked_at = -streams.FOLLOW_REFRESH  # the refresh is due
        hub.refresh_marks()
        hub.refresh_marks()  # and not again at once
        await asyncio.sleep(0.01)
        assert sorted(key for key, _ in redis.marked) == [
            push.FOLLOW_PREFIX + en,
            push.FOLLOW_PREFIX + es,
        ]
        assert push.FOLLOW_SECONDS > 2 * streams.FOLLOW_REFRESH  # a refresh missed is no gap
        await hub.stop()

    run(test)


def test_a_redis_that_fails_costs_the_marks_only():
    class Failing(FakeRedis):
        async def execute(self) -> None:
            raise ConnectionError("gone")

    async def test():
        hub = fresh_hub(healthy=True)
        hub._redis = Failing()
        await hub.mark(["public:cup:home:fr"])  # logged, not raised
        hub._redis = None
        await hub.mark(["public:cup:home:fr"])  # no subscription: nothing to do
        await hub.stop()

    run(test)
