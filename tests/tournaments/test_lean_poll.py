"""The lean poll path (issue 15): an anonymous, unchanged poll answered 304 by
`tournaments.middleware.LeanPollMiddleware` from the cached version, before sessions and
authentication, with no query; every change of what a page shows moves the version."""

import pytest
from django.test import Client

from accounts.models import Role
from accounts.services import grant_role
from tests.factories import UserFactory
from tests.tournaments import test_crowd as crowd
from tests.tournaments.test_crowd import HX, get, standings_url
from tournaments import services

pytestmark = pytest.mark.django_db

running = crowd.running  # the fixture: a published tournament in its group phase


class TestLeanPath:
    def tag(self, tournament) -> str:
        # A first poll by the full path: leaves the version in the cache.
        return get(Client(), standings_url(tournament), **HX)[0]["ETag"]

    def test_an_anonymous_unchanged_poll_is_304_without_a_query(self, running):
        tournament, *_ = running
        tag = self.tag(tournament)
        response, queries = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        assert response.status_code == 304 and response["ETag"] == tag
        assert queries == 0
        assert "no-store" in response["Cache-Control"] and "Cookie" in response["Vary"]
        # The API's answers too.
        api = Client().get(f"/api/tournaments/{tournament.slug}/standings")
        response, queries = get(
            Client(),
            f"/api/tournaments/{tournament.slug}/standings",
            **{"If-None-Match": api["ETag"]},
        )
        assert response.status_code == 304 and queries == 0

    def test_a_poll_for_a_rendered_version_gets_it_without_a_query(
        self, running, django_capture_on_commit_callbacks
    ):
        tournament, organiser, *_ = running
        old = self.tag(tournament)
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
        first = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": old})[0]
        assert first.status_code == 200  # the full path renders the new version, once
        # The rest of the crowd, still holding the old tag, get the same part, lean.
        again, queries = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": old})
        assert again.status_code == 200 and queries == 0
        assert again.content == first.content and again["ETag"] == first["ETag"] != old
        assert "no-store" in again["Cache-Control"] and "Cookie" in again["Vary"]
        api = f"/api/tournaments/{tournament.slug}/standings"
        json_first = Client().get(api)
        json_again, queries = get(Client(), api)
        assert queries == 0 and json_again.json() == json_first.json()
        assert json_again["ETag"] == json_first["ETag"]

    def test_a_result_makes_the_next_poll_a_200(self, running, django_capture_on_commit_callbacks):
        tournament, organiser, *_ = running
        tag = self.tag(tournament)
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
        response, _ = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        assert response.status_code == 200
        assert response["ETag"] != tag

    def test_unpublishing_makes_the_next_poll_not_304(
        self, running, django_capture_on_commit_callbacks
    ):
        tournament, organiser, *_ = running
        tag = self.tag(tournament)
        # The process's copy of the version taken, as a crowd's polls take it.
        assert (
            get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})[0].status_code
            == 304
        )
        with django_capture_on_commit_callbacks(execute=True):
            services.set_published(tournament, False, organiser)
        response, _ = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        assert response.status_code == 404  # not public any more: not even a 304

    def test_a_role_granted_changes_the_version(self, running, django_capture_on_commit_callbacks):
        tournament, organiser, *_ = running
        tag = self.tag(tournament)
        newcomer = UserFactory()
        with django_capture_on_commit_callbacks(execute=True):
            grant_role(organiser, tournament, newcomer.username, Role.REFEREE)
        response, _ = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        assert response.status_code == 200 and response["ETag"] != tag

    def test_a_session_cookie_takes_the_full_path(self, running):
        tournament, *_ = running
        tag = self.tag(tournament)
        signed_in = Client()
        signed_in.force_login(UserFactory())
        response, queries = get(
            signed_in, standings_url(tournament), **HX, **{"If-None-Match": tag}
        )
        assert response.status_code == 304
        assert queries >= 1  # the full path: the view read the tournament

    def test_a_poll_of_another_page_or_a_whole_page_is_not_lean(self, running):
        tournament, *_ = running
        tag = self.tag(tournament)
        # Not a poll (no HX-Request): the whole page, never a 304.
        whole, _ = get(Client(), standings_url(tournament), **{"If-None-Match": tag})
        assert whole.status_code == 200 and "<html" in whole.content.decode()
        # Now playing follows the open duels' moves: its tag is not the version alone.
        home, queries = get(Client(), f"/t/{tournament.slug}/live/", **HX, **{"If-None-Match": tag})
        assert home.status_code == 200 and queries > 0


