"""Speed under a crowd (issue 15): live fragments rendered once per version and served from
the shared cache, failing open; the lean poll path (304 before sessions, no query)."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from accounts.language import NO_CHOICE_COOKIE
from core import shared_cache
from tests.factories import UserFactory
from tests.tournaments.test_group_services import make, play_round
from tournaments import live_cache, services

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def running():
    """21 players in the group phase, round 1 decided, round 2's duel ready; published."""
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    duel = services.name_representatives(
        tournament, referee, 2, entrants[1].pk, entrants[16].pk, table="7"
    )
    services.set_published(tournament, True, organiser)
    tournament.refresh_from_db()
    return tournament, organiser, referee, entrants, duel


def get(client, url, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return response, len(queries)


class Renders:
    """Counts how many times each template was rendered (Django's test instrumentation)."""

    def __init__(self):
        self.names: list[str] = []

    def __call__(self, sender, template, context, **kwargs):
        # A partial ("live", "panel_standings") is named by the file it is defined in.
        self.names.append(template.origin.template_name)

    def count(self, name: str) -> int:
        return self.names.count(name)


@pytest.fixture
def renders():
    counter = Renders()
    template_rendered.connect(counter)
    yield counter
    template_rendered.disconnect(counter)


def standings_url(tournament) -> str:
    return f"/t/{tournament.slug}/standings/"


class TestOneRenderPerVersion:
    def test_a_crowd_polling_one_version_renders_it_once(self, running, renders):
        tournament, *_ = running
        bodies = set()
        for _ in range(20):  # twenty spectators, each polling without a tag yet
            response, _ = get(Client(), standings_url(tournament), **HX)
            assert response.status_code == 200
            bodies.add(response.content)
        assert len(bodies) == 1
        assert renders.count("public/standings.html") == 1
        assert b"P01" in bodies.pop()  # the fragment, with the table in it

    def test_a_cached_poll_costs_no_query_anonymous_one_signed_in(self, running, renders):
        tournament, *_ = running
        get(Client(), standings_url(tournament), **HX)  # renders and caches
        rendered = len(renders.names)
        # Anonymous: the lean path serves the cached part (tournaments/middleware.py).
        response, queries = get(Client(), standings_url(tournament), **HX)
        assert response.status_code == 200 and b"P01" in response.content
        assert queries == 0
        # Signed in: the full path, the tournament for the permission check and the tag.
        signed_in = Client()
        signed_in.force_login(UserFactory())
        # Its first page tells the browser its account has no language (accounts/language.py),
        # as the sign-in form's answer does; from then on the language needs no session.
        first = signed_in.get(standings_url(tournament), headers=HX)
        assert NO_CHOICE_COOKIE in first.cookies
        response, queries = get(signed_in, standings_url(tournament), **HX)
        assert response.status_code == 200 and b"P01" in response.content
        assert queries == 1
        assert len(renders.names) == rendered

    def test_a_changed_version_re_renders_exactly_once(self, running, renders):
        tournament, organiser, referee, entrants, duel = running
        old = get(Client(), standings_url(tournament), **HX)[0]
        services.configure(tournament, organiser, name="Harbour Cup, renamed")
        for _ in range(10):
            response, _ = get(Client(), standings_url(tournament), **HX)
            assert response.status_code == 200 and response["ETag"] != old["ETag"]
        assert renders.count("public/standings.html") == 2  # one per version
        # Someone still holding the old version gets the new one, without another render.
        response, _ = get(
            Client(), standings_url(tournament), **HX, **{"If-None-Match": old["ETag"]}
        )
        assert response.status_code == 200
        assert renders.count("public/standings.html") == 2

    def test_a_whole_page_embeds_the_shared_part_and_reads_only_the_tournament(
        self, running, renders
    ):
        tournament, organiser, *_ = running
        fragment = get(Client(), standings_url(tournament), **HX)[0].content.decode()
        page, queries = get(Client(), standings_url(tournament))
        assert fragment in page.content.decode()
        assert queries == 1  # the tournament: the table comes with the shared part
        assert renders.count("public/standings.html") == 2  # the part once, the frame once
        # Now the cache holds the version and the row read at it: an anonymous visitor's page
        # starts lean, with no query; someone signed in takes the full path.
        again, queries = get(Client(), standings_url(tournament))
        assert queries == 0 and fragment in again.content.decode()
        assert renders.count("public/standings.html") == 3  # the frame alone
        signed_in = Client()
        signed_in.force_login(organiser)
        mine, queries = get(signed_in, standings_url(tournament))
        assert queries == 3 and fragment in mine.content.decode()  # + the session, the user

    def test_whole_pages_are_never_shared(self, running):
        tournament, *_ = running
        first = Client().get(standings_url(tournament))
        second = Client().get(standings_url(tournament))
        nonce = 'nonce="'
        assert nonce in first.content.decode()
        # Each page carries its own CSP nonce: rendered for its request, not from the cache.
        assert first["Content-Security-Policy"] != second["Content-Security-Policy"]

    def test_the_big_screen_panels_are_shared_too(self, running, renders):
        tournament, *_ = running
        url = f"/t/{tournament.slug}/screen/?panel=standings"
        first = get(Client(), url, **HX)[0]
        second = get(Client(), url, **HX)[0]
        assert first.status_code == second.status_code == 200
        assert first.content == second.content
        assert renders.count("public/screen.html") == 1

    def test_the_api_json_is_made_once_per_version(self, running):
        tournament, organiser, *_ = running
        url = f"/api/tournaments/{tournament.slug}/standings"
        first = Client().get(url)
        with CaptureQueriesContext(connection) as queries:
            second = Client().get(url)
        assert first.json() == second.json() and first.json()[0]["name"]
        assert len(queries) == 0  # the lean path: the version and the rows from the cache
        services.configure(tournament, organiser, name="Harbour Cup, renamed")
        third = Client().get(f"/api/tournaments/{tournament.slug}")
        assert third.json()["name"] == "Harbour Cup, renamed"


@pytest.fixture
def nav_renders(monkeypatch):
    """Counts the renders of the tournament's nav, the shared part of every public page."""
    calls: list[str] = []
    original = live_cache._render_nav

    def counting(tournament, page):
        calls.append(page)
        return original(tournament, page)

    monkeypatch.setattr(live_cache, "_render_nav", counting)
    return calls


class TestSharedFrameParts:
    """A whole page is rendered for each request around its shared parts: the live part, and
    the tournament's nav (its privacy note and its pages' links), rendered once per version
    and page; never the site's header, its user menu, the CSRF token or the nonce."""

    def test_the_nav_is_rendered_once_per_version_and_page(
        self, running, nav_renders, django_capture_on_commit_callbacks
    ):
        tournament, organiser, *_ = running
        for visitor in range(5):
            page, queries = get(Client(), standings_url(tournament))
            # The first renders the live part; the others, anonymous, start lean: no query.
            assert queries == 0 or visitor == 0
            assert 'aria-current="page">Standings</a>' in page.content.decode()
        assert nav_renders == ["standings"]
        Client().get(f"/t/{tournament.slug}/groups/")  # another page marks another link
        assert nav_renders == ["standings", "groups"]
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
        Client().get(standings_url(tournament))
        Client().get(standings_url(tournament))
        assert nav_renders.count("standings") == 2  # once more for the new version

    def test_the_shared_nav_carries_the_tournament_s_name_home_a_heading_elsewhere_a_link(
        self, running, nav_renders
    ):
        tournament, *_ = running
        for _visit in range(2):  # rendered, then embedded as the cache holds it
            home = Client().get(f"/t/{tournament.slug}/live/").content.decode()
            standings = Client().get(standings_url(tournament)).content.decode()
            assert home.count("<h1>Harbour Cup</h1>") == 1
            assert (
                standings.count(
                    f'<p class="t-name"><a href="/t/{tournament.slug}/live/">Harbour Cup</a></p>'
                )
                == 1
            )
        assert nav_renders == ["home", "standings"]

    def test_a_new_release_renders_its_own_parts(self, running, nav_renders, monkeypatch):
        """The parts are keyed by the release too: after a deployment, a page embeds no part
        that the old templates rendered, though the tournament's version is the same."""
        tournament, *_ = running
        Client().get(standings_url(tournament))
        Client().get(standings_url(tournament))
        assert nav_renders == ["standings"]
        monkeypatch.setattr(live_cache, "release", lambda: "next-release")
        shared_cache.forget_kept()
        Client().get(standings_url(tournament))
        assert nav_renders == ["standings", "standings"]

    def test_a_change_of_what_the_nav_shows_reaches_the_next_page(
        self, running, django_capture_on_commit_callbacks
    ):
        tournament, organiser, *_ = running
        signed_in = Client()
        signed_in.force_login(organiser)
        note = "Not published yet"
        assert note not in signed_in.get(standings_url(tournament)).content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            services.set_published(tournament, False, organiser)
        assert note in signed_in.get(standings_url(tournament)).content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            services.set_published(tournament, True, organiser)
        assert note not in signed_in.get(standings_url(tournament)).content.decode()

    def test_the_lean_start_never_outlives_the_version(
        self, running, django_capture_on_commit_callbacks
    ):
        tournament, organiser, *_ = running
        Client().get(standings_url(tournament))  # the full path leaves the version and row
        page, queries = get(Client(), standings_url(tournament))
        assert queries == 0 and "Harbour Cup" in page.content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
        for _ in range(2):  # the full path for the new version, then the lean start
            text = Client().get(standings_url(tournament)).content.decode()
            assert "<title>Standings · Harbour Cup, renamed · " in text
        with django_capture_on_commit_callbacks(execute=True):
            services.set_published(tournament, False, organiser)
        assert Client().get(standings_url(tournament)).status_code == 404
        assert Client().get(f"/t/{tournament.slug}/screen/").status_code == 404

    def test_the_menu_token_and_nonce_stay_per_request(self, running, nav_renders):
        tournament, organiser, *_ = running
        anonymous = Client().get(standings_url(tournament)).content.decode()
        signed_in = Client()
        signed_in.force_login(organiser)
        mine = signed_in.get(standings_url(tournament))
        assert nav_renders == ["standings"]  # the organiser's page took the same nav
        text = mine.content.decode()
        assert organiser.username in text and "Sign out" in text
        assert organiser.username not in anonymous and "Sign out" not in anonymous
        assert "Sign in" in anonymous and "Sign in" not in text
        again = Client().get(standings_url(tournament)).content.decode()
        assert organiser.username not in again and "Sign in" in again

        def token(html: str) -> str:
            return html.split('"X-CSRFToken": "', 1)[1].split('"', 1)[0]

        def nonce(html: str) -> str:
            return html.split('nonce="', 1)[1].split('"', 1)[0]

        # A signed-out visitor's page only reads: no token is made, no cookie set.
        assert '"X-CSRFToken"' not in anonymous and "X-CSRFToken" not in again
        assert token(text) != "" and token(text) != token(
            signed_in.get(standings_url(tournament)).content.decode()
        )
        assert nonce(anonymous) != nonce(again) != nonce(text)

    def test_a_signed_out_visitor_s_public_pages_set_no_csrf_cookie(self, running):
        tournament, organiser, *_ = running
        for page in ("live", "standings", "groups", "rounds", "tiebreaks", "bracket", "screen"):
            for _ in range(2):  # the full path, then the lean start
                response = Client().get(f"/t/{tournament.slug}/{page}/")
                assert response.status_code == 200, page
                assert "csrftoken" not in response.cookies, page
                assert b"X-CSRFToken" not in response.content, page
        # A page with a form still carries its token and sets the cookie.
        sign_in = Client().get("/accounts/login/")
        assert "csrftoken" in sign_in.cookies and b"csrfmiddlewaretoken" in sign_in.content

    def test_the_big_screen_embeds_the_shared_panels(self, running, renders):
        tournament, *_ = running
        url = f"/t/{tournament.slug}/screen/"
        panels = {
            name: get(Client(), f"{url}?panel={name}", **HX)[0].content.decode()
            for name in ("standings", "stage", "now", "call")
        }
        rendered = renders.count("public/screen.html")
        page, queries = get(Client(), url)
        text = page.content.decode()
        assert all(panel in text for panel in panels.values())
        assert queries == 2  # the tournament and the open duels' digest, for the tags
        assert renders.count("public/screen.html") == rendered + 1  # the frame alone
        assert 'id="screen-clock"' in text and "nonce=" in text


def test_one_redis_client_per_pool_serves_every_call():
    # Django's backend builds a client (and its ~170 callbacks) for every call; ours keeps
    # one per pool. Nothing connects until a command is sent.
    from core.redis_cache import RedisCache

    backend = RedisCache("redis://127.0.0.1:9/0", {})
    first = backend._cache.get_client("a")
    assert backend._cache.get_client("b", write=True) is first
    assert RedisCache("redis://127.0.0.1:9/0", {})._cache.get_client() is not first


class TestVersionedPartsKept:
    """A whole page of an unchanged version reads its shared parts from the cache once per
    process: after that, one round trip (the version) per page."""

    @pytest.fixture
    def trips(self, monkeypatch):
        asked: list[list[str]] = []
        real = shared_cache.get_many

        def get_many(keys):
            asked.append(list(keys))
            return real(keys)

        monkeypatch.setattr(shared_cache, "get_many", get_many)
        return asked

    def test_a_page_of_an_unchanged_version_reads_its_parts_once(
        self, running, trips, django_capture_on_commit_callbacks
    ):
        tournament, organiser, *_ = running
        Client().get(standings_url(tournament))  # the full path stores the row and parts
        trips.clear()
        for _ in range(3):
            page, queries = get(Client(), standings_url(tournament))
            assert queries == 0 and "P01" in page.content.decode()
        assert len(trips) == 1  # the row and the two parts, read once
        with django_capture_on_commit_callbacks(execute=True):
            services.configure(tournament, organiser, name="Harbour Cup, renamed")
        for _ in range(2):
            text = Client().get(standings_url(tournament)).content.decode()
            assert "Harbour Cup, renamed" in text  # never the kept copy of the old version

    def test_no_two_requests_share_a_kept_object(self):
        shared_cache.set("row:x:v1", {"name": "Harbour"}, 60)
        first = shared_cache.get_many_versioned(["row:x:v1"])["row:x:v1"]
        first["name"] = "changed by one request"
        again = shared_cache.get_many_versioned(["row:x:v1"])["row:x:v1"]
        assert again == {"name": "Harbour"} and again is not first

    def test_a_kept_part_lasts_only_briefly(self, monkeypatch, trips):
        shared_cache.set("live:x:v1", "<div>v1</div>", 60)
        now = [1000.0]
        monkeypatch.setattr(shared_cache, "_clock", lambda: now[0])
        assert shared_cache.get_many_versioned(["live:x:v1"]) == {"live:x:v1": "<div>v1</div>"}
        now[0] += shared_cache.KEPT_SECONDS - 1
        shared_cache.get_many_versioned(["live:x:v1"])
        assert len(trips) == 1
        now[0] += 2
        shared_cache.get_many_versioned(["live:x:v1"])
        assert len(trips) == 2  # read from the cache again


def test_many_misses_at_the_same_instant_render_once(monkeypatch):
    """Twelve requests miss the same key together: one renders, the others wait for its copy."""
    threads = 12
    attempted = threading.Semaphore(0)
    release = threading.Event()
    real_add = shared_cache.add

    def add(key, value, timeout):
        taken = real_add(key, value, timeout)
        attempted.release()  # this request has tried the lock
        return taken

    renders = []

    def render():
        renders.append(1)
        # Hold the render until every request has missed and tried the lock.
        for _ in range(threads):
            assert attempted.acquire(timeout=10)
        release.set()
        return "<div>fragment</div>"

    monkeypatch.setattr(shared_cache, "add", add)
    results = []
    start = threading.Barrier(threads)

    def spectator():
        start.wait(timeout=10)
        results.append(shared_cache.render_once("test:crowd", render, 60))

    workers = [threading.Thread(target=spectator) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=20)
    assert release.is_set()
    assert results == ["<div>fragment</div>"] * threads
    assert len(renders) == 1


class TestFailsOpen:
    @pytest.fixture
    def redis_down(self, settings):
        # A Redis cache on a port where nothing listens: every cache call fails at once.
        settings.CACHES = {
            "default": {
                "BACKEND": "core.redis_cache.RedisCache",  # as settings.py has it
                "LOCATION": "redis://127.0.0.1:9/0",
                "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
            }
        }

    def test_pages_and_polls_render_as_without_a_cache(self, running, redis_down, renders):
        tournament, *_ = running
        page = Client().get(standings_url(tournament))
        assert page.status_code == 200 and "P01" in page.content.decode()
        first = get(Client(), standings_url(tournament), **HX)[0]
        assert first.status_code == 200 and b"P01" in first.content
        again, queries = get(
            Client(), standings_url(tournament), **HX, **{"If-None-Match": first["ETag"]}
        )
        assert again.status_code == 304  # by the full path: the lean one has no copy
        assert queries == 1
        api = Client().get(f"/api/tournaments/{tournament.slug}/standings")
        assert api.status_code == 200 and api.json()
