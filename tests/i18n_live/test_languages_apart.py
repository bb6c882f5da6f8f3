"""Caches, polls and push know the language (issue 29): a shared part is rendered in a
language and every copy of it, its tag, its 304 and its push topic are keyed by that language,
so a Spanish visitor never receives an English part or the reverse.

Until the templates' words are translated, a part reads the same in every language: each
render here is marked with the language active while it was rendered (`marked`), which is
the language its words would come out in, and the tests read that mark."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.utils import translation

from core import push, shared_cache
from tests.i18n_live.marks import MARK, languages_in, other_process, poll
from tests.tournaments import test_crowd as crowd
from tests.tournaments.test_crowd import HX, get, standings_url
from tournaments import live_cache

pytestmark = pytest.mark.django_db

running = crowd.running  # a published tournament in its group phase, a duel ready
# Every shared part is marked with the language it was rendered in (conftest.py, `marked`).


class TestTheLanguageOfATag:
    def test_the_source_language_keeps_its_tags_another_names_itself(self):
        assert live_cache.in_language('"t3-v12"', "en-gb") == '"t3-v12"'
        assert live_cache.in_language('"t3-v12"', "es") == '"t3-v12-es"'
        assert live_cache.in_language('W/"3-12"', "ms") == 'W/"3-12-ms"'
        for code in ("en-gb", "es", "fr", "ms"):
            tag = live_cache.in_language('"t3-v12-now-ab12"', code)
            assert live_cache.tag_language(tag) == code

    def test_the_language_is_the_active_one(self):
        with translation.override("es"):
            assert live_cache.language() == "es"
            assert live_cache.in_language('"t3-v12"') == '"t3-v12-es"'
        translation.deactivate_all()
        try:
            assert live_cache.language() == "en-gb"
        finally:
            translation.activate("en-gb")


class TestPolls:
    def test_a_spanish_poll_after_an_english_one_gets_spanish(self, running):
        tournament, *_ = running
        english, _ = poll(tournament)
        assert languages_in(english) == {"en-gb"}
        assert english["ETag"] == f'"t{tournament.pk}-v{tournament.standings_version}"'
        spanish, _ = poll(tournament, "es")  # same version: not the English copy
        assert languages_in(spanish) == {"es"}
        assert spanish["ETag"] == f'"t{tournament.pk}-v{tournament.standings_version}-es"'
        # Both now cached: the lean path (no query) serves each its own.
        for language, code in (("es-ES,es;q=0.9", "es"), ("en", "en-gb"), ("fr", None)):
            other_process()
            response, queries = poll(tournament, language)
            if code is None:  # French not rendered yet: the full path renders it, once
                assert languages_in(response) == {"fr"} and queries > 0
            else:
                assert languages_in(response) == {code} and queries == 0

    def test_an_english_tag_never_304s_a_spanish_poll(self, running):
        tournament, *_ = running
        english = poll(tournament)[0]["ETag"]
        spanish = poll(tournament, "es")[0]["ETag"]
        for lean in (True, False):

            def ask(language, held, lean=lean):
                if not lean:  # the full path: no version in the cache for the lean path
                    shared_cache.delete(live_cache.version_key(tournament.slug))
                    other_process()
                response, queries = poll(tournament, language, held)
                assert (queries == 0) is lean
                return response

            response = ask("es", english)
            assert response.status_code == 200 and languages_in(response) == {"es"}
            assert response["ETag"] == spanish
            response = ask("en-GB", spanish)
            assert response.status_code == 200 and languages_in(response) == {"en-gb"}
            assert response["ETag"] == english
            response = ask("es", spanish)
            assert response.status_code == 304 and response["ETag"] == spanish

    def test_the_language_cookie_rules_over_accept_language(self, running):
        tournament, *_ = running
        for _ in range(2):  # the full path, then the lean one
            client = Client()
            client.cookies["django_language"] = "fr"
            response, _ = get(client, standings_url(tournament), **HX, **{"Accept-Language": "es"})
            assert languages_in(response) == {"fr"}
            assert response["ETag"].endswith('-fr"')

    def test_every_lean_answer_varies_on_the_language(self, running):
        tournament, *_ = running
        tag = poll(tournament, "ms")[0]["ETag"]
        for held in (tag, None):
            response, queries = poll(tournament, "ms", held)
            assert queries == 0 and response.status_code == (304 if held else 200)
            vary = {v.strip() for v in response["Vary"].split(",")}
            assert {"Accept-Language", "Cookie", "HX-Request"} <= vary
            assert response["Content-Language"] == "ms"
        # As the full path's answers do (LocaleMiddleware).
        other_process()
        shared_cache.delete(live_cache.version_key(tournament.slug))
        response, queries = poll(tournament, "ms")
        assert queries > 0 and "Accept-Language" in response["Vary"]
        assert response["Content-Language"] == "ms"

    def test_the_home_page_and_a_duels_watch_page_too(self, running):
        tournament, *_, duel = running
        base = f"/t/{tournament.slug}"
        for url in (f"{base}/live/", f"{base}/duels/{duel.pk}/watch/"):
            english, _ = poll(tournament, "en", url=url)
            spanish, _ = poll(tournament, "es", url=url)
            assert languages_in(english) == {"en-gb"} and languages_in(spanish) == {"es"}
            assert spanish["ETag"] == english["ETag"][:-1] + '-es"'
            assert poll(tournament, "es", english["ETag"], url=url)[0].status_code == 200
            assert poll(tournament, "es", spanish["ETag"], url=url)[0].status_code == 304

    def test_a_screen_panel_in_another_language_than_its_browser_takes_the_full_path(self, running):
        """The big screen may be shown in the tournament's language whatever its browser
        says: the lean path does not guess, the view decides."""
        tournament, *_ = running
        url = f"/t/{tournament.slug}/screen/?panel=standings"
        spanish = poll(tournament, "es", url=url)[0]
        assert languages_in(spanish) == {"es"} and spanish["ETag"].endswith('-standings-es"')
        response, queries = poll(tournament, "es", spanish["ETag"], url=url)
        assert response.status_code == 304 and queries == 0  # its own language: lean
        response, queries = poll(tournament, "en", spanish["ETag"], url=url)
        assert queries > 0  # another: the full path (here the browser's language, English)
        assert response.status_code == 200 and languages_in(response) == {"en-gb"}


class TestWholePages:
    def test_an_anonymous_page_started_lean_embeds_its_own_languages_parts(self, running):
        tournament, *_ = running
        for language, code in (("en", "en-gb"), ("en", "en-gb"), ("es", "es"), ("es", "es")):
            headers = {"Accept-Language": language}
            page, queries = get(Client(), standings_url(tournament), **headers)
            assert page.status_code == 200
            assert languages_in(page) == {code}  # the live part and the nav, both
        # The last Spanish page started lean (no query): its parts from the cache, in Spanish.
        assert queries == 0

    def test_a_page_follows_its_languages_topics(self, running, monkeypatch):
        monkeypatch.setattr(push, "enabled", lambda: True)
        tournament, *_ = running
        slug = tournament.slug
        topics = {}
        for language in ("en", "fr"):
            page = Client().get(standings_url(tournament), headers={"Accept-Language": language})
            text = page.content.decode()
            topics[language] = re.search(r'name="push"[^>]*data-topics="([^"]*)"', text)[1]
            assert re.search(r'id="live"[^>]*data-topic="([^"]*)"', text)[1] == topics[language]
        assert topics == {"en": f"public:{slug}:standings", "fr": f"public:{slug}:standings:fr"}


class TestTheAPI:
    def test_the_apis_json_is_kept_per_language(self, running):
        tournament, *_ = running
        made = []

        def render() -> str:
            made.append(translation.get_language())
            return f'{{"in": "{translation.get_language()}"}}'

        for code in ("en-gb", "es", "en-gb", "es", "ms"):
            with translation.override(code):
                assert live_cache.api_json(tournament, "summary", render) == f'{{"in": "{code}"}}'
        assert made == ["en-gb", "es", "ms"]  # once per version and language

    def test_the_lean_path_never_answers_one_languages_json_to_another(self, running):
        tournament, *_ = running
        url = f"/api/tournaments/{tournament.slug}/standings"
        english = Client().get(url)  # the full path: the version, the English JSON
        key = live_cache.api_key(
            live_cache._identity(tournament), "standings", tournament.standings_version, "es"
        )
        shared_cache.set(key, '{"spanish": true}', 60)  # as a Spanish request left it
        response, queries = get(Client(), url, **{"Accept-Language": "es"})
        assert queries == 0 and response.json() == {"spanish": True}
        assert response["ETag"] == english["ETag"][:-1] + '-es"'
        assert response["Content-Language"] == "es" and "Accept-Language" in response["Vary"]
        again, queries = get(
            Client(), url, **{"Accept-Language": "es", "If-None-Match": english["ETag"]}
        )
        assert queries == 0 and again.status_code == 200 and again.json() == {"spanish": True}
        same, queries = get(
            Client(), url, **{"Accept-Language": "es", "If-None-Match": response["ETag"]}
        )
        assert queries == 0 and same.status_code == 304


class Sent(list):
    """What `push.send` was asked to publish: (topic, version, html)."""

    def __call__(self, topic, version=None, html=None, *, order=None):
        self.append((topic, version, html))
        return len(self)

    def html(self, topic: str) -> str:
        found = [html for sent, _, html in self if sent == topic]
        assert len(found) == 1, (topic, [t for t, *_ in self])
        return found[0]


@pytest.fixture
def sent(monkeypatch):
    recorder = Sent()
    monkeypatch.setattr(push, "enabled", lambda: True)
    monkeypatch.setattr(push, "send", recorder)
    return recorder


class TestPush:
    def test_a_result_pushes_each_part_in_each_language_a_page_shows_it_in(
        self, running, sent, monkeypatch
    ):
        tournament, *_ = running
        slug = tournament.slug
        followed = {f"public:{slug}:standings:es", f"public:{slug}:screen-now:ms"}
        monkeypatch.setattr(push, "followed", lambda topics: followed & set(topics))
        live_cache.warm(tournament)
        topics = [topic for topic, *_ in sent]
        # The source language: every part, as before; another: the parts followed in it.
        source = [*(f"public:{slug}:{page}" for page in live_cache.PAGES)]
        source += [f"public:{slug}:screen-{panel}" for panel in live_cache.SCREEN_PANELS]
        assert sorted(topics) == sorted([*source, *followed])
        for topic, version, html in sent:
            code = topic.split(":")[3] if topic.count(":") == 3 else "en-gb"
            assert set(MARK.findall(html)) == {code}, topic
            assert live_cache.tag_language(version) == code
            assert f'data-topic="{topic}"' in html  # the part follows its own language's topic
        # Standings reach the Spanish pages right after the English ones.
        assert topics.index(f"public:{slug}:standings:es") == (
            topics.index(f"public:{slug}:standings") + 1
        )
        # The renders are the cache's copies: a Spanish poll now costs no render.
        response, queries = poll(tournament, "es")
        assert languages_in(response) == {"es"}
        assert response.content.decode() == sent.html(f"public:{slug}:standings:es")

    def test_nobody_watching_another_language_or_marks_unreadable_the_source_alone(
        self, running, sent, monkeypatch
    ):
        tournament, *_ = running
        for marks in (lambda topics: set(), lambda topics: None):
            sent.clear()
            monkeypatch.setattr(push, "followed", marks)
            live_cache.warm(tournament)
            assert sent and all(topic.count(":") == 2 for topic, *_ in sent)
            assert all(set(MARK.findall(html)) == {"en-gb"} for *_, html in sent)

    def test_a_move_pushes_the_running_duels_parts_in_the_languages_watching(
        self, running, sent, monkeypatch
    ):
        tournament, *_, duel = running
        slug = tournament.slug
        followed = {f"public:{slug}:watch-{duel.pk}:fr", f"public:{slug}:home:es"}
        monkeypatch.setattr(push, "followed", lambda topics: followed & set(topics))
        live_cache.push_playing(tournament, duel.pk)
        by_topic = {topic: html for topic, _, html in sent}
        assert set(by_topic) == {
            f"public:{slug}:watch-{duel.pk}",
            f"public:{slug}:home",
            f"public:{slug}:screen-now",
            f"public:{slug}:screen-call",
            *followed,
        }
        assert set(MARK.findall(by_topic[f"public:{slug}:watch-{duel.pk}:fr"])) == {"fr"}
        assert set(MARK.findall(by_topic[f"public:{slug}:home:es"])) == {"es"}
        assert set(MARK.findall(by_topic[f"public:{slug}:home"])) == {"en-gb"}

    def test_a_languages_topic_is_followed_by_whoever_may_see_the_page(self, running):
        tournament, *_ = running
        request = RequestFactory().get("/")
        request.user = AnonymousUser()
        assert push.allowed(request, f"public:{tournament.slug}:standings:es")
        assert not push.allowed(request, "public:no-such-cup:standings:es")


def test_the_lean_paths_language_follows_the_sites_languages(running, settings):
    """The lean path keeps the language of each cookie and Accept-Language pair it saw: a
    change of the site's languages (a test's) forgets them."""
    tournament, *_ = running
    poll(tournament, "fr")
    assert languages_in(poll(tournament, "fr")[0]) == {"fr"}
    settings.LANGUAGES = [("en-gb", "English"), ("es", "Español")]
    other_process()
    response, _ = poll(tournament, "fr")
    assert languages_in(response) == {"en-gb"} and not response["ETag"].endswith('-fr"')


def test_the_pseudo_language_of_the_crawl_is_keyed_apart_too(running):
    """The lead's pseudo-language (tests/i18n/pseudo.py: chosen by the cookie, not one of
    LANGUAGES) gets parts of its own, never the English copies (nor leaves its own there)."""
    from tests.i18n.pseudo import PSEUDO, pseudo_language

    tournament, *_ = running
    english = poll(tournament)[0]
    with pseudo_language():
        for _ in range(2):  # the full path, then the lean one
            client = Client()
            client.cookies["django_language"] = PSEUDO
            response, _ = get(client, standings_url(tournament), **HX)
            assert languages_in(response) == {PSEUDO}
            assert response["ETag"].endswith(f'-{PSEUDO}"')
            held = {"If-None-Match": english["ETag"]}
            assert get(client, standings_url(tournament), **HX, **held)[0].status_code == 200
    other_process()
    assert languages_in(poll(tournament)[0]) == {"en-gb"}


class TestTheScreenInTheTournamentsLanguage:
    """A tournament may show its big screen in a language of its own, whatever the
    projector's browser says (`selectors_public.screen.screen_language`)."""

    @pytest.fixture
    def in_malay(self, monkeypatch):
        from tournaments.views import public

        monkeypatch.setattr(public, "screen_language", lambda tournament: "ms")
        monkeypatch.setattr(live_cache, "screen_language", lambda tournament: "ms")

    def test_its_panels_polls_from_an_english_browser(self, running, in_malay):
        tournament, *_ = running
        url = f"/t/{tournament.slug}/screen/?panel=standings"
        first, _ = poll(tournament, "en", url=url)
        assert languages_in(first) == {"ms"} and first["ETag"].endswith('-standings-ms"')
        # The lean path does not know the screen's language: the view answers, a 304.
        response, queries = poll(tournament, "en", first["ETag"], url=url)
        assert response.status_code == 304 and queries > 0
        # Never the English panel, though the English one is cached (a viewer's, before).
        response, _ = poll(tournament, "en", '"t0-v0-standings-ms"', url=url)
        assert response.status_code == 200 and languages_in(response) == {"ms"}

    def test_the_worker_renders_its_panels_in_that_language_alone(
        self, running, in_malay, sent, monkeypatch
    ):
        tournament, *_ = running
        slug = tournament.slug
        everything = lambda topics: set(topics)  # noqa: E731 - every language watched
        monkeypatch.setattr(push, "followed", everything)
        live_cache.warm(tournament)
        screens = sorted(topic for topic, *_ in sent if ":screen-" in topic)
        assert screens == sorted(f"public:{slug}:screen-{p}:ms" for p in live_cache.SCREEN_PANELS)
        assert all(set(MARK.findall(html)) == {"ms"} for t, _, html in sent if t in screens)
        pages = [topic for topic, *_ in sent if ":screen-" not in topic]
        assert len(pages) == 4 * len(live_cache.PAGES)  # the pages: every language watched