class TestTheProcessCopyOfTheVersion:
    """A web process answers a crowd's unchanged polls (their 304s only) and frames an
    anonymous visitor's whole page from the version it read within the last second
    (`live_cache.recent_entry`)."""

    @pytest.fixture
    def reads(self, monkeypatch):
        from core import shared_cache
        from tournaments import live_cache

        asked: list[str] = []
        real = shared_cache.get

        def get(key):
            if key.startswith("public-version:"):
                asked.append(key)
            return real(key)

        monkeypatch.setattr(shared_cache, "get", get)
        now = [1000.0]
        monkeypatch.setattr(live_cache, "_clock", lambda: now[0])
        return asked, now

    def test_unchanged_polls_ask_the_shared_cache_once_a_second(self, running, reads):
        tournament, *_ = running
        asked, now = reads
        tag = TestLeanPath().tag(tournament)
        asked.clear()
        for _ in range(5):
            response, queries = get(
                Client(), standings_url(tournament), **HX, **{"If-None-Match": tag}
            )
            assert response.status_code == 304 and queries == 0
        assert len(asked) == 1
        now[0] += 1.5
        get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        assert len(asked) == 2

    def test_a_change_made_elsewhere_reaches_a_poll_within_the_second(
        self, running, reads, django_capture_on_commit_callbacks
    ):
        from tournaments import live_cache

        tournament, organiser, *_ = running
        asked, now = reads
        tag = TestLeanPath().tag(tournament)
        assert (
            get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})[0].status_code
            == 304
        )
        kept = dict(live_cache._recent)
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
        live_cache._recent.update(kept)  # as another process would still hold it
        held = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})[0]
        assert held.status_code == 304  # the second's copy: nothing the poll lacks is sent
        now[0] += 1.5
        fresh = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})[0]
        assert fresh.status_code == 200 and fresh["ETag"] != tag

    def test_the_process_making_a_change_answers_the_old_tag_no_more(
        self, running, django_capture_on_commit_callbacks
    ):
        from core import shared_cache
        from tournaments import live_cache

        tournament, organiser, *_ = running
        tag = TestLeanPath().tag(tournament)
        for _ in range(2):  # the copy is taken
            assert (
                get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})[
                    0
                ].status_code
                == 304
            )
        old = shared_cache.get(live_cache.version_key(tournament.slug))
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
            # Between the bump and the commit, a full-path request of this process puts the
            # old version back and a poll takes its copy of it.
            shared_cache.add(live_cache.version_key(tournament.slug), old, 300)
            get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        response = get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})[0]
        assert response.status_code == 200 and response["ETag"] != tag

    def test_the_copy_never_serves_a_part_after_unpublishing(
        self, running, reads, django_capture_on_commit_callbacks
    ):
        from tournaments import live_cache

        tournament, organiser, *_ = running
        tag = TestLeanPath().tag(tournament)
        get(Client(), standings_url(tournament), **HX, **{"If-None-Match": tag})
        kept = dict(live_cache._recent)
        with django_capture_on_commit_callbacks(execute=True):
            services.set_published(tournament, False, organiser)
        live_cache._recent.update(kept)  # another process, within its second
        # A poll holding an older tag (or none) asks the shared cache: not public, a 404.
        for headers in ({"If-None-Match": '"t0-v0"'}, {}):
            response = get(Client(), standings_url(tournament), **HX, **headers)[0]
            assert response.status_code == 404

    def test_a_crowd_s_page_loads_ask_the_shared_cache_once_a_second(self, running, reads):
        tournament, *_ = running
        asked, now = reads
        Client().get(standings_url(tournament))  # the full path leaves the version and row
        asked.clear()
        for _ in range(5):
            page, queries = get(Client(), standings_url(tournament))
            assert page.status_code == 200 and queries == 0
            assert "Harbour Cup" in page.content.decode()
        assert len(asked) == 1
        now[0] += 1.5
        get(Client(), standings_url(tournament))
        assert len(asked) == 2

    def test_a_page_load_elsewhere_sees_unpublishing_within_the_second(
        self, running, reads, django_capture_on_commit_callbacks
    ):
        """The one thing the copy lets through: in another process, within its second, the
        whole page as it was public a moment before; after that second, a 404."""
        from tournaments import live_cache

        tournament, organiser, *_ = running
        asked, now = reads
        Client().get(standings_url(tournament))
        assert get(Client(), standings_url(tournament))[1] == 0  # the copy is taken
        kept = dict(live_cache._recent)
        with django_capture_on_commit_callbacks(execute=True):
            services.set_published(tournament, False, organiser)
        assert Client().get(standings_url(tournament)).status_code == 404  # this process
        live_cache._recent.update(kept)  # another process, within its second
        assert Client().get(standings_url(tournament)).status_code == 200
        now[0] += 1.5
        assert Client().get(standings_url(tournament)).status_code == 404
