"""Caches, polls and push know the language (issue 29), through real Redis: the shared cache
of several web processes and the stream server's subscription.

    REDIS_URL=redis://127.0.0.1:6379/7 ./dev test -q -p no:cacheprovider tests/i18n_live

(test_languages_apart.py runs on Redis too when REDIS_URL is set: its shared renders are
then Redis's.) Each render is marked with the language it was rendered in (`marked`)."""

import asyncio
import random
import threading

import pytest
from django.conf import settings

from core import push, shared_cache
from tests.i18n_live.marks import MARK, languages_in, other_process, poll
from tests.push.sse import Stream, fresh_hub, run
from tests.tournaments import test_crowd as crowd
from tournaments import live_cache

pytestmark = [pytest.mark.django_db, pytest.mark.integration]

running = crowd.running


@pytest.fixture
def redis_cache():
    if "Redis" not in settings.CACHES["default"]["BACKEND"]:
        pytest.skip("the shared cache is Redis only where REDIS_URL is set")


@pytest.fixture
def own_slug(running):
    """A slug of this run's own: the marks and stored messages of an earlier run (kept a
    while in Redis) are another tournament's."""
    tournament, *rest = running
    tournament.slug = f"cup-{random.randrange(10**9)}"
    tournament.save(update_fields=["slug"])
    live_cache.forget_version(tournament.slug)
    return (tournament, *rest)


def test_processes_sharing_redis_never_cross_languages(own_slug, redis_cache):
    tournament, *_ = own_slug
    english = poll(tournament, "en")[0]
    other_process()
    spanish, _ = poll(tournament, "es")  # another process, the same version
    assert languages_in(english) == {"en-gb"} and languages_in(spanish) == {"es"}
    for language, held, code in (("es", english["ETag"], "es"), ("en", spanish["ETag"], "en-gb")):
        other_process()
        response, queries = poll(tournament, language, held)
        assert queries == 0 and response.status_code == 200  # lean, from Redis
        assert languages_in(response) == {code}
    other_process()
    response, queries = poll(tournament, "es", spanish["ETag"])
    assert queries == 0 and response.status_code == 304


def test_a_spanish_page_is_pushed_the_spanish_render(own_slug, redis_cache, push_on):
    """A stream opened on a Spanish page's topic marks it followed; the worker's `warm` then
    renders the part in Spanish too and pushes it there: the Spanish page gets the Spanish
    html, the English page the English html, and no French is rendered (nobody watches)."""
    tournament, *_ = own_slug
    slug = tournament.slug
    es, en = f"public:{slug}:standings:es", f"public:{slug}:standings"
    opened, warmed = threading.Event(), threading.Event()
    got: dict[str, dict] = {}
    failed: list[BaseException] = []

    async def streams() -> None:
        hub = fresh_hub(healthy=False)
        hub.start()
        await hub.wait_subscribed(5)
        assert hub.healthy, "the hub did not subscribe to Redis"
        pages = {
            "es": await Stream(push.token_for([es])).open(),
            "en": await Stream(push.token_for([en])).open(),
        }
        for page in pages.values():
            assert (await page.frame())["event"] == "ready"
        for _ in range(100):  # the marks, written as the streams opened
            if await asyncio.to_thread(push.followed, [es, en]) == {es, en}:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the followed topics were not marked")
        opened.set()
        assert await asyncio.to_thread(warmed.wait, 30)
        for name, page in pages.items():
            got[name] = await page.event()
            page.leave()
            await page.finished()
        await hub.stop()

    def background() -> None:
        try:
            run(streams, 60)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failed.append(exc)
        finally:
            opened.set()

    thread = threading.Thread(target=background, name="streams")
    thread.start()
    assert opened.wait(40)
    if not failed:
        live_cache.warm(tournament)  # as the worker does after a result
    warmed.set()
    thread.join(70)
    if failed:
        raise failed[0]
    for name, code in (("es", "es"), ("en", "en-gb")):
        data = got[name]["data"]
        assert set(MARK.findall(data["html"])) == {code}
        assert live_cache.tag_language(data["v"]) == code
    assert got["es"]["data"]["t"] == es and got["en"]["data"]["t"] == en
    # What was pushed is the cache's copy: a Spanish poll gets the same html, lean.
    other_process()
    response, queries = poll(tournament, "es")
    assert queries == 0 and response.content.decode() == got["es"]["data"]["html"]
    # Nobody follows French: not rendered ahead.
    key = live_cache.fragment_key(
        live_cache._identity(tournament),
        "standings",
        live_cache.in_language(f'"t{tournament.pk}-v{tournament.standings_version}"', "fr"),
    )
    assert shared_cache.get(key) is shared_cache.MISSING
